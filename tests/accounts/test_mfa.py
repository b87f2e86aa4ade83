"""Second factors (allauth.mfa at /accounts/2fa/): an authenticator app set up with a real code computed from
the page's secret (RFC 6238, tests/accounts/helpers.py), sign-in asking for it, recovery codes, the token
API's `MFA_REQUIRED`, and the staff's second factor for the admin (ZEUS_STAFF_MFA)."""

import re

import pytest
from allauth.mfa.models import Authenticator
from rest_framework.test import APIClient

from tests import factories
from tests.accounts.helpers import activate_totp, confirm_password, sign_in, totp
from zeus.services import profile_update

pytestmark = pytest.mark.django_db
CODES = re.compile(r'<textarea[^>]*id="recovery_codes"[^>]*>([^<]*)</textarea>')


def _recovery_codes(client) -> list[str]:
    page = client.get("/accounts/2fa/recovery-codes/").content.decode()
    return CODES.search(page).group(1).split()


def _token(body: dict, **extra):
    return APIClient().post("/api/v1/auth/token", body, format="json", **extra)


@pytest.fixture
def alice_with_totp(client, alice):
    sign_in(client, "alice")
    secret = activate_totp(client)
    codes = _recovery_codes(client)
    client.post("/accounts/logout/")
    return alice, secret, codes


def test_setting_up_the_app_needs_a_right_code_from_the_secret_shown(client, alice):
    profile_update(user=alice, language="vi")
    sign_in(client, "alice")
    assert client.get("/accounts/2fa/totp/activate/")["Location"].startswith("/accounts/reauthenticate/")
    page = confirm_password(client, "/accounts/2fa/totp/activate/").content.decode()
    assert "Kích hoạt ứng dụng xác thực" in page and 'class="topbar"' in page
    response = client.post("/accounts/2fa/totp/activate/", {"code": "000000"})
    assert response.status_code == 200
    assert not Authenticator.objects.filter(user=alice).exists()
    activate_totp(client)
    kinds = set(Authenticator.objects.filter(user=alice).values_list("type", flat=True))
    assert kinds == {Authenticator.Type.TOTP, Authenticator.Type.RECOVERY_CODES}
    assert len(_recovery_codes(client)) == 10


def test_signing_in_asks_for_the_code_after_the_password(client, alice_with_totp):
    _alice, secret, _codes = alice_with_totp
    response = sign_in(client, "alice")
    assert response.status_code == 302 and response["Location"] == "/accounts/2fa/authenticate/"
    assert client.get("/settings")["Location"].startswith("/accounts/login/")  # not signed in yet
    wrong = client.post("/accounts/2fa/authenticate/", {"code": "123456"})
    assert wrong.status_code == 200 and client.get("/settings").status_code == 302
    right = client.post("/accounts/2fa/authenticate/", {"code": totp(secret)})
    assert right.status_code == 302 and right["Location"] == "/"
    assert client.get("/settings").status_code == 200


def test_a_recovery_code_signs_in_once(client, alice_with_totp):
    _alice, _secret, codes = alice_with_totp
    sign_in(client, "alice")
    assert client.post("/accounts/2fa/authenticate/", {"code": codes[0]}).status_code == 302
    client.post("/accounts/logout/")
    sign_in(client, "alice")
    assert client.post("/accounts/2fa/authenticate/", {"code": codes[0]}).status_code == 200
    assert client.get("/settings").status_code == 302


def test_the_token_api_asks_for_the_second_factor(alice_with_totp):
    _alice, secret, codes = alice_with_totp
    body = {"username": "alice", "password": factories.PASSWORD}
    missing = _token(body)
    assert missing.status_code == 401 and missing.json()["error"]["code"] == "MFA_REQUIRED"
    wrong = _token({**body, "code": "000000"})
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "MFA_REQUIRED"
    code = totp(secret)
    issued = _token({**body, "code": code, "name": "Lan's phone"})
    assert issued.status_code == 200 and issued.json()["name"] == "Lan's phone"
    # A code is good once: seen on the wire, it opens nothing more.
    assert _token({**body, "code": code}).status_code == 401
    # A recovery code works, once.
    assert _token({**body, "code": codes[1]}).status_code == 200
    assert _token({**body, "code": codes[1]}).status_code == 401


def test_the_token_api_takes_the_email_as_username_with_the_code(alice_with_totp):
    alice, secret, _codes = alice_with_totp
    alice.email = "alice@example.com"
    alice.save(update_fields=["email"])
    response = _token({"username": "alice@example.com", "password": factories.PASSWORD, "code": totp(secret)})
    assert response.status_code == 200 and len(response.json()["token"]) == 40


def test_a_wrong_password_with_a_right_code_is_still_wrong(alice_with_totp):
    _alice, secret, _codes = alice_with_totp
    response = _token({"username": "alice", "password": "wrong", "code": totp(secret)})
    assert response.status_code == 400 and response.json()["error"]["code"] == "INVALID_CREDENTIALS"


def test_guessing_codes_is_bounded(alice_with_totp):
    body = {"username": "alice", "password": factories.PASSWORD}
    answers = [_token({**body, "code": f"{n:06d}"}).status_code for n in range(12)]
    assert 429 in answers and answers[0] == 401
    assert _token({**body, "code": "000000"}).json()["error"]["code"] == "RATE_LIMITED"


# The staff's second factor for the admin


def test_with_staff_mfa_off_the_admin_opens_on_a_password(client, staff, settings):
    settings.ZEUS_STAFF_MFA = False
    sign_in(client, "staff")
    assert client.get("/admin/").status_code == 200


def test_staff_without_a_factor_are_sent_to_set_one_up(client, staff, settings):
    settings.ZEUS_STAFF_MFA = True
    sign_in(client, "staff")
    response = client.get("/admin/zeus/profile/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/2fa/?next=%2Fadmin%2Fzeus%2Fprofile%2F"
    assert client.get("/admin/zeus/profile/?q=x").status_code == 302


def test_staff_who_passed_the_code_at_sign_in_reach_the_admin(client, staff, settings):
    settings.ZEUS_STAFF_MFA = True
    sign_in(client, "staff")
    secret = activate_totp(client)
    client.post("/accounts/logout/")
    sign_in(client, "staff")
    assert client.get("/admin/").status_code == 302  # half signed in: still the login
    client.post("/accounts/2fa/authenticate/", {"code": totp(secret)})
    assert client.get("/admin/").status_code == 200


def test_staff_whose_session_skipped_the_factor_are_asked_for_it_and_come_back(client, staff, settings):
    settings.ZEUS_STAFF_MFA = True
    sign_in(client, "staff")
    secret = activate_totp(client)  # set up in this session, which never passed the factor
    response = client.get("/admin/")
    assert response["Location"] == "/accounts/2fa/reauthenticate/?next=%2Fadmin%2F"
    back = client.post(response["Location"], {"code": totp(secret)})
    assert back.status_code == 302 and back["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200


def test_the_admins_own_login_does_not_skip_the_factor(client, staff, settings):
    settings.ZEUS_STAFF_MFA = True
    Authenticator.objects.create(user=staff, type=Authenticator.Type.TOTP, data={"secret": "x"})
    response = client.post("/admin/login/?next=/admin/", {"username": "staff", "password": factories.PASSWORD})
    assert response.status_code == 302
    assert client.get("/admin/")["Location"].startswith("/accounts/2fa/reauthenticate/")


def test_people_who_are_not_staff_meet_the_admins_login(client, alice, settings):
    settings.ZEUS_STAFF_MFA = True
    sign_in(client, "alice")
    assert client.get("/admin/")["Location"].startswith("/admin/login/")


def test_production_settings_turn_staff_mfa_on_by_default():
    from pathlib import Path

    source = (Path(__file__).resolve().parents[2] / "zeus/settings/production.py").read_text()
    assert 'ZEUS_STAFF_MFA = env.bool("ZEUS_STAFF_MFA", default=True)' in source


def test_with_redis_gone_a_code_is_a_503_and_a_password_alone_still_works(alice_with_totp, bob, settings):
    from tests.processes import free_port

    settings.CACHES = {
        "default": {
            "BACKEND": "zeus.cache.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    _alice, secret, _codes = alice_with_totp
    body = {"username": "alice", "password": factories.PASSWORD, "code": totp(secret)}
    # The test client would re-raise what the view raised; a browser gets the response the middleware made.
    client = APIClient(raise_request_exception=False)
    down = client.post("/api/v1/auth/token", body, format="json")
    assert down.status_code == 503 and down.json()["error"]["code"] == "SERVICE_UNAVAILABLE"
    assert down["Retry-After"]
    assert _token({"username": "bob", "password": factories.PASSWORD}).status_code == 200
