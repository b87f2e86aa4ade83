"""The /digest/<iso-week> page: the review with its chart and table, a week not sent composed on the fly, the
future a 404, only the reader's own review, a login needed."""

from suggestions.digest.job import weekly_digest_send
from suggestions.models import WeeklyDigest
from tests.suggestions.digest_week import MONDAY, SUNDAY_9_SAIGON, WEEK, ordinary_month, spend


def test_the_page_shows_the_review_with_a_chart_and_its_table(alice, client):
    ordinary_month(alice)
    weekly_digest_send(now=SUNDAY_9_SAIGON)
    client.force_login(alice)
    page = client.get(f"/digest/{WEEK}")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-chart="digest-weeks-data"' in html and 'id="digest-weeks-data" type="application/json"' in html
    assert "<table" in html and '<th scope="row">Week 44</th>' in html and "Uniqlo" in html
    assert "<script>" not in html  # no inline script: the chart reads its JSON
    assert client.get(f"/digest/{WEEK}/").status_code == 200


def test_a_week_not_sent_is_composed_on_the_page_and_the_future_is_404(alice, client):
    ordinary_month(alice)
    client.force_login(alice)
    assert client.get("/digest/2026-W40").status_code == 200
    assert not WeeklyDigest.objects.exists()
    assert client.get("/digest/2031-W10").status_code == 404
    assert client.get("/digest/2026-W60").status_code == 404


def test_the_page_shows_only_the_users_own_review(alice, bob, client):
    spend(alice, 777_000, MONDAY, "shopping", "Alice's secret")
    weekly_digest_send(now=SUNDAY_9_SAIGON)
    client.force_login(bob)
    assert "Alice&#x27;s secret" not in client.get(f"/digest/{WEEK}").content.decode()
    assert "Alice" not in client.get(f"/digest/{WEEK}").content.decode()


def test_the_page_needs_a_login(client):
    assert client.get(f"/digest/{WEEK}").status_code == 302
