"""The nightly watch's batch read counts money as each user's own forecast does, through the ledger's one rule
(assets.ledger.queries.counted): excluded rows and one's own transfers count nowhere, a split row counts as its
parts, spending in another currency is converted, and the plan's fixed expenses are paid by the bills in their
categories. Each user here has a twin whose ledger holds only what counts: the twins' forecasts are the same."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.ledger.corrections import transaction_split
from assets.ledger.transfers import transfer_create
from assets.models import Transaction
from plans import forecast as fc
from plans.forecast_jobs import shortfall_watch_run
from plans.forecast_models import ForecastWatch
from plans.forecast_read import cash_forecast, cash_forecasts, forecast_cushion_set, shortfall_readings
from plans.services import plan_activate, plan_create
from tests import factories
from tests.forecast.test_forecast_batch import NOW, TIMEZONES, queries_of, series
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db

SHAPES = ("spending", "fixed bills", "other currency")


def ledger_user(n: int, *, noise: bool):
    """User `n` of SHAPES[n % 3], in one of TIMEZONES, with 60 days of spending, a salary after the window and a
    rent bill inside it. With `noise`, rows that must count nowhere or only as parts: sixteen excluded 5,000,000
    rows, sixteen paired 2,000,000 moves from the bank to the wallet, a monthly savings transfer due in two days,
    and every fourth spending row split in two parts."""
    name = f"{'noisy' if noise else 'clean'}{n}"
    user = factories.user(name, currency="VND", timezone=TIMEZONES[n % 3], language="vi")
    today = user_today(user, now=NOW)
    later = lambda days: today + dt.timedelta(days=days)  # noqa: E731
    bank = factories.asset(user, name="VCB", kind="bank_account", balance=str(4_000_000 + 1_500_000 * (n % 4)))
    cash = factories.asset(user, name="Wallet", kind="cash", balance="300000")
    for back in range(1, 61):
        amount = 100_000 + 10_000 * (back % 5)
        row = factories.txn(user, amount=str(amount), occurred_on=later(-back), asset=bank)
        if noise and back % 4 == 0:
            # Parts in the row's own category: the plan tells essential spending (groceries) from the rest.
            parts = [{"amount": "70000", "category": "dining"}, {"amount": str(amount - 70_000), "category": "dining"}]
            transaction_split(user=user, transaction_id=row.id, parts=parts)
    series(user, merchant="Salary", kind="income", direction="income", amount="25000000", next_on=later(16))
    series(user, merchant="Rent", kind="bill", direction="expense", amount="3500000", next_on=later(5))
    shape = SHAPES[n % 3]
    if shape == "fixed bills":
        # The rent bill (housing) pays the plan's rent; the internet line has no bill: it is still to pay.
        fixed = [
            {"name": "Rent", "amount": "3500000", "category": "housing"},
            {"name": "Internet", "amount": "300000", "category": "utilities"},
        ]
        plan = plan_create(
            user=user, month=f"{today:%Y-%m}", expected_income="25000000", fixed_expenses=fixed, today=today
        )
        plan_activate(user=user, plan_id=plan.id, today=today)
    elif shape == "other currency":
        factories.rate(later(-120), "25000", source="user", owner=user)
        for back in range(1, 50, 2):
            factories.txn(user, amount="3", currency="USD", occurred_on=later(-back), asset=bank)
    if noise:
        # Yesterday's would move the plan's guide; those of days that spent nothing (61 to 90 days back) would
        # move the typical day (the median of the 90), were they counted.
        excluded = [
            factories.txn(user, amount="5000000", occurred_on=later(-b), asset=bank) for b in (1, *range(61, 76))
        ]
        Transaction.objects.filter(pk__in=[row.pk for row in excluded]).update(excluded=True)
        for back in (2, *range(76, 91)):
            out = factories.txn(user, amount="2000000", occurred_on=later(-back), asset=bank, category="other")
            moved = factories.txn(user, amount="2000000", direction="income", occurred_on=later(-back), asset=cash)
            transfer_create(user=user, out_id=out.id, in_id=moved.id)
        series(user, merchant="Savings", kind="transfer", direction="expense", amount="5000000", next_on=later(2))
    return user


def twins(count: int, first: int = 0):
    return [(ledger_user(n, noise=True), ledger_user(n, noise=False)) for n in range(first, first + count)]


def test_the_batch_reads_each_users_own_forecast_and_the_twins_alike():
    pairs = twins(6)
    users = [user for pair in pairs for user in pair]
    today_of = {user.pk: user_today(user, now=NOW) for user in users}
    kinds = set()
    for days in (None, fc.SHORTFALL_WINDOW):
        batch = cash_forecasts(users=users, today_of=today_of, days=days)
        for user in users:
            assert batch[user.pk] == cash_forecast(user=user, today=today_of[user.pk], days=days)
        for noisy, clean in pairs:
            assert batch[noisy.pk] == batch[clean.pk]
        kinds |= {e.kind for view in batch.values() for day in view.forecast.days for e in day.events}
    # Every part of the forecast was reached: the salary, the rent, the plan's internet line, the typical day.
    assert kinds == {"income", "bill", "fixed", "spending"}


def test_the_watch_reads_and_notices_as_each_users_own_forecast():
    pairs = twins(6)
    users = [user for pair in pairs for user in pair]
    today_of = {user.pk: user_today(user, now=NOW) for user in users}
    currency_of = {user.pk: "VND" for user in users}
    window = fc.SHORTFALL_WINDOW
    for cushion in ("0", "2000000"):
        for user in users:
            forecast_cushion_set(user=user, cushion=cushion)
        readings = shortfall_readings(currency_of=currency_of, today_of=today_of, days=window)
        short = set()
        for user in users:
            own = cash_forecast(user=user, today=today_of[user.pk], days=window).forecast
            lowest = fc.lowest_within(own, window)
            assert readings[user.pk].short == (lowest.balance < own.cushion)
            if readings[user.pk].short:
                assert readings[user.pk].lowest == lowest
                short.add(user.pk)
        # Some run short and some do not, twins alike.
        assert 0 < len(short) < len(users)
        assert all((noisy.pk in short) == (clean.pk in short) for noisy, clean in pairs)
    ForecastWatch.objects.update(in_shortfall=False, checked_on=None)
    sent = shortfall_watch_run(now=NOW, user_id_range=(users[0].pk, users[-1].pk))
    noticed = set(ForecastWatch.objects.filter(in_shortfall=True).values_list("user_id", flat=True))
    # 02:00 in Ho Chi Minh City: its users are not checked before the watch's hour.
    checked = {user.pk for user in users if user.profile.timezone != "Asia/Ho_Chi_Minh"}
    assert noticed == short & checked and sent == len(noticed) > 0


def test_the_watchs_queries_do_not_grow_with_its_users():
    few = [user for pair in twins(3) for user in pair]
    many = [user for pair in twins(9, first=10) for user in pair]
    for user in few + many:
        forecast_cushion_set(user=user, cushion=Decimal(2_000_000))

    def watch(users):
        return lambda: shortfall_watch_run(now=NOW, user_id_range=(users[0].pk, users[-1].pk))

    assert queries_of(watch(few)) == queries_of(watch(many))
