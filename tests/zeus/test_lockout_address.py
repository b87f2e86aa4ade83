"""Sign-in lockouts per address behind the reverse proxy: the client's address, not the proxy's."""

import pytest
from rest_framework.test import APIClient

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

LIMIT = 5


def _token(username, password, *, remote, real_ip=None):
    # deploy/nginx.conf appends the connecting address to X-Forwarded-For.
    extra = {"REMOTE_ADDR": remote}
    if real_ip:
        extra["HTTP_X_FORWARDED_FOR"] = real_ip
    body = {"username": username, "password": password}
    return APIClient().post("/api/v1/auth/token", body, format="json", **extra)


def test_behind_the_proxy_one_guessing_address_locks_only_itself(bob):
    for n in range(LIMIT):
        _token(f"nobody{n}", "wrong", remote="127.0.0.1", real_ip="198.51.100.7")
    assert _token("bob", PASSWORD, remote="127.0.0.1", real_ip="198.51.100.7").status_code == 429
    # Another client through the same proxy signs in.
    assert _token("bob", PASSWORD, remote="127.0.0.1", real_ip="198.51.100.8").status_code == 200


def test_a_client_that_is_not_a_trusted_proxy_cannot_name_its_own_address(bob):
    for n in range(LIMIT):
        _token(f"nobody{n}", "wrong", remote="203.0.113.9", real_ip=f"198.51.100.{n}")
    assert _token("bob", PASSWORD, remote="203.0.113.9", real_ip="198.51.100.99").status_code == 429
