"""An insight keeps its facts and is worded when read, in the reader's language: written while the profile
read English, it reads Vietnamese (with Vietnamese figures) once the profile does, on every surface (REST,
inbox, notifications API, mail). Rows written before the facts were kept are completed by the data migration
or fall back to their stored text."""

import importlib

import pytest
from django.apps import apps
from django.utils import translation

from suggestions.insights.job import insights_generate
from suggestions.models import Suggestion
from tests import factories
from tests.suggestions.factories import NOW, day, steady_life, weekly
from zeus.mail import build_message
from zeus.models import Notification
from zeus.services import profile_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def written_in_english(alice):
    steady_life(alice)
    weekly(alice, category="shopping", amounts=[7_500_000, *[200_000, 350_000, 150_000, 300_000] * 3])
    factories.txn(alice, category="entertainment", description="CGV Cinemas", amount=240_000, occurred_on=day(2))
    factories.txn(alice, category="entertainment", description="CGV Cinemas", amount=240_000, occurred_on=day(2))
    assert insights_generate(user_ids=[alice.id], now=NOW) == 2
    spike = Suggestion.objects.get(user=alice, kind="category_spike")
    assert spike.title == "Unusual shopping spending this week" and "₫7,500,000" in spike.body  # the stored text
    profile_update(user=alice, language="vi")
    return alice


def test_an_insight_written_in_english_reads_vietnamese_with_vietnamese_figures(client, written_in_english):
    client.force_login(written_in_english)
    listed = {s["kind"]: s for s in client.get("/api/v1/suggestions").json()["results"]}
    spike, duplicate = listed["category_spike"], listed["duplicate_charge"]
    assert spike["title"] == "Tuần này chi cho mua sắm bất thường"
    assert "7.500.000\xa0₫" in spike["body"] and "7,500,000" not in spike["body"]
    assert spike["cta_url"].startswith("/chat?prompt=") and "mua%20s%E1%BA%AFm" in spike["cta_url"]
    assert "CGV Cinemas" in duplicate["title"] and "240.000\xa0₫" in duplicate["body"]
    assert "Possible" not in duplicate["title"]

    notes = {n["title"] for n in client.get("/api/v1/notifications").json()["results"]}
    assert spike["title"] in notes and duplicate["title"] in notes
    inbox = client.get("/inbox").content.decode()
    assert "Tuần này chi cho mua sắm bất thường" in inbox and "Unusual" not in inbox


def test_the_same_insight_reads_english_again_for_an_english_reader(written_in_english):
    spike = Suggestion.objects.get(user=written_in_english, kind="category_spike")
    with translation.override("en"):
        assert spike.words.title == "Unusual shopping spending this week"
    with translation.override("vi"):
        assert Suggestion.objects.get(id=spike.id).words.title == "Tuần này chi cho mua sắm bất thường"


def test_the_mail_of_an_insight_is_worded_in_the_readers_language_when_sent(written_in_english):
    note = Notification.objects.filter(user=written_in_english, kind="insight").first()
    message = build_message(note, to="alice@example.com")
    assert message.subject.startswith(note.words.title) or "bất thường" in message.subject or "CGV" in message.subject
    assert "Possible duplicate" not in message.subject and "Unusual" not in message.subject


def test_a_row_without_its_facts_keeps_its_stored_text(alice):
    old = Suggestion.objects.create(
        user=alice, kind="duplicate_charge", title="Possible duplicate charge at X", body="old", dedupe_key="k",
        payload={"amount": "1000"},
    )  # fmt: skip
    with translation.override("vi"):
        assert (old.words.title, old.words.body) == ("Possible duplicate charge at X", "old")


def test_the_data_migration_completes_older_rows_and_their_inbox_rows(alice):
    first = factories.txn(alice, description=" Highlands Coffee ", amount="55000", occurred_on=day(1))
    second = factories.txn(alice, description="Highlands Coffee", amount="55000", occurred_on=day(1))
    payload = {"transaction_ids": [first.id, second.id], "amount": "55000", "currency": "VND",
               "direction": "expense", "dates": [day(1).isoformat()]}  # fmt: skip
    old = Suggestion.objects.create(user=alice, kind="duplicate_charge", title="Possible duplicate charge at H",
                                    body="English", dedupe_key="duplicate_charge:1", payload=payload)  # fmt: skip
    note = Notification.objects.create(user=alice, kind="insight", title="Possible duplicate charge at H",
                                       dedupe_key="duplicate_charge:1")  # fmt: skip
    with translation.override("vi"):
        assert old.words.title == "Possible duplicate charge at H"  # no merchant yet: the stored text

    importlib.import_module("suggestions.migrations.0006_insight_facts").fill(apps, None)

    old.refresh_from_db()
    note.refresh_from_db()
    assert old.payload["merchant"] == "Highlands Coffee"
    assert note.facts == {"insight": "duplicate_charge", **old.payload}
    with translation.override("vi"):
        reread = Suggestion.objects.get(id=old.id).words
        assert "Highlands Coffee" in reread.title and reread.title != "Possible duplicate charge at H"
        assert "55.000\xa0₫" in reread.body
        assert Notification.objects.get(id=note.id).words.title == reread.title
