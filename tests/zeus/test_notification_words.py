"""Every notification kind is worded when it is read, in the reader's language, from the facts stored with it:
the same rows read by a Vietnamese and an English reader say the same thing in each language, and none of the
Vietnamese words is left in English. A row stored before its kind kept facts still reads its stored text."""

import re

import pytest
from django.utils import translation

from plans import math as pm
from tests import factories
from zeus.models import Notification
from zeus.wording import WRITERS

pytestmark = pytest.mark.django_db

# The facts each producer stores (kind, facts); the stored title is a marker the reader never sees.
ROWS = [
    ("plan_reminder", {"words": "plan_reminder"}),
    ("month_end_summary", {"words": "month_end_summary", "month": "2026-11-01", "result": pm.OVER_BUDGET,
                           "suggestion_kind": pm.LOWER_SPENDING, "suggestion_amount": 1250000, "currency": "VND"}),
    ("insight", {"insight": "category_spike", "category": "groceries", "last_7_days": "4500000", "median": "1500000",
                 "currency": "VND"}),
    ("suggestion", {"words": "transfer_suggestions"}),
    ("transaction_synced", {"sign": "-", "amount": "1250000", "currency": "VND", "account": "Vietcombank ****1234"}),
    ("weekly_digest", {"review": {"currency": "VND", "week": "2026-W49", "spent": "15117000",
                                  "average_previous": "14000000", "change_pct": 8, "rate_missing": [],
                                  "top_categories": [{"category": "shopping", "spent": "7480000"}], "biggest": [],
                                  "plan": None, "goals": [], "due_next_week": [], "insights": []}}),
    ("debt_reminder", {"words": "debt_due", "direction": "i_owe", "person": "Minh", "amount": "2500000",
                       "currency": "VND", "date": "2026-12-10"}),
    ("debt_reminder", {"words": "card_due", "amount": "3200000", "currency": "VND", "card": "Visa",
                       "date": "2026-12-15"}),
    ("debt_settled", {"settled": False, "person": "Minh", "amount": "500000", "currency": "VND"}),
    ("cash_shortfall", {"date": "2026-12-12", "balance": "-1250000", "currency": "VND"}),
    ("account_export_ready", {"words": "account_export_ready"}),
]  # fmt: skip
# A person's own words (an admin's reply) are shown as written: no facts to word.
AS_WRITTEN = {"admin_reply"}
STORED = "STORED-TEXT"
# Figures the English way: a comma between thousands.
ENGLISH_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?!\d)")


def test_every_kind_but_a_persons_own_words_has_a_writer():
    worded = {facts.get("words") or kind for kind, facts in ROWS}
    assert {kind for kind, _facts in ROWS} | AS_WRITTEN == set(Notification.Kind.values)
    assert worded <= set(WRITERS), worded - set(WRITERS)


def _read(language: str) -> list[dict]:
    user = factories.user(f"reader_{language}", language=language)
    for i, (kind, facts) in enumerate(ROWS):
        Notification.objects.create(user=user, kind=kind, title=f"{STORED} {i}", cta_url="/x",
                                    facts=facts)  # fmt: skip
    rows = list(Notification.objects.filter(user=user).order_by("id"))

    with translation.override(language):
        return [{"title": n.words.title, "body": n.words.body} for n in rows]


def test_each_kind_reads_in_the_readers_language_when_read(client):
    vi, en = _read("vi"), _read("en")
    for (kind, facts), vi_words, en_words in zip(ROWS, vi, en, strict=True):
        label = facts.get("words") or kind
        assert STORED not in vi_words["title"] and STORED not in en_words["title"], label
        if kind != "transaction_synced":  # a bank's amount and account: the same words in both, but the figure
            assert vi_words["title"] != en_words["title"], (label, vi_words["title"])
        assert not ENGLISH_NUMBER.search(vi_words["title"] + vi_words["body"]), (label, vi_words)


def test_the_inbox_page_shows_them_in_vietnamese(client):
    user = factories.user("lan", language="vi")
    for kind, facts in ROWS:
        Notification.objects.create(user=user, kind=kind, title=STORED, facts=facts)
    client.force_login(user)
    html = client.get("/inbox").content.decode()
    assert STORED not in html
    for english in (
        "Your plan: today's check-in",
        "Your data export is ready",
        "Money may run short",
        "Transfers between your accounts",
        "to pay Minh",
        "due on Visa",
        "paid 500",
        "Your week",
        "2026-W49",
    ):
        assert english not in html, english  # fmt: skip
    assert "Tuần 49: đã chi 15.117.000" in html  # the review's week as the page's heading says it
    assert "1.250.000" in html


def test_a_row_stored_before_its_facts_reads_its_stored_text(client):
    user = factories.user("old", language="vi")
    old = Notification.objects.create(user=user, kind="cash_shortfall", title="Tiền có thể thiếu", body="Cũ")
    broken = Notification.objects.create(user=user, kind="debt_settled", title="Cũ", facts={"person": "Minh"})
    assert (old.words.title, old.words.body) == ("Tiền có thể thiếu", "Cũ")
    assert broken.words.title == "Cũ"
