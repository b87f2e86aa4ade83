"""What the nightly watch reads once a batch: the cushions come with its locked watch rows, and the screen and the
full read measure against those, reading none of their own."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from plans import forecast as fc
from plans.forecast_jobs import shortfall_watch_run
from plans.forecast_models import ForecastWatch
from plans.forecast_read import forecast_cushion_set, shortfall_readings
from plans.forecast_screen import may_fall_short
from tests.forecast.test_forecast_batch import NOW, queries_of, varied_user
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db


def _watch_reads(seen) -> list[str]:
    return [
        q["sql"] for q in seen.captured_queries if q["sql"].startswith("SELECT") and "plans_forecastwatch" in q["sql"]
    ]


def test_the_watch_reads_the_cushions_once_a_batch_with_its_locked_rows():
    users = [varied_user(n) for n in range(10)]
    for user in users[::2]:
        forecast_cushion_set(user=user, cushion="3000000")
    with CaptureQueriesContext(connection) as seen:
        shortfall_watch_run(now=NOW, user_id_range=(users[0].pk, users[-1].pk), batch_size=5)
    reads = _watch_reads(seen)
    # Two batches of five, each with users the screen sends on to the full read (a card, a plan).
    assert len(reads) == 2
    assert all("FOR UPDATE" in sql and '"cushion"' in sql for sql in reads)


def test_cushions_handed_over_read_as_the_cushions_read_here():
    users = [varied_user(n) for n in range(10)]
    today_of = {user.pk: user_today(user, now=NOW) for user in users}
    currency_of = {user.pk: user.profile.currency for user in users}
    for n, user in enumerate(users):
        forecast_cushion_set(user=user, cushion=("0", "5000000", "30000000")[n % 3])
    ForecastWatch.objects.filter(user=users[3]).delete()  # no watch yet: no cushion
    stored = dict(ForecastWatch.objects.values_list("user_id", "cushion"))
    window = fc.SHORTFALL_WINDOW

    def screen(**given):
        return may_fall_short(currency_of=currency_of, today_of=today_of, days=window, **given)

    def full(**given):
        return shortfall_readings(currency_of=currency_of, today_of=today_of, days=window, **given)

    assert screen(cushions=stored) == screen()
    assert full(cushions=stored) == full()
    assert queries_of(lambda: screen(cushions=stored)) == queries_of(screen) - 1
    assert queries_of(lambda: full(cushions=stored)) == queries_of(full) - 1
