"""The nightly watch's screen (plans.forecast_screen): it may send a user who has money enough on to the full
read, never hold back one who may fall short; the notices are those of the full read of every user."""

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assets.ledger.corrections import transaction_split
from assets.models import Transaction
from plans import forecast as fc
from plans import forecast_jobs
from plans.forecast_models import ForecastWatch
from plans.forecast_read import forecast_cushion_set, shortfall_readings
from plans.forecast_screen import may_fall_short
from tests import factories
from tests.forecast.test_forecast_batch import NOW, edge_user, queries_of, series, varied_user
from zeus.models import Notification
from zeus.timeutil import user_today

TODAY = dt.date(2026, 12, 4)


@settings(max_examples=400, deadline=None)
@given(
    first_on=st.dates(min_value=TODAY - dt.timedelta(days=400), max_value=TODAY + dt.timedelta(days=100)),
    later_by=st.integers(min_value=0, max_value=60),
    interval=st.sampled_from([fc.WEEKLY, fc.MONTHLY, fc.YEARLY, "fortnightly"]),
    days=st.integers(min_value=0, max_value=fc.MAX_DAYS),
)
def test_no_series_charges_more_often_than_its_bound(first_on, later_by, interval, days):
    # Any series starting on or after the group's first charge: the bound of the earliest holds for all.
    last = TODAY + dt.timedelta(days=days)
    charges = fc.occurrences(first_on + dt.timedelta(days=later_by), interval, last)
    assert len(charges) <= fc.charges_at_most(first_on=first_on, interval=interval, last=last)


def test_the_shortest_month_step_is_counted():
    jan31 = dt.date(2027, 1, 31)
    assert fc.occurrences(jan31, fc.MONTHLY, dt.date(2027, 2, 28)) == [jan31, dt.date(2027, 2, 28)]
    assert fc.charges_at_most(first_on=jan31, interval=fc.MONTHLY, last=dt.date(2027, 2, 28)) == 2
    assert fc.charges_at_most(first_on=jan31, interval=fc.MONTHLY, last=dt.date(2027, 2, 27)) == 1
    assert fc.charges_at_most(first_on=jan31, interval=fc.WEEKLY, last=jan31 - dt.timedelta(days=1)) == 0


@settings(max_examples=400, deadline=None)
@given(
    totals=st.lists(st.integers(min_value=0, max_value=50_000_000), max_size=90),
    slack=st.integers(min_value=0, max_value=1_000),
)
def test_the_typical_day_never_exceeds_its_bound(totals, slack):
    padded = totals + [0] * (90 - len(totals))
    assert fc.median_daily(padded) <= fc.median_at_most(total=sum(totals) + slack, count=90)


def test_the_median_bound_is_reached_when_half_the_days_spend_alike():
    assert fc.median_at_most(total=45 * 100_000, count=90) == 100_000 == fc.median_daily([100_000] * 90)
    assert fc.median_at_most(total=3 * 7, count=5) == 7 == fc.median_daily([0, 0, 7, 7, 7])
    assert fc.median_at_most(total=10, count=0) == 0


def _users():
    users = [varied_user(n) for n in range(10)]
    users += [edge_user(1, "6299999"), edge_user(2, "6300000")]
    rich = factories.user("rich", timezone="UTC")
    factories.asset(rich, kind="bank_account", balance="900000000")
    series(rich, merchant="Rent", kind="bill", direction="expense", amount="9000000", next_on=TODAY, interval="weekly")
    return [*users, rich], rich


@pytest.mark.django_db
def test_the_screen_keeps_every_user_who_may_fall_short_and_clears_who_cannot():
    users, rich = _users()
    today_of = {user.pk: user_today(user, now=NOW) for user in users}
    currency_of = {user.pk: user.profile.currency for user in users}
    for cushion in ("0", "5000000", "30000000"):
        for user in users:
            forecast_cushion_set(user=user, cushion=cushion)
        readings = shortfall_readings(currency_of=currency_of, today_of=today_of, days=fc.SHORTFALL_WINDOW)
        maybe = may_fall_short(currency_of=currency_of, today_of=today_of, days=fc.SHORTFALL_WINDOW)
        short = {user_id for user_id, reading in readings.items() if reading.short}
        assert short and short <= maybe
        assert rich.pk not in maybe and rich.pk not in short
    # The edge users differ by a đồng and stay with the full read: the screen's bounds are not the forecast.
    assert {users[-3].pk, users[-2].pk} <= maybe


@pytest.mark.django_db
def test_the_screen_takes_as_many_queries_for_30_users_as_for_5():
    def screen(users):
        today_of = {u.pk: user_today(u, now=NOW) for u in users}
        currency_of = {u.pk: u.profile.currency for u in users}
        return lambda: may_fall_short(currency_of=currency_of, today_of=today_of, days=fc.SHORTFALL_WINDOW)

    few = [varied_user(n) for n in range(5)]
    many = [varied_user(n) for n in range(100, 130)]
    vnd_only = [user for user in few if user.profile.currency == "VND"]
    # The series, the accounts, the spending, the plans with the debts, the cushions: one grouped read a table
    # however many users, and however many currencies (the batches hold VND and USD users).
    assert queries_of(screen(few)) == queries_of(screen(many)) == queries_of(screen(vnd_only)) == 5
    assert queries_of(lambda: may_fall_short(currency_of={}, today_of={}, days=fc.SHORTFALL_WINDOW)) == 0


def _sent():
    fields = ("user_id", "kind", "title", "body", "cta_url", "dedupe_key", "facts")
    return sorted(Notification.objects.filter(kind="cash_shortfall").values_list(*fields))


@pytest.mark.django_db
def test_the_watch_sends_what_the_full_read_of_every_user_sends(monkeypatch):
    users, _rich = _users()
    span = (users[0].pk, users[-1].pk)
    for user in users[::2]:
        forecast_cushion_set(user=user, cushion="3000000")
    days = [NOW, NOW + dt.timedelta(days=1)]
    screened = []
    for now in days:
        forecast_jobs.shortfall_watch_run(now=now, user_id_range=span, batch_size=5)
        screened.append(_sent())
    Notification.objects.all().delete()
    ForecastWatch.objects.update(in_shortfall=False, checked_on=None)  # every episode closed, every user unread
    monkeypatch.setattr(forecast_jobs, "may_fall_short", lambda *, currency_of, **kw: set(currency_of))
    full = []
    for now in days:
        forecast_jobs.shortfall_watch_run(now=now, user_id_range=span, batch_size=5)
        full.append(_sent())
    assert screened == full and screened[0]


@pytest.mark.django_db
def test_the_screen_counts_a_split_row_as_its_parts_add_up():
    """The screen sums the counted rows whole (a split's parts add up to its row): a user whose every spending row
    is split is kept as the full read finds them short, not cleared as one who spent nothing."""
    user = edge_user(3, "6299999")
    for row in Transaction.objects.filter(user=user):
        parts = [{"amount": "60000", "category": "groceries"}, {"amount": "40000", "category": "shopping"}]
        transaction_split(user=user, transaction_id=row.id, parts=parts)
    today_of, currency_of = {user.pk: user_today(user, now=NOW)}, {user.pk: "VND"}
    readings = shortfall_readings(currency_of=currency_of, today_of=today_of, days=fc.SHORTFALL_WINDOW)
    assert readings[user.pk].short and readings[user.pk].lowest.balance == -1
    assert may_fall_short(currency_of=currency_of, today_of=today_of, days=fc.SHORTFALL_WINDOW) == {user.pk}
