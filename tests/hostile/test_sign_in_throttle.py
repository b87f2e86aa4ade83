"""Password guessing: per account and per address, a 429 with Retry-After, a lockout staff lift in the admin."""

import pytest
from axes.models import AccessAttempt
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

LIMIT = 5


def _token(username, password, address="10.0.0.1"):
    return APIClient().post(
        "/api/v1/auth/token", {"username": username, "password": password}, format="json", REMOTE_ADDR=address
    )


def _login(username, password, address="10.0.0.1"):
    return Client().post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def test_the_token_endpoint_locks_an_account_after_the_limit(alice):
    for _ in range(LIMIT - 1):
        assert _token("alice", "wrong").status_code == 400
    locked = _token("alice", "wrong")
    assert locked.status_code == 429
    assert locked.json()["error"]["code"] == "RATE_LIMITED"
    assert int(locked["Retry-After"]) == 15 * 60
    # Even the right password is refused while locked, from any address.
    assert _token("alice", PASSWORD, address="10.9.9.9").status_code == 429


def test_the_login_page_locks_an_account_from_many_addresses(alice):
    for n in range(LIMIT):
        _login("alice", "wrong", address=f"10.1.0.{n}")
    locked = _login("alice", PASSWORD, address="10.1.0.99")
    assert locked.status_code == 429
    assert int(locked["Retry-After"]) > 0
    # A visitor whose browser names no language reads Vietnamese (docs/i18n.md).
    assert "Đăng nhập sai quá nhiều lần" in locked.content.decode()


def test_one_address_guessing_many_accounts_is_locked(alice, bob):
    for n in range(LIMIT):
        _token(f"nobody{n}", "wrong", address="10.2.0.1")
    assert _token("bob", PASSWORD, address="10.2.0.1").status_code == 429
    assert _token("bob", PASSWORD, address="10.2.0.2").status_code == 200


def test_a_success_resets_the_count(alice):
    for _ in range(LIMIT - 1):
        _token("alice", "wrong")
    assert _token("alice", PASSWORD).status_code == 200
    # The account's count starts again (the first address keeps its own).
    for _ in range(LIMIT - 1):
        assert _token("alice", "wrong", address="10.0.0.2").status_code == 400


def test_staff_lift_a_lockout_in_the_admin(alice, staff):
    for _ in range(LIMIT):
        _token("alice", "wrong")
    assert _token("alice", PASSWORD).status_code == 429
    admin = Client()
    admin.force_login(staff)
    listing = admin.get("/admin/axes/accessattempt/")
    assert listing.status_code == 200 and "alice" in listing.content.decode()
    ids = [str(pk) for pk in AccessAttempt.objects.filter(username="alice").values_list("id", flat=True)]
    response = admin.post(
        "/admin/axes/accessattempt/", {"action": "delete_selected", "_selected_action": ids, "post": "yes"}
    )
    assert response.status_code == 302
    assert _token("alice", PASSWORD).status_code == 200
