"""The nightly watch reads its users' forecasts in batches (plans.forecast_read.cash_forecasts): the same
forecast as each user's own read, and a number of queries that does not grow with the batch."""

import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from assets.cards import cycle
from assets.ledger.transfers import transfer_create
from assets.models import Transaction
from goals.debts.services import debt_create
from plans import forecast as fc
from plans import math as pm
from plans.forecast_jobs import shortfall_watch_run
from plans.forecast_models import ForecastWatch
from plans.forecast_read import cash_forecast, cash_forecasts, forecast_cushion_set, shortfall_readings
from plans.services import plan_activate, plan_create
from suggestions.models import RecurringSeries
from tests import factories
from zeus.models import Profile
from zeus.selectors import profiles_remember
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db

# 19:00 UTC: 11:00 in Los Angeles, 09:00 tomorrow on Kiritimati, 02:00 tomorrow in Ho Chi Minh City (before the
# watch's hour: not checked).
NOW = dt.datetime(2026, 12, 4, 19, 0, tzinfo=dt.UTC)
TIMEZONES = ("America/Los_Angeles", "Pacific/Kiritimati", "Asia/Ho_Chi_Minh")


def series(user, *, merchant, kind, direction, amount, next_on, currency=None, interval="monthly"):
    return RecurringSeries.objects.create(
        user=user,
        key=merchant.lower(),
        direction=direction,
        merchant=merchant,
        kind=kind,
        amount=Decimal(amount),
        currency=currency or user.profile.currency,
        interval=interval,
        last_on=next_on - dt.timedelta(days=30),
        next_on=next_on,
        category="salary" if kind == "income" else "housing",
        occurrences=3,
    )


def varied_user(n: int):
    """One of five shapes by `n`, each in its own timezone of TIMEZONES: a ledger with a card, a debt, a
    transfer and spending in USD; an active plan; a USD user with a VND account beside; a user with nothing
    to forecast; a user short of money."""
    shape = n % 5
    user = factories.user(
        f"user{n}", currency="USD" if shape == 2 else "VND", timezone=TIMEZONES[n % 3], language=("vi", "en")[n % 2]
    )
    today = user_today(user, now=NOW)
    later = lambda days: today + dt.timedelta(days=days)  # noqa: E731
    if shape == 0:
        bank = factories.asset(user, name="VCB", kind="bank_account", balance="20000000")
        cash = factories.asset(user, name="Wallet", kind="cash", balance="300000")
        statement_day = min(later(-10).day, 28)
        card = factories.asset(
            user, name="VIB", kind="credit_card", balance="3000000", statement_day=statement_day, due_day=statement_day
        )
        factories.asset(user, name="Old card", kind="credit_card", balance="500000")
        factories.txn(user, amount="900000", occurred_on=cycle.last_statement_on(today, statement_day), asset=card)
        for back in range(1, 61):
            factories.txn(user, amount=str(20000 + 1000 * (back % 7)), occurred_on=later(-back), asset=bank)
        for back in range(1, 50, 2):
            factories.txn(user, amount="3", currency="USD", occurred_on=later(-back), asset=bank)
        factories.rate(later(-120), "25000", source="user", owner=user)
        out = factories.txn(user, amount="2000000", occurred_on=later(-3), asset=bank)
        inc = factories.txn(user, amount="2000000", direction="income", occurred_on=later(-3), asset=cash)
        transfer_create(user=user, out_id=out.id, in_id=inc.id)
        series(user, merchant="Savings", kind="transfer", direction="expense", amount="5000000", next_on=later(2))
        series(user, merchant="Rent", kind="bill", direction="expense", amount="6000000", next_on=later(5))
        series(user, merchant="Salary", kind="income", direction="income", amount="25000000", next_on=later(12))
        debt_create(
            user=user, direction="i_owe", counterparty="Bank loan", principal="1200000", installments=3,
            first_due_on=later(4), interest_rate="12",
        )  # fmt: skip
        debt_create(user=user, direction="owed_to_me", counterparty="Lan", principal="700000", due_on=later(6))
    elif shape == 1:
        factories.asset(user, kind="bank_account", balance="8000000")
        plan = plan_create(
            user=user,
            month=f"{today:%Y-%m}",
            expected_income="30000000",
            fixed_expenses=[{"name": "Rent", "amount": "7000000", "category": "housing"}],
            today=today,
        )
        plan_activate(user=user, plan_id=plan.id, today=today)
        factories.txn(user, amount="150000", occurred_on=today)
        series(user, merchant="Netflix", kind="subscription", direction="expense", amount="260000", next_on=later(3))
        forecast_cushion_set(user=user, cushion="1000000")
    elif shape == 2:
        factories.asset(user, kind="bank_account", balance="1500.25")
        factories.asset(user, name="VND wallet", kind="cash", balance="2000000", currency="VND")
        series(user, merchant="Rent", kind="bill", direction="expense", amount="1800", next_on=later(1))
        series(
            user, merchant="Pay", kind="income", direction="income", amount="4000", next_on=later(20), interval="weekly"
        )
        factories.txn(user, amount="12.50", occurred_on=later(-2))
    elif shape == 3:
        factories.asset(user, kind="property", balance="900000000")
    else:
        factories.asset(user, kind="e_wallet", balance="100000")
        series(user, merchant="Rent", kind="bill", direction="expense", amount="4500000", next_on=later(5))
    return user


def test_the_batch_read_gives_each_user_the_forecast_of_their_own_read():
    users = [varied_user(n) for n in range(10)]
    today_of = {user.pk: user_today(user, now=NOW) for user in users}
    assert len(set(today_of.values())) > 1  # the users' todays differ
    for days in (None, fc.SHORTFALL_WINDOW, fc.MAX_DAYS):
        batch = cash_forecasts(users=users, today_of=today_of, days=days)
        for user in users:
            assert batch[user.pk] == cash_forecast(user=user, today=today_of[user.pk], days=days)
    kinds = {event.kind for view in batch.values() if view.forecast for d in view.forecast.days for event in d.events}
    assert kinds == {"income", "bill", "subscription", "debt", "fixed", "card", "spending"}
    assert {view.other_currencies for view in batch.values()} >= {("VND",), ()}
    assert sum(view.forecast is None for view in batch.values()) == 2


def test_the_watch_notices_the_users_whose_own_forecast_runs_short():
    users = [varied_user(n) for n in range(10)]
    expected = {}
    for user in users:
        local = NOW.astimezone(user.profile.tz)
        view = cash_forecast(user=user, today=local.date(), days=fc.SHORTFALL_WINDOW)
        if local.hour >= 7 and view.forecast and view.forecast.shortfall:
            lowest = fc.lowest_within(view.forecast, fc.SHORTFALL_WINDOW)
            expected[user.pk] = (f"shortfall:{local.date().isoformat()}", lowest.date.strftime("%d/%m"))
    assert expected and len(expected) < len(users)
    span = (users[0].pk, users[-1].pk)
    assert shortfall_watch_run(now=NOW, user_id_range=span, batch_size=4) == len(expected)
    for user in users:
        notices = list(user.notifications.filter(kind="cash_shortfall"))
        if user.pk in expected:
            key, lowest_on = expected[user.pk]
            assert [n.dedupe_key for n in notices] == [key] and lowest_on in notices[0].title
        else:
            assert notices == []
    assert shortfall_watch_run(now=NOW, user_id_range=span, batch_size=4) == 0  # the same day
    assert shortfall_watch_run(now=NOW + dt.timedelta(days=1), user_id_range=span) == 0  # the same episodes


def test_the_notice_is_in_the_users_language():
    user = varied_user(9)  # short of money, English, Los Angeles
    shortfall_watch_run(now=NOW, user_id_range=(user.pk, user.pk))
    assert user.notifications.get().title.startswith("Money may run short on ")
    vietnamese = varied_user(4)  # the same shape, Vietnamese, Kiritimati
    shortfall_watch_run(now=NOW, user_id_range=(vietnamese.pk, vietnamese.pk))
    assert not vietnamese.notifications.get().title.startswith("Money")


def test_an_episode_closes_when_no_one_in_the_batch_is_short_any_more():
    user = varied_user(9)  # short of money, Los Angeles
    span = (user.pk, user.pk)
    shortfall_watch_run(now=NOW, user_id_range=span)
    assert ForecastWatch.objects.get(user=user).in_shortfall
    user.assets.update(balance=Decimal("90000000"))
    shortfall_watch_run(now=NOW + dt.timedelta(days=1), user_id_range=span)
    watch = ForecastWatch.objects.get(user=user)
    assert not watch.in_shortfall and watch.checked_on == user_today(user, now=NOW + dt.timedelta(days=1))
    user.assets.update(balance=Decimal("100000"))
    assert shortfall_watch_run(now=NOW + dt.timedelta(days=2), user_id_range=span) == 1  # a new episode


def queries_of(run) -> int:
    with CaptureQueriesContext(connection) as seen:
        run()
    return len(seen)


def test_the_watch_and_the_batch_read_take_as_many_queries_for_30_users_as_for_15():
    # Each shape in each timezone once, then twice: the watch reads in full only the users its screen cannot
    # clear (plans.forecast_screen), so both batches hold the same kinds of users.
    few = [varied_user(n) for n in range(15)]
    many = [varied_user(n) for n in range(100, 130)]

    def read(users):
        today_of = {u.pk: user_today(u, now=NOW) for u in users}
        return lambda: cash_forecasts(users=users, today_of=today_of)

    assert queries_of(read(few)) == queries_of(read(many))

    def watch(users):
        return lambda: shortfall_watch_run(now=NOW, user_id_range=(users[0].pk, users[-1].pk))

    assert queries_of(watch(few)) == queries_of(watch(many))


def test_the_watchs_reading_is_the_forecasts_lowest_point_for_every_user_it_may_skip():
    users = [varied_user(n) for n in range(10)]
    today_of = {user.pk: user_today(user, now=NOW) for user in users}
    for cushion in ("0", "5000000", "30000000"):
        for user in users:
            forecast_cushion_set(user=user, cushion=cushion)
        currency_of = {user.pk: user.profile.currency for user in users}
        readings = shortfall_readings(currency_of=currency_of, today_of=today_of, days=fc.SHORTFALL_WINDOW)
        views = cash_forecasts(users=users, today_of=today_of, days=fc.SHORTFALL_WINDOW)
        for user in users:
            reading, view = readings[user.pk], views[user.pk]
            lowest = fc.lowest_within(view.forecast, fc.SHORTFALL_WINDOW) if view.forecast else None
            short = lowest is not None and lowest.balance < view.forecast.cushion
            assert reading.short == short and reading.currency == view.currency
            if short:
                assert reading.lowest == lowest


def edge_user(n: int, balance: str):
    """A user whose lowest day is the window's last: a bill overdue since last week (it falls on tomorrow), rent
    on the last day, a salary after the window and 100,000 of spending on 60 of the last 90 days (the median
    day). 400,000 + 4,500,000 + 14 x 100,000 = 6,300,000 goes out by the last day."""
    user = factories.user(f"edge{n}", timezone="UTC")
    today = user_today(user, now=NOW)
    factories.asset(user, kind="bank_account", balance=balance)
    later = lambda days: today + dt.timedelta(days=days)  # noqa: E731
    series(user, merchant="Water", kind="bill", direction="expense", amount="400000", next_on=later(-7))
    series(user, merchant="Rent", kind="bill", direction="expense", amount="4500000", next_on=later(14))
    series(user, merchant="Salary", kind="income", direction="income", amount="25000000", next_on=later(16))
    Transaction.objects.bulk_create(
        Transaction(
            user=user, amount=Decimal(100000), currency="VND", direction="expense", category="dining",
            occurred_on=later(-back), source="manual",
        )
        for back in range(1, 61)
    )  # fmt: skip
    return user


def test_a_user_one_dong_short_on_the_windows_last_day_is_noticed_and_one_who_is_not_is_left_alone():
    short, even = edge_user(1, "6299999"), edge_user(2, "6300000")
    assert shortfall_watch_run(now=NOW, user_id_range=(short.pk, even.pk)) == 1
    notice = short.notifications.get()
    assert notice.facts["balance"] == "-1" and notice.facts["date"] == "2026-12-18"
    assert not even.notifications.exists()
    assert [ForecastWatch.objects.get(user=u).in_shortfall for u in (short, even)] == [True, False]


def test_a_batch_of_nobody_and_profiles_already_held_take_no_query():
    user = varied_user(4)
    profiles_remember(users=[user])
    assert queries_of(lambda: profiles_remember(users=[user])) == 0
    assert queries_of(lambda: cash_forecasts(users=[], today_of={})) == 0
    assert queries_of(lambda: shortfall_readings(currency_of={}, today_of={}, days=fc.SHORTFALL_WINDOW)) == 0


def test_a_forecast_of_a_few_days_is_the_first_days_of_the_longest():
    """Asked for a few days, the forecast reads the recurring series only as far as it needs (those days, and the
    rest of the month for the bills that pay the plan's fixed expenses): its days are the longest forecast's."""
    users = [varied_user(n) for n in range(5)]
    planned = users[1]
    today = user_today(planned, now=NOW)
    series(
        planned, merchant="Landlord", kind="bill", direction="expense", amount="7000000",
        next_on=pm.month_last(pm.month_first(today)),
    )  # fmt: skip
    series(
        planned,
        merchant="Gym",
        kind="subscription",
        direction="expense",
        amount="99000",
        next_on=today,
        interval="weekly",
    )
    for user in users:
        today = user_today(user, now=NOW)
        longest = cash_forecast(user=user, today=today, days=fc.MAX_DAYS).forecast
        for days in (1, 5, fc.SHORTFALL_WINDOW):
            short = cash_forecast(user=user, today=today, days=days).forecast
            assert (short is None) == (longest is None)
            if short is not None:
                assert short.days == longest.days[: days + 1]
    fixed = [e for d in cash_forecast(user=planned, today=today, days=5).forecast.days for e in d.events]
    assert not [e for e in fixed if e.kind == "fixed"]  # the landlord's bill at the month's end pays the rent


def test_the_watch_checks_a_user_without_a_profile_with_the_profiles_defaults():
    user = edge_user(3, "100000")  # short of money
    Profile.objects.filter(user=user).delete()
    morning = NOW + dt.timedelta(hours=6)  # 08:00 in Ho Chi Minh City, a new profile's timezone
    assert shortfall_watch_run(now=morning, user_id_range=(user.pk, user.pk)) == 1
    profile = Profile.objects.get(user=user)
    assert (profile.timezone, profile.currency) == ("Asia/Ho_Chi_Minh", "VND")
    watch = ForecastWatch.objects.get(user=user)
    assert watch.in_shortfall and watch.checked_on == dt.date(2026, 12, 5)


def test_the_watch_costs_the_same_queries_whoever_is_online_and_pushes_in_the_readers_language():
    """The live push after commit speaks the languages read with the batch: no query of its own."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer
    from django.test import TestCase

    from zeus.live import user_group

    def watch(user) -> int:
        # The callbacks run as their context closes: inside the count.
        with CaptureQueriesContext(connection) as seen, TestCase.captureOnCommitCallbacks(execute=True):
            assert shortfall_watch_run(now=NOW, user_id_range=(user.pk, user.pk)) == 1
        return len(seen)

    alone, online = varied_user(9), varied_user(39)  # the same shape: short of money, English, Los Angeles
    layer = get_channel_layer()
    nobody = watch(alone)
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(user_group(online.pk), channel)
    someone = watch(online)
    message = async_to_sync(layer.receive)(channel)
    async_to_sync(layer.group_discard)(user_group(online.pk), channel)
    assert nobody == someone
    assert message["notification"]["title"].startswith("Money may run short on ")
