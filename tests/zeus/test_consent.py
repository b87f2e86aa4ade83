"""Consent to send ledger data to the model provider (CONTRACT §10, zeus/consent.py): the REST resource, the
pages that ask for it without JavaScript, and a new version of the text asking again."""

import hashlib

import pytest
from django.test import Client
from django.utils import translation

from tests import factories
from zeus import consent
from zeus.models import ModelConsent

pytestmark = pytest.mark.django_db

URL = "/api/v1/account/consent"
# The text people agreed to under each version, in both languages. Changing either? Give it a new CONSENT_VERSION
# (everyone is asked again) and pin the new text's digests here.
TEXT_DIGESTS = {
    1: {
        "en": "963de828c943d82c54bd4ae2c1135af5cea46ba8258baa95339f27b3424f25f6",
        "vi": "39f0e856ef9713ae0ddfb50c9c1f2a196e8aaecc259216d7d991240734d964ea",
    }
}


@pytest.fixture
def carol(db):
    return factories.user("carol", consent=False)


@pytest.fixture
def carol_api(carol):
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {factories.api_key(carol)}")
    return client


@pytest.fixture
def carol_page(carol):
    client = Client()
    client.force_login(carol)
    return client


def test_the_text_in_force_is_the_one_its_version_was_agreed_to():
    with translation.override("en"):
        english = consent.consent_text()
    with translation.override("vi"):
        vietnamese = consent.consent_text()
    assert hashlib.sha256(english.encode()).hexdigest() == TEXT_DIGESTS[consent.CONSENT_VERSION]["en"]
    assert hashlib.sha256(vietnamese.encode()).hexdigest() == TEXT_DIGESTS[consent.CONSENT_VERSION]["vi"]
    assert "Anthropic" in english and "United States" in english
    # Said in Vietnamese too, every paragraph of it.
    assert "Anthropic" in vietnamese and "Hoa Kỳ" in vietnamese
    for paragraph in (consent.CONSENT_TITLE, *consent.CONSENT_PARAGRAPHS, consent.CONSENT_REQUIRED_MESSAGE):
        with translation.override("en"):
            english_paragraph = str(paragraph)
        with translation.override("vi"):
            assert str(paragraph) != english_paragraph


def test_before_any_decision_consent_does_not_hold(carol_api):
    body = carol_api.get(URL).json()
    assert body == {
        "model_provider": False,
        "version": None,
        "decided_at": None,
        "current_version": consent.CONSENT_VERSION,
        "text": body["text"],
    }
    assert "Anthropic" in body["text"]


def test_each_grant_and_withdrawal_is_a_row_of_its_own_and_the_newest_holds(carol, carol_api):
    granted = carol_api.post(URL, {"model_provider": True}, format="json")
    assert granted.status_code == 200
    assert granted.json()["model_provider"] is True and granted.json()["version"] == consent.CONSENT_VERSION
    assert granted.json()["decided_at"]
    withdrawn = carol_api.post(URL, {"model_provider": False}, format="json").json()
    assert withdrawn["model_provider"] is False and withdrawn["decided_at"] >= granted.json()["decided_at"]
    rows = list(ModelConsent.objects.filter(user=carol).order_by("id").values_list("granted", "version"))
    assert rows == [(True, consent.CONSENT_VERSION), (False, consent.CONSENT_VERSION)]
    assert carol_api.get(URL).json()["model_provider"] is False


@pytest.mark.parametrize("body", [{}, {"model_provider": "true"}, {"model_provider": 1}, {"model_provider": None}, []])
def test_a_decision_is_json_true_or_false_and_nothing_else(carol, carol_api, body):
    answer = carol_api.post(URL, body, format="json")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "VALIDATION_ERROR" and answer.json()["error"]["message"]
    assert not ModelConsent.objects.filter(user=carol).exists()


def test_a_form_encoded_decision_is_refused_too(carol, carol_api):
    assert carol_api.post(URL, {"model_provider": "on"}).status_code == 400
    assert not ModelConsent.objects.filter(user=carol).exists()


def test_consent_is_each_users_own(alice, carol_api, anon_api):
    carol_api.post(URL, {"model_provider": False}, format="json")
    assert ModelConsent.objects.filter(user=alice).count() == 1  # alice's own, from the factory
    assert anon_api.get(URL).status_code in (401, 403)
    assert anon_api.post(URL, {"model_provider": True}, format="json").status_code in (401, 403)


def test_a_new_version_of_the_text_asks_again(alice, alice_api, monkeypatch):
    assert alice_api.get(URL).json()["model_provider"] is True
    monkeypatch.setattr(consent, "CONSENT_VERSION", consent.CONSENT_VERSION + 1)
    body = alice_api.get(URL).json()
    assert (body["model_provider"], body["version"], body["current_version"]) == (False, 1, 2)
    page = Client()
    page.force_login(alice)
    html = page.get("/chat").content.decode()
    assert 'id="consent-panel" class="consent-panel" aria-labelledby="consent-title">' in html
    assert "The consent text has changed since you agreed" in html
    assert alice_api.post(URL, {"model_provider": True}, format="json").json()["model_provider"] is True


def test_the_chat_page_asks_first_and_the_form_works_without_javascript(carol, carol_page):
    html = carol_page.get("/chat").content.decode()
    assert 'id="consent-panel" class="consent-panel" aria-labelledby="consent-title">' in html
    assert 'action="/settings/consent"' in html and 'value="agree"' in html and 'value="decline"' in html

    answer = carol_page.post("/settings/consent", {"decision": "agree", "next": "/chat"})
    assert answer.status_code == 302 and answer["Location"] == "/chat"
    assert ModelConsent.objects.get(user=carol).granted is True
    html = carol_page.get("/chat").content.decode()
    assert 'aria-labelledby="consent-title" hidden>' in html


def test_declining_on_the_page_is_recorded_and_the_chat_still_asks(carol, carol_page):
    answer = carol_page.post("/settings/consent", {"decision": "decline", "next": "https://evil.example/"})
    assert answer.status_code == 302 and answer["Location"] == "/settings#consent"
    assert ModelConsent.objects.get(user=carol).granted is False
    assert 'aria-labelledby="consent-title">' in carol_page.get("/chat").content.decode()


def test_an_unknown_decision_records_nothing(carol, carol_page):
    assert carol_page.post("/settings/consent", {"decision": "maybe"}).status_code == 302
    assert not ModelConsent.objects.filter(user=carol).exists()


def test_settings_shows_the_decision_and_withdraws_it(alice):
    page = Client()
    page.force_login(alice)
    html = page.get("/settings").content.decode()
    assert 'id="consent"' in html and "You agreed on" in html and 'value="decline"' in html
    assert page.post("/settings/consent", {"decision": "decline", "next": "/settings#consent"}).status_code == 302
    html = page.get("/settings").content.decode()
    assert "You declined on" in html and 'value="agree"' in html
    assert list(ModelConsent.objects.filter(user=alice).order_by("id").values_list("granted", flat=True)) == [
        True,
        False,
    ]


def test_the_panel_speaks_vietnamese(carol):
    from zeus.services import profile_update

    profile_update(user=carol, language="vi")
    page = Client()
    page.force_login(carol)
    html = page.get("/chat", HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    assert "Anthropic" in html and "Hoa Kỳ" in html and "Tôi đồng ý" in html
