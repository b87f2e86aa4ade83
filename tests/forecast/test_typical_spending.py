"""The forecast's typical day's spending (plans.forecast_read, summed per day in the database) is the plain
median of the 90 days before today, the days that spent nothing counted as 0: transfers, excluded rows, income
and days outside the 90 left out, spending in another currency converted, each day rounded to whole minor units
(halves up), an even count's middle pair averaged and rounded down."""

import datetime as dt
import math
import statistics
from decimal import ROUND_HALF_UP, Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from assets.ledger.totals import DaysSpent, counted_days_spent
from assets.ledger.transfers import transfer_create
from assets.models import Transaction
from plans.forecast_read import cash_forecast, cash_forecasts
from tests import factories

pytestmark = pytest.mark.django_db

TODAY = dt.date(2026, 12, 4)


def back(days: int) -> dt.date:
    return TODAY - dt.timedelta(days=days)


def typical(view) -> int:
    """The everyday spending the forecast takes on its first day."""
    return -sum(e.amount for e in view.forecast.days[1].events if e.kind == "spending")


def hand_median(day_totals: dict[int, Decimal], places: int = 0) -> int:
    minor = [int((total * 10**places).quantize(Decimal(1), rounding=ROUND_HALF_UP)) for total in day_totals.values()]
    return math.floor(statistics.median(minor + [0] * (90 - len(minor))))


def noise(user, bank, cash):
    """Rows that are not spending of the 90 days: a transfer, an excluded row, income, today and day 91."""
    out = factories.txn(user, amount="9000000", occurred_on=back(3), asset=bank)
    inc = factories.txn(user, amount="9000000", direction="income", occurred_on=back(3), asset=cash)
    transfer_create(user=user, out_id=out.id, in_id=inc.id)
    excluded = factories.txn(user, amount="8000000", occurred_on=back(4), asset=bank)
    Transaction.objects.filter(pk=excluded.pk).update(excluded=True)
    factories.txn(user, amount="7000000", direction="income", occurred_on=back(5), asset=bank)
    factories.txn(user, amount="6000000", occurred_on=TODAY, asset=bank)
    factories.txn(user, amount="6000000", occurred_on=back(91), asset=bank)


def spender(name: str, spending_days: int, *, currency="VND", foreign=False):
    """A user who spent on `spending_days` of the 90 days (two rows on some days, a half unit on others), and
    their spending per day as the hand sees it."""
    user = factories.user(name, currency=currency)
    bank = factories.asset(user, name="Bank", kind="bank_account", balance="900000000", currency=currency)
    cash = factories.asset(user, name="Cash", kind="cash", balance="1000", currency=currency)
    noise(user, bank, cash)
    unit = Decimal("0.01") if currency == "USD" else Decimal(1)
    totals: dict[int, Decimal] = {}
    for n in range(spending_days):
        day = 1 + (n * 7) % 90 if spending_days < 90 else n + 1
        amount = Decimal(10_000 + 1_000 * (n % 13)) * unit + unit / 2 * (n % 3)
        factories.txn(user, amount=str(amount), occurred_on=back(day), asset=bank)
        totals[day] = totals.get(day, Decimal(0)) + amount
        if n % 4 == 0:
            factories.txn(user, amount=str(3 * unit * 1_000 + 1), occurred_on=back(day), asset=bank)
            totals[day] += 3 * unit * 1_000 + 1
    if foreign:
        factories.rate(back(120), "25000")
        factories.txn(user, amount="3", currency="USD", occurred_on=back(2), asset=bank)
        totals[2] = totals.get(2, Decimal(0)) + 3 * 25_000
    return user, totals


@pytest.mark.parametrize("spending_days", [20, 44, 45, 46, 47, 70, 90])
def test_the_typical_day_is_the_plain_median_of_the_90_days(spending_days):
    user, totals = spender("spender", spending_days)
    assert typical(cash_forecast(user=user, today=TODAY)) == hand_median(totals)


def test_the_typical_day_rounds_each_day_to_the_currencys_minor_unit():
    user, totals = spender("dollars", 60, currency="USD")
    assert typical(cash_forecast(user=user, today=TODAY)) == hand_median(totals, places=2)


def test_spending_in_another_currency_is_converted_as_it_is_elsewhere():
    user, totals = spender("traveller", 50, foreign=True)
    assert typical(cash_forecast(user=user, today=TODAY)) == hand_median(totals)


def test_the_batch_gives_each_user_the_median_of_their_own_days():
    few, few_totals = spender("few", 30)
    many, many_totals = spender("many", 60)
    abroad, abroad_totals = spender("abroad", 48, foreign=True)
    dollars, dollar_totals = spender("cents", 55, currency="USD")
    views = cash_forecasts(
        users=[few, many, abroad, dollars], today_of=dict.fromkeys([few.pk, many.pk, abroad.pk, dollars.pk], TODAY)
    )
    assert typical(views[few.pk]) == hand_median(few_totals) == 0
    assert typical(views[many.pk]) == hand_median(many_totals) > 0
    assert typical(views[abroad.pk]) == hand_median(abroad_totals) > 0
    assert typical(views[dollars.pk]) == hand_median(dollar_totals, places=2) > 0


def test_the_days_are_read_per_user_over_their_own_span_in_one_query():
    """assets.ledger.totals.counted_days_spent gives each user the rounded totals of the days of their own span
    only (users in different timezones have different todays), in their own currency, and flags spending in
    another: one query for the batch."""
    vnd, vnd_totals = spender("many", 60)
    usd, usd_totals = spender("cents", 55, currency="USD")
    abroad, _totals = spender("abroad", 48, foreign=True)
    nobody = factories.user("nobody")
    spans = {
        vnd.pk: ("VND", back(90), back(1)),
        usd.pk: ("USD", back(89), TODAY),  # a day later: today's 6,000,000 in, day 90's row out
        abroad.pk: ("VND", back(90), back(1)),
        nobody.pk: ("VND", back(90), back(1)),
    }
    with CaptureQueriesContext(connection) as seen:
        days = counted_days_spent(spans=spans)
    assert len(seen) == 1
    assert sorted(days[vnd.pk].days) == sorted(hand_days(vnd_totals)) and not days[vnd.pk].foreign
    usd_days = {day: total for day, total in usd_totals.items() if day < 90}
    usd_days[0] = Decimal("6000000")
    assert sorted(days[usd.pk].days) == sorted(hand_days(usd_days, places=2)) and not days[usd.pk].foreign
    assert days[abroad.pk].foreign
    assert days[nobody.pk] == DaysSpent(days=[], foreign=False)


def hand_days(day_totals: dict[int, Decimal], places: int = 0) -> list[int]:
    return [int((total * 10**places).quantize(Decimal(1), rounding=ROUND_HALF_UP)) for total in day_totals.values()]


def test_the_days_and_the_other_currency_come_from_one_pass_over_each_users_rows():
    """counted_days_spent reads the transactions once: the days and whether another currency was spent come from
    the same grouped read, where a separate EXISTS over the table was planned as a scan of all of it per batch."""
    abroad, _totals = spender("abroad", 48, foreign=True)
    vnd, _vnd_totals = spender("many", 60)
    spans = {abroad.pk: ("VND", back(90), back(1)), vnd.pk: ("VND", back(90), back(1))}
    with CaptureQueriesContext(connection) as seen:
        days = counted_days_spent(spans=spans)
    assert seen.captured_queries[0]["sql"].count('FROM "assets_transaction"') == 1
    assert days[abroad.pk] == DaysSpent(days=[], foreign=True)
    assert len(days[vnd.pk].days) == 60 and not days[vnd.pk].foreign
