"""Passkeys (WebAuthn through allauth.mfa and fido2): registration from the add page's own options, then
signing in with the passkey alone, over HTTPS as a browser would. The authenticator is tests/accounts/passkey.py;
the server side, challenge, origin and signature checks included, is allauth's and fido2's, unchanged."""

import json

import pytest
from allauth.mfa.models import Authenticator

from tests.accounts.helpers import confirm_password, sign_in
from tests.accounts.passkey import SoftPasskey, creation_options
from tests.zeus.test_i18n_walk import visible

pytestmark = pytest.mark.django_db
AJAX = {"HTTP_X_REQUESTED_WITH": "XMLHttpRequest"}


@pytest.fixture
def https_client(client):
    client.defaults["wsgi.url_scheme"] = "https"
    return client


def _register(client, passkey: SoftPasskey, *, name="Laptop") -> object:
    page = confirm_password(client, "/accounts/2fa/webauthn/add/")
    assert page.status_code == 200
    options = creation_options(page.content.decode())
    assert options["rp"]["id"] == "testserver" and options["user"]["name"] in {"alice", "staff"}
    credential = passkey.create(options)
    return client.post(
        "/accounts/2fa/webauthn/add/", {"name": name, "credential": json.dumps(credential), "passwordless": "on"}
    )


def test_the_add_page_begins_a_registration_with_a_fresh_challenge(https_client, alice):
    sign_in(https_client, "alice")
    first = creation_options(confirm_password(https_client, "/accounts/2fa/webauthn/add/").content.decode())
    second = creation_options(https_client.get("/accounts/2fa/webauthn/add/").content.decode())
    assert first["challenge"] != second["challenge"]
    assert first["pubKeyCredParams"] and first["rp"]["name"]


def test_a_passkey_is_registered_and_then_signs_in_without_the_password(https_client, alice):
    sign_in(https_client, "alice")
    passkey = SoftPasskey()
    response = _register(https_client, passkey)
    assert response.status_code == 302, response.content.decode()[:3000]
    authenticator = Authenticator.objects.get(user=alice, type=Authenticator.Type.WEBAUTHN)
    assert authenticator.wrap().name == "Laptop" and authenticator.wrap().is_passwordless
    https_client.post("/accounts/logout/")

    options = https_client.get("/accounts/2fa/webauthn/login/", **AJAX).json()["request_options"]["publicKey"]
    response = https_client.post("/accounts/2fa/webauthn/login/", {"credential": json.dumps(passkey.get(options))})
    assert response.status_code == 302 and response["Location"] == "/"
    assert https_client.get("/settings").status_code == 200


def test_a_registration_for_another_challenge_is_refused(https_client, alice):
    sign_in(https_client, "alice")
    passkey = SoftPasskey()
    page = confirm_password(https_client, "/accounts/2fa/webauthn/add/")
    stale = creation_options(page.content.decode())
    https_client.get("/accounts/2fa/webauthn/add/")  # a new challenge replaces it
    credential = passkey.create(stale)
    response = https_client.post("/accounts/2fa/webauthn/add/", {"name": "Old", "credential": json.dumps(credential)})
    assert response.status_code == 200
    assert not Authenticator.objects.filter(user=alice).exists()


@pytest.mark.parametrize("origin", ["https://evil.example", "http://testserver"])
def test_a_passkey_from_another_origin_is_refused(https_client, alice, origin):
    sign_in(https_client, "alice")
    response = _register(https_client, SoftPasskey(origin=origin))
    assert response.status_code == 200
    assert not Authenticator.objects.filter(user=alice).exists()


def test_a_forged_signature_does_not_sign_in(https_client, alice):
    sign_in(https_client, "alice")
    passkey = SoftPasskey()
    _register(https_client, passkey)
    https_client.post("/accounts/logout/")
    options = https_client.get("/accounts/2fa/webauthn/login/", **AJAX).json()["request_options"]["publicKey"]
    impostor = SoftPasskey()
    impostor.credential_id, impostor.user_handle = passkey.credential_id, passkey.user_handle
    https_client.post("/accounts/2fa/webauthn/login/", {"credential": json.dumps(impostor.get(options))})
    assert https_client.get("/settings").status_code == 302


def test_a_staff_member_signed_in_by_passkey_reaches_the_admin(https_client, staff, settings):
    settings.ZEUS_STAFF_MFA = True
    sign_in(https_client, "staff")
    passkey = SoftPasskey()
    assert _register(https_client, passkey).status_code == 302
    https_client.post("/accounts/logout/")
    options = https_client.get("/accounts/2fa/webauthn/login/", **AJAX).json()["request_options"]["publicKey"]
    https_client.post("/accounts/2fa/webauthn/login/", {"credential": json.dumps(passkey.get(options))})
    assert https_client.get("/admin/").status_code == 200


def test_the_passkey_pages_read_vietnamese(https_client, alice):
    from zeus.services import profile_update

    profile_update(user=alice, language="vi")
    sign_in(https_client, "alice")
    add = visible(confirm_password(https_client, "/accounts/2fa/webauthn/add/").content.decode())
    assert "Thêm khóa bảo mật" in add and "Tên" in add and "Name" not in add
    _register(https_client, SoftPasskey(), name="Laptop")
    listed = https_client.get("/accounts/2fa/webauthn/")
    assert listed.status_code == 200 and "Laptop" in listed.content.decode()
    assert https_client.get("/accounts/sessions/").status_code == 200
