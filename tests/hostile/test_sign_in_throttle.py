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
    return Client().post("/accounts/login/", {"login": username, "password": password}, REMOTE_ADDR=address)


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


def test_behind_a_trusted_proxy_each_client_is_counted_under_its_own_address(alice, bob, settings):
    settings.ZEUS_TRUSTED_PROXIES = ["10.50.0.0/24"]
    balancer = {"REMOTE_ADDR": "10.50.0.7"}

    def token(username, password, client):
        return APIClient().post(
            "/api/v1/auth/token",
            {"username": username, "password": password},
            format="json",
            HTTP_X_FORWARDED_FOR=f"6.6.6.6, {client}",
            **balancer,
        )

    for n in range(LIMIT):
        token(f"nobody{n}", "wrong", "203.0.113.9")
    # The guesser is locked out; everyone else, arriving through the same balancer, is not.
    assert token("bob", PASSWORD, "203.0.113.9").status_code == 429
    assert token("bob", PASSWORD, "198.51.100.4").status_code == 200
    # The per-account count still holds whatever address the guesses come from.
    for n in range(LIMIT):
        token("alice", "wrong", f"198.51.100.{10 + n}")
    assert token("alice", PASSWORD, "198.51.100.99").status_code == 429


def test_a_forwarded_header_from_an_untrusted_address_is_ignored(alice, settings):
    settings.ZEUS_TRUSTED_PROXIES = ["10.50.0.0/24"]
    for n in range(LIMIT):
        APIClient().post(
            "/api/v1/auth/token",
            {"username": f"nobody{n}", "password": "wrong"},
            format="json",
            REMOTE_ADDR="192.0.2.1",
            HTTP_X_FORWARDED_FOR=f"198.51.100.{n}",
        )
    assert _token("alice", PASSWORD, address="192.0.2.1").status_code == 429
