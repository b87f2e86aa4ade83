"""A weekly review's week and days as its reader says them, wherever they are worded (the page's heading and
links, the chart, the index, the inbox notice and the mail's title): "Tuần 49" and "30/11 - 06/12/2026" in
Vietnamese, "Week 49" and "11/30 - 12/06/2026" in English; a week of another year carries its year."""

import datetime as dt
import json
import re

import pytest
from django.test import Client
from django.utils import translation

from suggestions.digest.job import weekly_digest_send
from tests import factories
from zeus.formatting import date_range, week_label
from zeus.models import Notification

pytestmark = pytest.mark.django_db
ISO = re.compile(r"\d{4}-W\d{2}")


def test_the_week_and_its_days_in_each_language():
    with translation.override("vi"):
        assert week_label("2026-W49", this_year=2026) == "Tuần 49"
        assert week_label("2026-W49") == "Tuần 49"
        assert week_label("2025-W52", this_year=2026) == "Tuần 52, 2025"
        assert date_range(dt.date(2026, 11, 30), dt.date(2026, 12, 6)) == "30/11 \u2013 06/12/2026"
        assert date_range(dt.date(2026, 12, 28), dt.date(2027, 1, 3)) == "28/12/2026 \u2013 03/01/2027"
    with translation.override("en"):
        assert week_label("2026-W49", this_year=2026) == "Week 49"
        assert week_label("2025-W52", this_year=2026) == "Week 52, 2025"
        assert date_range(dt.date(2026, 11, 30), dt.date(2026, 12, 6)) == "11/30 \u2013 12/06/2026"


def _reader(language: str) -> tuple[Client, object, dt.date]:
    user = factories.user(f"reader_{language}", language=language)
    today = dt.date.today()
    monday = today - dt.timedelta(days=today.weekday() + 7)
    factories.txn(user, description="Phở", amount="65000", occurred_on=monday + dt.timedelta(days=2))
    sunday = monday + dt.timedelta(days=6)
    weekly_digest_send(user_ids=[user.id], now=dt.datetime.combine(sunday, dt.time(2, 0), tzinfo=dt.UTC))
    client = Client()
    client.force_login(user)
    return client, user, monday


@pytest.mark.parametrize(("language", "word"), [("vi", "Tuần"), ("en", "Week")])
def test_the_page_the_index_and_the_notice_say_the_week_the_readers_way(language, word):
    client, user, monday = _reader(language)
    year, number, _ = monday.isocalendar()
    sunday = monday + dt.timedelta(days=6)
    with translation.override(language):
        days = date_range(monday, sunday)
        label = week_label(f"{year}-W{number:02d}", this_year=dt.date.today().year)
    assert label.startswith(f"{word} {number}")
    page = client.get(f"/digest/{year}-W{number:02d}").content.decode()
    heading = re.search(r"<h1>(.*?)</h1>", page).group(1)
    assert heading.startswith(f"{label}: ") and not ISO.search(heading)
    assert f"<p>{days}</p>" in page
    visible = re.sub(r'href="[^"]*"', "", page)
    assert not ISO.search(visible.split('id="digest-weeks-data"')[0])  # links, table: no "2026-W49"
    chart = json.loads(re.search(r'id="digest-weeks-data" type="application/json">(.*?)</script>', page).group(1))
    assert chart["labels"][-1] == label and all(w.startswith(word) for w in chart["labels"])
    index = client.get("/digest").content.decode()
    assert f">{label}</a>" in index and days in index and not ISO.search(re.sub(r'href="[^"]*"', "", index))
    note = Notification.objects.get(user=user, kind="weekly_digest")
    with translation.override(language):
        assert note.words.title.startswith(f"{word} {number}: ") and note.title == note.words.title


def _words_review(week: str, spent: str) -> dict:
    return {"currency": "VND", "week": week, "spent": spent, "average_previous": "0", "change_pct": None,
            "rate_missing": [], "top_categories": [], "biggest": [], "plan": None, "goals": [],
            "due_next_week": [], "insights": []}  # fmt: skip


def test_a_batchs_words_name_each_reviews_own_week_and_amounts_in_each_readers_language():
    """texts() reads the language and words the week label once per language for the batch: readers of two
    languages and reviews of two weeks in one batch each get their own week and their own way of writing an
    amount, as title() and body() say them for one reader."""
    from suggestions.digest.texts import body, texts, title

    reviews = {1: _words_review("2026-W48", "1500000"), 2: _words_review("2026-W48", "20000"),
               3: _words_review("2026-W49", "7000"), 4: _words_review("2026-W49", "0")}  # fmt: skip
    languages = {1: "vi", 2: "en", 3: "vi", 4: "en"}
    words = texts(reviews, languages)
    for uid, review in reviews.items():
        with translation.override(languages[uid]):
            assert words[uid] == (title(review), body(review))
    assert [words[uid][0].split(":")[0] for uid in reviews] == ["Tuần 48", "Week 48", "Tuần 49", "Week 49"]
    assert (words[1][1], words[2][1]) == ("Tuần này bạn đã chi 1.500.000\xa0₫.", "You spent ₫20,000 this week.")
