"""Which language a page speaks, how money reads in it, and the JavaScript catalog."""

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model

from tests import factories
from zeus.money import CURRENCY_EXPONENTS, format_amount
from zeus.services import profile_update

pytestmark = pytest.mark.django_db


def test_a_signed_in_page_speaks_the_profiles_language_whatever_the_browser_says(client, alice):
    client.force_login(alice)
    profile_update(user=alice, language="vi")
    page = client.get("/plans", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    html = page.content.decode()
    assert '<html lang="vi">' in html and "Kế hoạch tháng" in html and "Monthly plan" not in html
    assert page["Content-Language"] == "vi"
    profile_update(user=alice, language="en")
    assert "Monthly plan" in client.get("/plans", HTTP_ACCEPT_LANGUAGE="vi").content.decode()


@pytest.mark.parametrize(
    "header,expected",
    [
        ("en-GB,en;q=0.8", "Log in"),
        ("vi-VN,vi;q=0.9,en;q=0.5", "Đăng nhập"),
        ("fr-FR,de", "Đăng nhập"),
        ("", "Đăng nhập"),
    ],
)
def test_a_visitor_reads_the_browsers_language_else_vietnamese(client, header, expected):
    page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE=header)
    assert f"<h1>{expected}</h1>" in page.content.decode()
    assert "Accept-Language" in page["Vary"]


def test_signing_up_keeps_the_browsers_language(client):
    form = {
        "username": "carol",
        "email": "carol@example.com",
        "password1": factories.PASSWORD,
        "password2": factories.PASSWORD,
    }
    response = client.post("/accounts/signup/", form, HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    assert response.status_code == 302 and response["Location"] == "/"
    assert get_user_model().objects.get(username="carol").profile.language == "en"
    client.logout()
    form["username"], form["email"] = "dung", "dung@example.com"
    client.post("/accounts/signup/", form)
    assert get_user_model().objects.get(username="dung").profile.language == "vi"


def test_a_bad_sign_up_says_so_next_to_the_field_in_the_language_and_saves_nothing(client):
    form = {"username": "erin", "password1": factories.PASSWORD, "password2": "something else"}
    html = client.post("/accounts/signup/", form, HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    assert 'id="id_password2_error"' in html
    assert not get_user_model().objects.filter(username="erin").exists()


def test_an_api_caller_without_a_language_reads_english(alice_api):
    error = alice_api.patch("/api/v1/profile", {"language": "fr"}, format="json").json()["error"]
    assert error["fields"]["language"] == ["Choose one of: vi, en."]


def test_logging_in_lands_on_home(client, alice):
    response = client.post("/accounts/login/", {"login": "alice", "password": factories.PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/"


@pytest.mark.parametrize(
    "amount,currency,vi,en",
    [
        ("1250000", "VND", "1.250.000\xa0₫", "₫1,250,000"),
        ("-1250000", "VND", "-1.250.000\xa0₫", "-₫1,250,000"),
        ("12.5", "USD", "12,50\xa0US$", "$12.50"),
        ("1234567.891", "EUR", "1.234.567,89\xa0€", "€1,234,567.89"),
        ("1250", "JPY", "1.250\xa0¥", "¥1,250"),
    ],
)
def test_money_reads_the_locales_way(amount, currency, vi, en):
    assert format_amount(Decimal(amount), currency, locale="vi") == vi
    assert format_amount(Decimal(amount), currency, locale="en") == en
    # Without a locale: the neutral form the assistant reads, unchanged.
    assert format_amount(Decimal("1250000"), "VND") == "1,250,000 ₫"


def test_the_locale_agrees_with_every_currency_exponent_but_the_few_iso_and_cldr_disagree_on():
    from babel.numbers import get_currency_precision

    differ = {c for c in CURRENCY_EXPONENTS if get_currency_precision(c) != CURRENCY_EXPONENTS[c]}
    assert differ == {
        "AFN", "ALL", "IQD", "IRR", "KPW", "LAK", "LBP", "MGA", "MMK", "RSD", "SOS", "SYP", "YER"
    }  # fmt: skip


def test_the_javascript_catalog_is_per_language_and_cached_by_its_url(client, alice):
    from zeus.i18n import js_catalog_version

    client.force_login(alice)
    profile_update(user=alice, language="vi")
    html = client.get("/chat").content.decode()
    url = f"/jsi18n/vi/{js_catalog_version()}.js"
    assert f'<script defer src="{url}"></script>' in html
    response = client.get(url)
    assert response.status_code == 200 and "django.gettext" in response.content.decode()
    assert "immutable" in response["Cache-Control"] and "max-age=31536000" in response["Cache-Control"]
    assert client.get("/jsi18n/fr/x.js").status_code == 404
    # An old version's URL still answers, but is not cached for a year.
    assert "immutable" not in client.get("/jsi18n/en/old.js").get("Cache-Control", "")
