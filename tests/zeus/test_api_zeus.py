import json

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from assets.models import Asset
from tests import factories
from tests.assets.helpers import assert_error
from zeus.api.errors import server_error
from zeus.models import Notification
from zeus.services import notification_create

pytestmark = pytest.mark.django_db


# Token auth


def test_a_token_is_issued_for_good_credentials_and_works(anon_api, alice):
    response = anon_api.post("/api/v1/auth/token", {"username": "alice", "password": factories.PASSWORD}, format="json")
    assert response.status_code == 200
    token = response.json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/v1/profile").json()["username"] == "alice"
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert client.get("/api/v1/profile").status_code == 200
    # Each call is another device with a token of its own; the first one still works.
    again = anon_api.post("/api/v1/auth/token", {"username": "alice", "password": factories.PASSWORD}, format="json")
    assert again.json()["token"] != token
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/v1/profile").status_code == 200


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"username": "alice", "password": "wrong"}, 400),
        ({"username": "nobody", "password": "x"}, 400),
        ({"username": "alice"}, 400),
        ({}, 400),
    ],
)
def test_bad_credentials_get_no_token(anon_api, alice, body, status):
    assert_error(anon_api.post("/api/v1/auth/token", body, format="json"), status)


def test_a_bad_token_is_a_401(alice):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    error = assert_error(client.get("/api/v1/assets"), 401, "AUTHENTICATION_FAILED")
    assert error["message"]


@pytest.mark.parametrize("key", ["abc\x00def", "x" * 5000])
def test_a_key_no_token_can_have_is_a_401_not_a_database_error(alice, key):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert_error(client.get("/api/v1/profile"), 401, "AUTHENTICATION_FAILED")


@pytest.mark.parametrize(
    "path", ["/api/v1/assets", "/api/v1/transactions", "/api/v1/budgets", "/api/v1/goals", "/api/v1/profile"]
)
def test_anonymous_requests_are_401s_with_a_challenge(anon_api, path):
    response = anon_api.get(path)
    assert_error(response, 401, "NOT_AUTHENTICATED")
    assert response["WWW-Authenticate"] == "Token"


# Session auth and CSRF


def test_session_auth_enforces_csrf(alice):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(alice)
    assert client.get("/api/v1/assets").status_code == 200
    response = client.post("/api/v1/assets", {"name": "Wallet", "kind": "cash"}, format="json")
    error = assert_error(response, 403, "PERMISSION_DENIED")
    assert "CSRF" in error["message"]
    assert not Asset.objects.exists()


def test_session_auth_with_a_csrf_token_after_a_real_login(alice):
    client = APIClient(enforce_csrf_checks=True)
    login_page = client.get("/accounts/login/")
    csrf = login_page.cookies["csrftoken"].value
    response = client.post(
        "/accounts/login/", {"login": "alice", "password": factories.PASSWORD, "csrfmiddlewaretoken": csrf}
    )
    assert response.status_code == 302
    csrf = client.cookies["csrftoken"].value
    response = client.post("/api/v1/assets", {"name": "Wallet", "kind": "cash"}, format="json", HTTP_X_CSRFTOKEN=csrf)
    assert response.status_code == 201, response.json()
    assert Asset.objects.get().user == alice


def test_token_auth_needs_no_csrf(alice_api):
    alice_api.handler.enforce_csrf_checks = True
    assert alice_api.post("/api/v1/assets", {"name": "Wallet", "kind": "cash"}, format="json").status_code == 201


# Profile


def test_profile_get_and_patch(alice_api):
    assert alice_api.get("/api/v1/profile").json() == {
        "username": "alice",
        "display_name": "",
        "currency": "VND",
        "timezone": "Asia/Ho_Chi_Minh",
        "language": "en",
        "email_notifications": {"plan_reminder": False, "insight": False, "weekly_digest": False},
    }
    response = alice_api.patch(
        "/api/v1/profile",
        {"currency": "usd", "timezone": "Europe/Paris", "display_name": "Alice", "language": "vi"},
        format="json",
    )
    assert response.status_code == 200
    assert response.json() == {
        "username": "alice",
        "display_name": "Alice",
        "currency": "USD",
        "timezone": "Europe/Paris",
        "language": "vi",
        "email_notifications": {"plan_reminder": False, "insight": False, "weekly_digest": False},
    }


def test_any_iso_currency_the_ledger_keeps_is_a_profile_currency(alice_api):
    for code in ["ISK", "lak", "CLP", "IDR"]:
        assert alice_api.patch("/api/v1/profile", {"currency": code}, format="json").json()["currency"] == code.upper()


def test_a_new_currency_applies_to_new_records(alice_api):
    alice_api.patch("/api/v1/profile", {"currency": "USD"}, format="json")
    assert alice_api.post("/api/v1/assets", {"name": "W", "kind": "cash", "balance": 5}).json()["balance"] == "5.00"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"timezone": "Mars/Olympus"}, "timezone"),
        ({"timezone": ""}, "timezone"),
        ({"currency": "XYZ"}, "currency"),
        ({"currency": "DOLLARS"}, "currency"),
        ({"currency": "XAU"}, "currency"),  # ISO 4217 lists gold, with no minor unit: no money
        ({"currency": "XDR"}, "currency"),  # a unit of account, no minor unit
        ({"display_name": "x" * 101}, "display_name"),
        ({"language": "fr"}, "language"),
        ({"language": "VI"}, "language"),
    ],
)
def test_a_bad_profile_patch_is_a_400_and_changes_nothing(alice_api, alice, body, field):
    error = assert_error(alice_api.patch("/api/v1/profile", body, format="json"), 400)
    assert field in error["fields"]
    alice.profile.refresh_from_db()
    assert (alice.profile.currency, alice.profile.timezone, alice.profile.language) == ("VND", "Asia/Ho_Chi_Minh", "en")


# Notifications


def _notify(user, title="Hi"):
    return notification_create(user=user, kind="insight", title=title, body="Body")


def test_notifications_list_newest_first_and_unread_filter(alice_api, alice, bob):
    first = _notify(alice, "First")
    second = _notify(alice, "Second")
    _notify(bob, "Bob's")
    Notification.objects.filter(id=first.id).update(read_at=timezone.now())
    body = alice_api.get("/api/v1/notifications").json()
    assert [n["id"] for n in body["results"]] == [second.id, first.id]
    assert set(body["results"][0]) == {"id", "kind", "title", "body", "cta_url", "read_at", "created_at"}
    assert [n["id"] for n in alice_api.get("/api/v1/notifications?unread=1").json()["results"]] == [second.id]


def test_notifications_paginate(alice_api, alice):
    made = [_notify(alice, f"N{i}") for i in range(5)]
    first = alice_api.get("/api/v1/notifications?page_size=3").json()
    second = alice_api.get(first["next"]).json()
    ids = [n["id"] for n in first["results"] + second["results"]]
    assert ids == [n.id for n in reversed(made)]
    assert second["next"] is None


def test_a_notification_is_marked_read_once(alice_api, alice):
    note = _notify(alice)
    response = alice_api.post(f"/api/v1/notifications/{note.id}/read")
    assert response.status_code == 200
    read_at = response.json()["read_at"]
    assert read_at is not None
    assert alice_api.post(f"/api/v1/notifications/{note.id}/read").json()["read_at"] == read_at


def test_bob_cannot_read_alices_notification(bob_api, alice):
    note = _notify(alice)
    assert_error(bob_api.post(f"/api/v1/notifications/{note.id}/read"), 404, "NOT_FOUND")
    note.refresh_from_db()
    assert note.read_at is None


def test_read_all_marks_only_the_users_unread(alice_api, alice, bob):
    for _ in range(3):
        _notify(alice)
    bobs = _notify(bob)
    assert alice_api.post("/api/v1/notifications/read-all").json() == {"marked": 3}
    assert alice_api.post("/api/v1/notifications/read-all").json() == {"marked": 0}
    bobs.refresh_from_db()
    assert bobs.read_at is None


# The error shape


def test_unknown_api_paths_are_json_404s(alice_api):
    assert_error(alice_api.get("/api/v1/nothing-here"), 404, "NOT_FOUND")
    assert_error(alice_api.get("/api/v1/assets/"), 404, "NOT_FOUND")


def test_unknown_pages_outside_the_api_stay_html(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert not response["Content-Type"].startswith("application/json")


def test_a_wrong_method_is_a_json_405(alice_api):
    assert_error(alice_api.put("/api/v1/profile", {}, format="json"), 405, "METHOD_NOT_ALLOWED")
    assert_error(alice_api.get("/api/v1/transactions/import"), 405, "METHOD_NOT_ALLOWED")


@pytest.mark.parametrize("body", [b"{", b"[1,", b'{"a": NaN}', b"\xff\xfe"])
def test_malformed_json_is_a_400(alice_api, body):
    response = alice_api.patch("/api/v1/profile", body, content_type="application/json")
    assert_error(response, 400, "MALFORMED_REQUEST")


def test_text_the_database_cannot_store_is_a_400_naming_the_field(alice_api):
    response = alice_api.patch("/api/v1/profile", b'{"display_name": "\\udc00"}', content_type="application/json")
    assert_error(response, 400, "INVALID_TEXT")


def test_an_unsupported_media_type_is_a_415(alice_api):
    response = alice_api.post("/api/v1/assets", b"<asset/>", content_type="application/xml")
    assert_error(response, 415, "UNSUPPORTED_MEDIA_TYPE")


def test_a_server_error_under_the_api_still_has_the_json_shape(rf):
    response = server_error(rf.get("/api/v1/assets"))
    assert response.status_code == 500
    assert json.loads(response.content)["error"]["code"] == "SERVER_ERROR"
