"""/settings/security: the factors, the signed-in sessions (end one, end all others) and the API's device
tokens (named, shown once, revocable), linked from /settings."""

import re

import pytest
from allauth.usersessions.models import UserSession
from django.test import Client
from rest_framework.test import APIClient

from tests import factories
from tests.accounts.helpers import activate_totp, sign_in
from zeus.models import DeviceToken
from zeus.services import profile_update

pytestmark = pytest.mark.django_db
SESSION_END = re.compile(r'action="(/settings/security/sessions/\d+/end)"')


def _browser(user_agent: str) -> Client:
    client = Client(HTTP_USER_AGENT=user_agent)
    sign_in(client, "alice")
    return client


def test_settings_links_to_the_security_page(client, alice):
    sign_in(client, "alice")
    assert 'href="/settings/security"' in client.get("/settings").content.decode()


def test_the_page_needs_a_signed_in_user(client):
    assert client.get("/settings/security")["Location"].startswith("/accounts/login/")


def test_it_lists_the_factors_with_links_to_allauths_pages(client, alice):
    sign_in(client, "alice")
    html = client.get("/settings/security").content.decode()
    assert "No second factor yet" in html and 'href="/accounts/2fa/totp/activate/"' in html
    activate_totp(client)
    html = client.get("/settings/security").content.decode()
    assert "Authenticator app" in html and "Recovery codes" in html and 'href="/accounts/2fa/"' in html
    assert 'href="/accounts/2fa/totp/activate/"' not in html


def test_it_reads_vietnamese_for_a_vietnamese_reader(client, alice):
    profile_update(user=alice, language="vi")
    sign_in(client, "alice")
    html = client.get("/settings/security").content.decode()
    assert "Phiên đang đăng nhập" in html and "Token API" in html and "Lớp xác thực thứ hai" in html


def test_each_browser_is_a_session_and_one_can_be_signed_out_from_another(alice):
    laptop, phone = _browser("Laptop Firefox"), _browser("Phone Safari")
    html = laptop.get("/settings/security").content.decode()
    assert "Laptop Firefox" in html and "Phone Safari" in html and "This session" in html
    [other] = SESSION_END.findall(html)  # the current session has no button of its own
    assert laptop.post(other).status_code == 302
    assert phone.get("/settings")["Location"].startswith("/accounts/login/")
    assert laptop.get("/settings").status_code == 200


def test_signing_out_every_other_session_keeps_this_one(alice):
    laptop, phone, tablet = _browser("Laptop"), _browser("Phone"), _browser("Tablet")
    assert laptop.post("/settings/security/sessions/end-others").status_code == 302
    assert phone.get("/settings").status_code == 302 and tablet.get("/settings").status_code == 302
    assert laptop.get("/settings").status_code == 200


def test_it_refuses_another_users_session(alice, bob):
    bobs = Client(HTTP_USER_AGENT="Bob's browser")
    sign_in(bobs, "bob")
    alices = _browser("Alice's")
    bob_session = UserSession.objects.get(user=bob)
    response = alices.post(f"/settings/security/sessions/{bob_session.id}/end", follow=True)
    assert "That session does not exist." in response.content.decode()
    assert bobs.get("/settings").status_code == 200  # still signed in
    assert "Bob&#x27;s browser" not in alices.get("/settings/security").content.decode()


def test_a_token_is_made_named_shown_once_and_works(client, alice):
    sign_in(client, "alice")
    response = client.post("/settings/security/tokens", {"name": "Lan phone"})
    assert response.status_code == 201
    key = re.search(r'<code id="issued-token">([0-9a-f]{40})</code>', response.content.decode()).group(1)
    token = DeviceToken.objects.get(user=alice)
    assert token.name == "Lan phone" and token.prefix == key[:8] and key not in token.key_hash
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/v1/profile").status_code == 200
    html = client.get("/settings/security").content.decode()
    assert "Lan phone" in html and key not in html and f"{key[:8]}…" in html


def test_a_token_without_a_name_is_refused_next_to_the_field(client, alice):
    sign_in(client, "alice")
    response = client.post("/settings/security/tokens", {"name": "   "})
    assert response.status_code == 400 and 'id="id_name_error"' in response.content.decode()
    assert not DeviceToken.objects.exists()


def test_revoking_a_token_signs_that_device_out_only(client, alice):
    phone, laptop = factories.api_key(alice, name="phone"), factories.api_key(alice, name="laptop")
    sign_in(client, "alice")
    phone_id = DeviceToken.objects.get(name="phone").id
    assert client.post(f"/settings/security/tokens/{phone_id}/revoke").status_code == 302
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {phone}")
    assert api.get("/api/v1/profile").status_code == 401
    api.credentials(HTTP_AUTHORIZATION=f"Token {laptop}")
    assert api.get("/api/v1/profile").status_code == 200


def test_it_refuses_another_users_token(client, alice, bob):
    factories.api_key(bob, name="bob's")
    sign_in(client, "alice")
    bobs = DeviceToken.objects.get(user=bob)
    response = client.post(f"/settings/security/tokens/{bobs.id}/revoke", follow=True)
    assert "That token does not exist." in response.content.decode()
    assert DeviceToken.objects.filter(id=bobs.id).exists()
