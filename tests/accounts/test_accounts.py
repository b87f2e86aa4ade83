"""Accounts by django-allauth: sign-up with an e-mail address verified by a real mail, sign-in by username or
e-mail (the form's field is `login`), password reset by mail and password change, sign-out."""

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.test import Client

from tests import factories
from tests.accounts.helpers import link_in, mail_body, sign_in

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "a much longer passphrase 2026"


def _verified(user, email: str) -> EmailAddress:
    user.email = email
    user.save(update_fields=["email"])
    return EmailAddress.objects.create(user=user, email=email, primary=True, verified=True)


def test_signing_up_sends_a_confirmation_mail_whose_link_verifies_the_address(client, smtp):
    form = {
        "username": "carol",
        "email": "carol@example.com",
        "password1": factories.PASSWORD,
        "password2": factories.PASSWORD,
    }
    response = client.post("/accounts/signup/", form, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302 and response["Location"] == "/"
    carol = get_user_model().objects.get(username="carol")
    assert carol.email == "carol@example.com"
    assert EmailAddress.objects.get(user=carol).verified is False
    [mail] = smtp.messages
    assert mail["To"] == "carol@example.com" and mail["Subject"].startswith("Zeus · ")
    assert "Hello from Zeus!" in mail_body(mail)
    confirm = link_in(mail)
    assert confirm.startswith("/accounts/confirm-email/")
    assert client.get(confirm).status_code == 200  # the page asks to confirm; the POST confirms
    assert client.post(confirm).status_code == 302
    assert EmailAddress.objects.get(user=carol).verified is True


def test_a_vietnamese_newcomer_gets_the_confirmation_mail_in_vietnamese(client, smtp):
    form = {
        "username": "lan",
        "email": "lan@example.com",
        "password1": factories.PASSWORD,
        "password2": factories.PASSWORD,
    }
    client.post("/accounts/signup/", form, HTTP_ACCEPT_LANGUAGE="vi")
    [mail] = smtp.messages
    assert "Để xác nhận, hãy mở" in mail_body(mail)
    assert get_user_model().objects.get(username="lan").profile.language == "vi"


def test_sign_up_refuses_an_address_another_account_has(client, alice, smtp):
    _verified(alice, "alice@example.com")
    form = {
        "username": "mallory",
        "email": "alice@example.com",
        "password1": factories.PASSWORD,
        "password2": factories.PASSWORD,
    }
    response = client.post("/accounts/signup/", form, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert 'id="id_email_error"' in response.content.decode()
    assert not get_user_model().objects.filter(username="mallory").exists()


@pytest.mark.parametrize("login", ["alice", "alice@example.com", "ALICE@example.com"])
def test_one_signs_in_by_username_or_email(client, alice, login):
    _verified(alice, "alice@example.com")
    response = sign_in(client, login)
    assert response.status_code == 302 and response["Location"] == "/"
    assert client.get("/settings").status_code == 200


def test_a_wrong_password_says_so_in_the_readers_language(client, alice):
    response = sign_in(client, "alice", "wrong", HTTP_ACCEPT_LANGUAGE="vi")
    assert response.status_code == 200
    assert "Tên đăng nhập hoặc mật khẩu bạn nhập không đúng." in response.content.decode()


def test_the_login_page_is_in_the_sites_layout_with_the_login_field(client):
    html = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'name="login"' in html and 'name="password"' in html
    assert 'class="topbar"' in html and "<h1>Log in</h1>" in html
    assert 'href="/accounts/password/reset/"' in html and 'href="/accounts/signup/"' in html
    assert 'id="passkey_login"' in html  # a passkey can sign in without the password


def test_a_forgotten_password_is_reset_through_the_mailed_link(client, alice, smtp):
    _verified(alice, "alice@example.com")
    response = client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    assert response.status_code == 302
    [mail] = smtp.messages
    assert mail["To"] == "alice@example.com"
    reset = link_in(mail)
    page = client.get(reset, follow=True)  # allauth moves the key out of the URL, into the session
    assert page.status_code == 200
    form_url = page.redirect_chain[-1][0] if page.redirect_chain else reset
    done = client.post(form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert done.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    # The link works once.
    assert (
        "password reset link was invalid" in client.get(reset, follow=True, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    )


def test_a_reset_for_an_unknown_address_changes_nothing_and_tells_nothing(client, alice, smtp):
    response = client.post("/accounts/password/reset/", {"email": "nobody@example.com"})
    assert response.status_code == 302  # the same answer as for a known address
    alice.refresh_from_db()
    assert alice.check_password(factories.PASSWORD)
    assert all("alice" not in mail_body(m) for m in smtp.messages)


def test_the_password_is_changed_with_the_current_one(client, alice):
    sign_in(client, "alice")
    form = {"oldpassword": "wrong", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    assert client.post("/accounts/password/change/", form).status_code == 200
    alice.refresh_from_db()
    assert alice.check_password(factories.PASSWORD)
    form["oldpassword"] = factories.PASSWORD
    assert client.post("/accounts/password/change/", form).status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)


def test_an_address_is_added_and_verified_from_the_email_page(client, alice, smtp):
    sign_in(client, "alice")
    response = client.post("/accounts/email/", {"action_add": "", "email": "alice@example.com"})
    assert response.status_code == 302
    [mail] = smtp.messages
    confirm = link_in(mail)
    client.post(confirm)
    assert EmailAddress.objects.get(user=alice, email="alice@example.com").verified


def test_signing_out_is_a_post(client, alice):
    sign_in(client, "alice")
    assert client.get("/accounts/logout/").status_code == 200  # a page that asks, never a sign-out on GET
    assert client.get("/settings").status_code == 200
    response = client.post("/accounts/logout/")
    assert response.status_code == 302 and response["Location"] == "/accounts/login/"
    assert client.get("/settings")["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize(
    "path",
    ["/accounts/login/", "/accounts/signup/", "/accounts/password/reset/", "/accounts/password/reset/done/"],
)
def test_the_signed_out_pages_are_in_the_sites_layout_and_vietnamese(client, path):
    html = client.get(path, HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    assert 'class="topbar"' in html and '<html lang="vi">' in html
    for english in ("Sign In", "Password Reset", "Forgotten your password", "Sign Up", "Email Address"):
        assert english not in html, (path, english)


def test_failures_by_username_and_by_email_count_against_one_account(alice):
    _verified(alice, "alice@example.com")
    names = ["alice", "alice@example.com", "ALICE@example.com", "alice", "alice@example.com"]
    for n, name in enumerate(names):
        assert sign_in(Client(), name, "wrong", REMOTE_ADDR=f"10.5.0.{n}").status_code in (200, 429)
    locked = sign_in(Client(), "alice", REMOTE_ADDR="10.5.0.99")
    assert locked.status_code == 429 and int(locked["Retry-After"]) > 0
    by_email = sign_in(Client(), "alice@example.com", REMOTE_ADDR="10.5.0.98")
    assert by_email.status_code == 429


def test_the_lockout_counts_the_address_the_trusted_proxy_reports(bob):
    # From the proxy on this machine (ZEUS_TRUSTED_PROXIES), five wrong passwords from one client...
    for _ in range(5):
        sign_in(Client(), "nobody", "wrong", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.7")
    # ...lock that client, not everyone behind the proxy.
    blocked = sign_in(Client(), "bob", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.7")
    assert blocked.status_code == 429
    other = sign_in(Client(), "bob", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.8")
    assert other.status_code == 302
