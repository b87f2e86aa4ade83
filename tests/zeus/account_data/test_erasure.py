import datetime as dt
import io

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from assets.models import Transaction
from chat.mcp.services import mcp_token_create
from chat.models import AdminReply, McpToken, Thread
from tests import factories
from tests.accounts.helpers import activate_totp, sign_in, totp
from tests.assets.feeds.sepay import deliver, payload
from tests.zeus.account_data.conftest import rich_ledger
from zeus.account_data.registry import records
from zeus.formatting import date_text
from zeus.models import AccountExport, DeviceToken, ErasureRecord, ErasureRequest

PASSWORD = factories.PASSWORD


def web(user) -> Client:
    client = Client()
    signed_in = client.post("/accounts/login/", {"login": user.username, "password": PASSWORD})
    assert signed_in.status_code == 302, signed_in.content
    return client


def erase(api, **body):
    return api.post("/api/v1/account/delete", {"password": PASSWORD, **body}, format="json")


def error_code(response) -> str:
    return response.json()["error"]["code"]


def test_a_wrong_password_schedules_nothing(alice, alice_api):
    response = erase(alice_api, password="not it")
    assert response.status_code == 403 and error_code(response) == "WRONG_PASSWORD"
    assert not ErasureRequest.objects.exists()
    assert erase(alice_api, password="").status_code == 400


def test_a_user_with_a_second_factor_must_give_its_code(alice, alice_api, client):
    sign_in(client, "alice")
    secret = activate_totp(client)

    response = erase(alice_api, code="000000")
    assert response.status_code == 401 and error_code(response) == "MFA_REQUIRED"
    assert not ErasureRequest.objects.exists()
    assert erase(alice_api, code=totp(secret)).status_code == 202


def test_the_request_locks_the_account_at_once(alice, bob, alice_api, bob_api):
    browser = web(alice)
    bobs_browser = web(bob)
    mcp_token_create(user=alice)
    mcp_token_create(user=bob)
    before = timezone.now()

    response = erase(alice_api)

    assert response.status_code == 202, response.content
    body = response.json()
    assert body["status"] == "scheduled"
    erase_after = dt.datetime.fromisoformat(body["erase_after"])
    assert erase_after - dt.datetime.fromisoformat(body["requested_at"]) == dt.timedelta(days=7)
    assert dt.datetime.fromisoformat(body["requested_at"]) >= before
    assert not DeviceToken.objects.filter(user=alice).exists()
    assert not McpToken.objects.filter(user=alice).exists()
    assert alice_api.get("/api/v1/profile").status_code == 401
    assert browser.get("/").status_code == 302 and browser.get("/").url == "/accounts/login/"
    # Nobody else is touched.
    assert bob_api.get("/api/v1/profile").status_code == 200
    assert bobs_browser.get("/").status_code == 200
    assert McpToken.objects.filter(user=bob).exists()
    # The token API offers only the way to cancel.
    refused = APIClient().post("/api/v1/auth/token", {"username": "alice", "password": PASSWORD}, format="json")
    assert refused.status_code == 403 and error_code(refused) == "ACCOUNT_ERASURE_PENDING"
    assert "cancel" in refused.json()["error"]["message"]
    assert not DeviceToken.objects.filter(user=alice).exists()
    again = erase(bob_api)
    assert again.status_code == 202


def test_the_web_form_locks_and_signs_out(alice):
    browser = web(alice)
    wrong = browser.post("/settings/data/delete", {"password": "nope"})
    assert wrong.status_code == 400 and not ErasureRequest.objects.exists()
    response = browser.post("/settings/data/delete", {"password": PASSWORD})
    assert response.status_code == 200
    erase_after = ErasureRequest.objects.get(user=alice).erase_after
    local_day = timezone.localtime(erase_after, alice.profile.tz).date()  # the user's calendar, not UTC's
    assert date_text(local_day, locale="en") in response.content.decode()
    assert browser.get("/settings").status_code == 302
    assert not Session.objects.exists()


def test_signing_in_afterwards_offers_only_to_cancel(alice, alice_api):
    assert erase(alice_api).status_code == 202
    browser = Client()
    signed_in = browser.post("/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert signed_in.status_code == 302
    assert browser.get("/").url == "/account/erasure"
    assert browser.get("/transactions").url == "/account/erasure"
    page = browser.get("/account/erasure")
    assert page.status_code == 200
    assert "Cancel the erasure" in page.content.decode()
    api = browser.get("/api/v1/profile")
    assert api.status_code == 403 and error_code(api) == "ACCOUNT_ERASURE_PENDING"

    cancelled = browser.post("/account/erasure/cancel")
    assert cancelled.url == "/"
    assert not ErasureRequest.objects.exists()
    assert browser.get("/").status_code == 200
    assert browser.get("/api/v1/profile").status_code == 200


def test_cancel_over_the_api_with_credentials(alice, alice_api, anon_api):
    assert erase(alice_api).status_code == 202
    cancel = "/api/v1/account/delete/cancel"
    assert error_code(anon_api.post(cancel, {}, format="json")) == "CREDENTIALS_REQUIRED"
    wrong = anon_api.post(cancel, {"username": "alice", "password": "x"}, format="json")
    assert wrong.status_code == 400 and error_code(wrong) == "INVALID_CREDENTIALS"
    done = anon_api.post(cancel, {"username": "alice", "password": PASSWORD}, format="json")
    assert done.status_code == 200 and done.json() == {"status": "cancelled"}
    assert not ErasureRequest.objects.exists()
    none = anon_api.post(cancel, {"username": "alice", "password": PASSWORD}, format="json")
    assert none.status_code == 404 and error_code(none) == "NO_ERASURE_PENDING"
    token = APIClient().post("/api/v1/auth/token", {"username": "alice", "password": PASSWORD}, format="json")
    assert token.status_code == 200


def _erase_at(moment: dt.datetime) -> str:
    out = io.StringIO()
    call_command("erase_accounts", "--now", moment.isoformat(), stdout=out)
    return out.getvalue()


def rows_naming(user_id: int) -> list[str]:
    """Every row of every installed model whose foreign key to the user model holds `user_id`."""
    found = []
    user_model = get_user_model()
    for model in apps.get_models():
        for f in model._meta.concrete_fields:
            names_user = f.is_relation and f.related_model is user_model
            if names_user and model._default_manager.filter(**{f.attname: user_id}).exists():
                found.append(f"{model._meta.label}.{f.name}")
        if model is user_model and model._default_manager.filter(pk=user_id).exists():
            found.append(model._meta.label)
    return found


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def test_erasure_after_seven_days_leaves_nothing_that_names_the_user(
    alice, bob, alice_api, bob_api, staff, on_commit, media
):
    rich_ledger(alice)
    factories.txn(bob, amount="1000", description="bob's")
    sepay = alice_api.post("/api/v1/integrations/sepay", {"auth": "api_key"}, format="json").json()
    casso = alice_api.post("/api/v1/integrations/casso", {"name": "C"}, format="json").json()
    bobs_sepay = bob_api.post("/api/v1/integrations/sepay", {"auth": "api_key"}, format="json").json()
    with on_commit():
        alice_api.post("/api/v1/account/export")
    export_file = media / AccountExport.objects.get(user=alice).file.name
    assert export_file.exists()
    thread = Thread.objects.filter(user=alice).first()
    AdminReply.objects.create(staff=staff, thread=thread, user=alice, prompt="hello")
    AdminReply.objects.create(staff=alice, user=bob, prompt="a reply alice wrote as staff")
    web(alice)
    failed = Client().post("/accounts/login/", {"login": "alice", "password": "wrong"})
    assert failed.status_code == 200  # a failed attempt, which django-axes records under the username
    assert apps.get_model("axes", "AccessAttempt").objects.filter(username="alice").exists()
    requested = erase(alice_api).json()
    alice_id = alice.id

    early = dt.datetime.fromisoformat(requested["erase_after"]) - dt.timedelta(minutes=1)
    assert "erased 0" in _erase_at(early)
    assert get_user_model().objects.filter(id=alice_id).exists()

    with on_commit():
        assert "erased 1" in _erase_at(dt.datetime.fromisoformat(requested["erase_after"]))

    assert rows_naming(alice_id) == []
    for record in records():
        assert not record.model._default_manager.filter(**{f"{record.owner}__id": alice_id}).exists(), record.label
    assert all(s.get_decoded().get("_auth_user_id") != str(alice_id) for s in Session.objects.all())
    if apps.is_installed("axes"):
        assert not apps.get_model("axes", "AccessAttempt").objects.filter(username="alice").exists()
    assert not export_file.exists()
    [kept] = ErasureRecord.objects.all()
    assert kept.requested_at == dt.datetime.fromisoformat(requested["requested_at"])
    assert {f.name for f in ErasureRecord._meta.get_fields()} == {"id", "requested_at", "erased_at"}
    # Bob keeps everything, including the reply alice wrote as staff (now by nobody).
    assert Transaction.objects.filter(user=bob).count() == 1
    assert AdminReply.objects.get(user=bob).staff is None
    # The erased user's webhooks answer 410; a URL never connected is still 401, and bob's still lands.
    gone = deliver(Client(), {**sepay, "secret": sepay["secret"]}, payload())
    assert gone.status_code == 410 and error_code(gone) == "CONNECTION_GONE"
    casso_gone = Client().post(casso["webhook_url"], b"{}", content_type="application/json")
    assert casso_gone.status_code == 410 and error_code(casso_gone) == "CONNECTION_GONE"
    never = deliver(Client(), {**sepay, "webhook_url": sepay["webhook_url"][:-4] + "nope"}, payload())
    assert never.status_code == 401
    assert deliver(Client(), bobs_sepay, payload()).status_code == 200


def test_the_daily_job_erases_what_is_due_and_skips_a_cancelled_one(alice, bob, alice_api, bob_api, anon_api):
    from zeus.account_data.tasks import erase_due_accounts

    erase(alice_api)
    erase(bob_api)
    anon_api.post("/api/v1/account/delete/cancel", {"username": "bob", "password": PASSWORD}, format="json")
    ErasureRequest.objects.update(erase_after=timezone.now() - dt.timedelta(seconds=1))
    assert erase_due_accounts() == 1
    assert not get_user_model().objects.filter(username="alice").exists()
    assert get_user_model().objects.filter(username="bob").exists()
    assert erase_due_accounts() == 0


@pytest.mark.parametrize("moment", ["tomorrow", "2026-13-40T00:00:00+00:00", "2026-12-10T04:00:00"])
def test_the_command_refuses_a_moment_it_cannot_read(moment):
    with pytest.raises(CommandError, match="--now"):
        call_command("erase_accounts", "--now", moment)


def test_the_beat_runs_the_erasure_daily():
    from zeus.celery import app

    entry = app.conf.beat_schedule["zeus.erase_due_accounts"]
    assert entry["task"] == "zeus.erase_due_accounts"
    assert entry["schedule"].hour == {4} and entry["schedule"].minute == {10}
