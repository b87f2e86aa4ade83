"""REST edges: the text rule (NUL, lone surrogates), the JSON depth limit, JSON errors under /api/ always."""

import json

import django.db
import pytest
from django.test import RequestFactory, override_settings
from django.utils.functional import SimpleLazyObject

from assets.models import Asset, Transaction
from goals.models import Budget
from zeus.debug import DependencyAwareExceptionReporter
from zeus.text import MAX_JSON_DEPTH, json_too_deep, scrub, unstorable_path

WRITES = {
    "/api/v1/assets": {"name": "Wallet", "kind": "cash", "balance": "5k"},
    "/api/v1/transactions": {
        "amount": "5k",
        "description": "x",
        "direction": "expense",
        "category": "dining",
        "occurred_on": "2026-11-01",
    },
    "/api/v1/budgets": {"category": "dining", "amount": "1tr"},
    "/api/v1/goals": {"name": "House", "kind": "house", "target_amount": "1ty", "deadline": "5 years"},
    "/api/v1/plans": {"month": "2026-12"},
    "/api/v1/auth/token": {"username": "alice", "password": "x"},
}
LISTS = (
    "/api/v1/assets",
    "/api/v1/transactions",
    "/api/v1/goals",
    "/api/v1/budgets",
    "/api/v1/notifications",
    "/api/v1/plans",
    "/api/v1/suggestions",
    "/api/v1/chat/threads",
)


def _nothing_written():
    return not (Asset.objects.exists() or Transaction.objects.exists() or Budget.objects.exists())


@pytest.mark.django_db
@pytest.mark.parametrize("url", list(WRITES))
def test_deeply_nested_json_is_a_clear_400_not_a_recursion_error(alice_api, url):
    body = "[" * 2048 + "]" * 2048
    response = alice_api.post(url, body, content_type="application/json")
    assert response.status_code == 400, response.content[:200]
    assert response.json()["error"]["code"] == "MALFORMED_REQUEST"
    assert "deeper than" in response.json()["error"]["message"]


@pytest.mark.django_db
def test_nesting_within_the_limit_reaches_the_view(alice_api):
    inner = {"name": "Wallet", "kind": "cash", "balance": "5k", "extra": json.loads("[" * 20 + "]" * 20)}
    response = alice_api.post("/api/v1/assets", inner, format="json")
    assert response.status_code == 201, response.content[:200]


@pytest.mark.django_db
@pytest.mark.parametrize("url", list(WRITES))
@pytest.mark.parametrize("bad", ["\x00", "\ud800", "a\udfffb"])
def test_unstorable_text_anywhere_in_a_body_is_refused_with_its_place(alice_api, url, bad):
    body = {**WRITES[url], "extra": {"deep": [f"x{bad}"]}}
    raw = json.dumps(body)  # ensure_ascii: the lone surrogate travels as the escape `\ud800`
    response = alice_api.post(url, raw, content_type="application/json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "INVALID_TEXT"
    assert error["fields"] == {"extra.deep.0": ["Contains a NUL character or an unpaired surrogate."]}
    assert _nothing_written()


@pytest.mark.django_db
def test_unstorable_text_in_a_key_is_refused(alice_api):
    response = alice_api.post("/api/v1/assets", '{"name\\u0000": "x"}', content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_TEXT"


@pytest.mark.django_db
def test_a_body_that_is_not_utf8_is_a_400(alice_api):
    response = alice_api.post("/api/v1/assets", b'{"name": "\xff"}', content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "MALFORMED_REQUEST"


@pytest.mark.django_db
@pytest.mark.parametrize("url", LISTS)
def test_a_nul_in_a_query_string_is_refused_before_any_view(alice_api, url):
    for query in ("category=%00", "cursor=a%00b", "%00=1", "status=ok&status=%00"):
        response = alice_api.get(f"{url}?{query}")
        assert response.status_code == 400, (url, query, response.content[:200])
        assert response.json()["error"]["code"] == "INVALID_TEXT"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/integrations/sepay/webhook/ab%00cd", "/api/v1/transactions/1%00"])
def test_a_nul_in_the_path_is_refused_before_any_view(client, path):
    response = client.post(path, data=b"{}", content_type="application/json")
    assert response.status_code == 400, response.content[:200]
    assert response.json()["error"]["code"] == "INVALID_TEXT"


@pytest.mark.django_db
def test_a_nul_in_a_form_body_is_refused(client, alice):
    response = client.post("/accounts/login/", {"login": "alice\x00", "password": "x"})
    assert response.status_code == 400
    response = client.post("/api/v1/auth/token", {"username": "alice\x00", "password": "x"})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_TEXT"


@pytest.mark.django_db
def test_a_nul_in_an_admin_form_is_refused(client, staff, alice):
    client.force_login(staff)
    response = client.post(f"/admin/auth/user/{alice.id}/change/", {"username": "al\x00ice"})
    assert response.status_code == 400
    alice.refresh_from_db()
    assert alice.username == "alice"


@pytest.mark.django_db
def test_the_idempotency_record_admin_has_no_editable_json(client, staff):
    from plans.admin import IdempotencyRecordAdmin

    assert "body" in IdempotencyRecordAdmin.readonly_fields


@pytest.mark.django_db(transaction=True)
def test_postgres_would_refuse_these_texts_at_the_insert(alice, alice_api):
    """Why the rule exists: without it the write fails inside the database driver, a 500."""
    from django.db import connection

    with pytest.raises(django.db.DataError, match="NUL"):
        Asset.objects.create(user=alice, name="a\x00b", kind="cash", balance=0, currency="VND")
    with pytest.raises(UnicodeEncodeError):
        Asset.objects.create(user=alice, name="a\ud800b", kind="cash", balance=0, currency="VND")
    with pytest.raises(django.db.DataError), connection.cursor() as cursor:
        cursor.execute("SELECT %s::jsonb", ['{"a": "\\u0000"}'])
    response = alice_api.post(
        "/api/v1/assets", '{"name": "a\\u0000b", "kind": "cash"}', content_type="application/json"
    )
    assert response.status_code == 400
    assert not Asset.objects.exists()


@pytest.mark.django_db
@override_settings(DEBUG=True)
@pytest.mark.parametrize("url", ["/api/nope", "/api/v1/nope", "/api/v1/assets/x/y", "/api/v2/"])
def test_unknown_api_paths_are_json_404s_even_under_debug(client, url):
    response = client.get(url)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "NOT_FOUND"


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [True, False])
def test_an_unexpected_error_under_api_is_a_json_500_in_every_mode(alice, monkeypatch, settings, debug):
    from rest_framework.test import APIClient

    settings.DEBUG = debug

    def boom(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("zeus.api.views.profile_get", boom)
    client = APIClient(raise_request_exception=False)
    client.force_login(alice)
    response = client.get("/api/v1/profile")
    assert response.status_code == 500
    assert response.json()["error"]["code"] == "SERVER_ERROR"


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [True, False])
def test_a_database_error_under_api_is_a_503_with_retry_after(alice, monkeypatch, settings, debug):
    from rest_framework.test import APIClient

    settings.DEBUG = debug

    def down(**kwargs):
        raise django.db.OperationalError("connection refused")

    monkeypatch.setattr("zeus.api.views.profile_get", down)
    client = APIClient(raise_request_exception=False)
    client.force_login(alice)
    response = client.get("/api/v1/profile")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.json()["error"]["code"] == "SERVICE_UNAVAILABLE"


@pytest.mark.django_db
def test_an_api_csrf_failure_is_json(client, alice):
    from django.test import Client

    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(alice)
    response = csrf_client.post("/api/v1/assets", {"name": "x"}, content_type="application/json")
    assert response.status_code == 403
    assert response["Content-Type"] == "application/json"


def test_the_debug_page_does_not_read_the_user_when_the_database_is_down():
    asked = []

    def load_user():
        asked.append(1)
        raise django.db.OperationalError("down")

    request = RequestFactory().get("/accounts/login/")
    request.user = SimpleLazyObject(load_user)
    try:
        raise django.db.OperationalError("connection refused")
    except django.db.OperationalError as exc:
        html = DependencyAwareExceptionReporter(request, type(exc), exc, exc.__traceback__).get_traceback_html()
    assert asked == []
    assert "a dependency is down" in html


def test_the_rule_itself():
    assert unstorable_path({"a": ["ok", {"b": "x\x00"}]}) == "a.1.b"
    assert unstorable_path({"a": "fine", "b": ["\u00e9\U0001f600"]}) is None
    assert unstorable_path("\ud83d") == ""
    assert scrub("a\x00b\ud800c") == "a\ufffdb\ufffdc"
    assert json_too_deep("[" * (MAX_JSON_DEPTH + 1))
    assert not json_too_deep("[" * MAX_JSON_DEPTH)
    assert not json_too_deep('["' + "[" * 100 + '"]')
    assert not json_too_deep('["\\"' + "[" * 100 + '"]')
