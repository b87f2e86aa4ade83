"""The weekly reviews as pages: previous and next (next only once that week has begun), the index of reviews,
the inbox notice and the home's link to the latest."""

import datetime as dt

import pytest
from django.test import Client

from suggestions.digest.job import weekly_digest_send
from tests import factories
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db


def iso(day: dt.date) -> str:
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def sent_two_weeks_ago(user) -> str:
    """Sends the review of the week before last (its Sunday, 09:00 in Saigon) and returns its ISO week: weeks are
    the user's, so from Sunday 17:00 UTC on, when Saigon's Monday has begun, this week is the next ISO week."""
    today = user_today(user)
    monday = today - dt.timedelta(days=today.weekday() + 14)
    factories.txn(user, description="Phở", amount="65000", occurred_on=monday + dt.timedelta(days=2))
    sunday = monday + dt.timedelta(days=6)
    weekly_digest_send(now=dt.datetime.combine(sunday, dt.time(2, 0), tzinfo=dt.UTC))
    return iso(monday)


def test_a_past_review_links_both_ways_and_this_weeks_has_no_next(alice_web, alice):
    week = sent_two_weeks_ago(alice)
    monday = dt.date.fromisocalendar(int(week[:4]), int(week[6:]), 1)
    html = alice_web.get(f"/digest/{week}").content.decode()
    assert f'href="/digest/{iso(monday - dt.timedelta(days=7))}" rel="prev"' in html
    assert f'href="/digest/{iso(monday + dt.timedelta(days=7))}" rel="next"' in html
    assert 'href="/digest"' in html
    now = alice_web.get(f"/digest/{iso(user_today(alice))}").content.decode()
    assert 'rel="prev"' in now and 'rel="next"' not in now
    # Every link the page offers opens.
    assert alice_web.get(f"/digest/{iso(monday + dt.timedelta(days=7))}").status_code == 200


def test_the_index_lists_this_week_and_every_sent_review(alice_web, alice):
    week = sent_two_weeks_ago(alice)
    html = alice_web.get("/digest").content.decode()
    assert f'href="/digest/{iso(user_today(alice))}"' in html and f'href="/digest/{week}"' in html
    assert alice_web.get("/digest/").status_code == 200
    other = Client()
    other.force_login(factories.user("newcomer"))  # joined after the review went out
    assert f"/digest/{week}" not in other.get("/digest").content.decode()


def test_the_inbox_notice_and_the_homes_link_open_the_latest_review(alice_web, alice):
    week = sent_two_weeks_ago(alice)
    from zeus.models import Notification

    note = Notification.objects.get(user=alice, kind="weekly_digest")
    assert f'action="/inbox/{note.id}/read"' in alice_web.get("/inbox").content.decode()
    opened = alice_web.post(f"/inbox/{note.id}/read", {"open": "1"})
    assert opened.status_code == 302 and opened["Location"] == f"/digest/{week}"
    home = alice_web.get("/").content.decode()
    assert 'href="/digest/latest"' in home
    latest = alice_web.get("/digest/latest")
    assert latest.status_code == 302 and latest["Location"] == f"/digest/{week}"


def test_without_a_sent_review_latest_is_this_week(alice_web, alice):
    latest = alice_web.get("/digest/latest")
    assert latest.status_code == 302 and latest["Location"] == f"/digest/{iso(user_today(alice))}"
