"""The REST API's device tokens: one per `POST /api/v1/auth/token`, kept as a hash, `Token` and `Bearer`
alike, last use recorded, listed and revoked through the API too."""

import datetime as dt
import hashlib

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests import factories
from tests.assets.helpers import assert_error
from zeus.models import DeviceToken

pytestmark = pytest.mark.django_db


def _api(key: str, scheme: str = "Token") -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"{scheme} {key}")
    return client


def test_each_sign_in_makes_a_named_token_of_its_own_kept_only_as_a_hash(anon_api, alice):
    body = {"username": "alice", "password": factories.PASSWORD}
    first = anon_api.post("/api/v1/auth/token", {**body, "name": "Phone"}, format="json").json()
    second = anon_api.post("/api/v1/auth/token", body, format="json", HTTP_USER_AGENT="ZeusCLI/1.0").json()
    assert first["name"] == "Phone" and second["name"] == "ZeusCLI/1.0" and first["token"] != second["token"]
    assert set(first) == {"id", "name", "prefix", "created_at", "last_used_at", "token"}
    stored = DeviceToken.objects.get(id=first["id"])
    assert stored.key_hash == hashlib.sha256(first["token"].encode()).hexdigest()
    assert first["token"] not in {stored.key_hash, stored.prefix, stored.name}
    for key in (first["token"], second["token"]):
        assert _api(key).get("/api/v1/profile").json()["username"] == "alice"
        assert _api(key, "Bearer").get("/api/v1/profile").status_code == 200


def test_a_use_is_recorded_at_most_once_a_minute(alice):
    key = factories.api_key(alice)
    token = DeviceToken.objects.get(user=alice)
    assert token.last_used_at is None
    _api(key).get("/api/v1/profile")
    token.refresh_from_db()
    first_use = token.last_used_at
    assert first_use is not None
    _api(key).get("/api/v1/profile")
    token.refresh_from_db()
    assert token.last_used_at == first_use
    DeviceToken.objects.filter(id=token.id).update(last_used_at=timezone.now() - dt.timedelta(minutes=2))
    _api(key).get("/api/v1/profile")
    token.refresh_from_db()
    assert token.last_used_at > first_use


def test_the_api_lists_ones_own_tokens_without_their_keys(alice, bob):
    key = factories.api_key(alice, name="laptop")
    factories.api_key(alice, name="phone")
    factories.api_key(bob, name="bob's")
    listed = _api(key).get("/api/v1/auth/tokens").json()
    assert sorted(t["name"] for t in listed) == ["laptop", "phone"]
    assert all("token" not in t for t in listed)


def test_the_api_revokes_a_token_and_refuses_another_users(alice, bob):
    key = factories.api_key(alice, name="laptop")
    phone = factories.api_key(alice, name="phone")
    bobs = factories.api_key(bob)
    phone_id = DeviceToken.objects.get(name="phone").id
    assert_error(_api(bobs).delete(f"/api/v1/auth/tokens/{phone_id}"), 404, "NOT_FOUND")
    assert _api(key).delete(f"/api/v1/auth/tokens/{phone_id}").status_code == 204
    assert_error(_api(phone).get("/api/v1/profile"), 401, "AUTHENTICATION_FAILED")
    # A device can sign itself out.
    own = DeviceToken.objects.get(name="laptop").id
    assert _api(key).delete(f"/api/v1/auth/tokens/{own}").status_code == 204
    assert _api(key).get("/api/v1/profile").status_code == 401


@pytest.mark.parametrize("name", ["x" * 101, ""])
def test_a_name_out_of_bounds_is_a_400(anon_api, alice, name):
    body = {"username": "alice", "password": factories.PASSWORD, "name": name}
    assert_error(anon_api.post("/api/v1/auth/token", body, format="json"), 400)
    assert not DeviceToken.objects.exists()


def test_an_inactive_users_token_is_refused(alice):
    key = factories.api_key(alice)
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    assert_error(_api(key).get("/api/v1/profile"), 401, "AUTHENTICATION_FAILED")


def test_the_email_is_a_username_for_the_token(anon_api, alice):
    alice.email = "alice@example.com"
    alice.save(update_fields=["email"])
    body = {"username": "alice@example.com", "password": factories.PASSWORD}
    assert anon_api.post("/api/v1/auth/token", body, format="json").status_code == 200
