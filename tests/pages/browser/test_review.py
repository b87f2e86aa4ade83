"""The weekly review in a real browser: its chart is drawn at a real size, and its links lead somewhere."""

import datetime as dt

import pytest

from suggestions.digest.job import weekly_digest_send
from zeus.timeutil import user_today

pytestmark = pytest.mark.browser


def test_the_reviews_chart_is_drawn_and_its_links_open(site, minh):
    today = user_today(minh)  # weeks are the reader's: Saigon's Monday begins on Sunday at 17:00 UTC
    monday = today - dt.timedelta(days=today.weekday() + 7)
    weekly_digest_send(now=dt.datetime.combine(monday + dt.timedelta(days=6), dt.time(2, 0), tzinfo=dt.UTC))
    page = site.log_in(site.page(), minh)
    page.click("a[href='/digest/latest']")
    page.wait_for_url("**/digest/*-W*")
    page.wait_for_selector("figure.chart-figure.drawn")
    box = page.locator("figure.chart-figure canvas").bounding_box()
    assert box and box["width"] > 100 and box["height"] > 100
    site.shot(page, "review")
    page.click("a[rel=next]")
    page.wait_for_load_state()
    assert page.locator("h1").count() == 1 and page.locator("a[rel=next]").count() == 0
    page.click("text=Tất cả bản tổng kết")
    page.wait_for_url("**/digest")
    assert page.locator(".review-index li").count() >= 2
