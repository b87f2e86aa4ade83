"""Which users of the nightly watch's batch may fall short, found without reading anyone's forecast: most users
of a batch have money enough, and reading their forecasts only to learn that was most of the watch's work.

A user's forecast cannot fall below the cushion within the window when its floor (fc.floor_within) does not, and
that floor cannot lie below one taken from bounds of its inputs: today's balance, every bill the series can
charge by the window's last day (fc.charges_at_most times what they add up to) and the typical day's spending
(fc.median_at_most of all the spending of the last TYPICAL_SPENDING_DAYS). Those bounds come from sums the
database makes, a row per user and currency (or kind of account), with no series listed and no day of spending
returned. A user whose forecast
holds more than these sums say (a card, an active plan, a debt they owe, spending in another currency) is
always read in full."""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, Sum, Value
from django.db.models.functions import Greatest

from assets.models import Asset, Transaction
from goals.debts.models import Debt
from plans import forecast as fc
from plans import math as pm
from plans.forecast_models import ForecastWatch
from plans.forecast_read import FORECAST_KINDS, OWED_ON_CARD, TYPICAL_SPENDING_DAYS
from plans.forecast_sources import outflows_of
from plans.models import MonthlyPlan
from zeus.money import to_minor
from zeus.queries import AnyOf


def may_fall_short(
    *,
    currency_of: dict[int, str],
    today_of: dict[int, dt.date],
    days: int,
    cushions: dict[int, Decimal] | None = None,
) -> set[int]:
    """The users (user id: their currency; user id: their today) whose forecast may fall below their cushion
    within `days` days: everyone but those the bounds clear. Five queries however many users and currencies;
    four when the caller has read the cushions already (user id: cushion as stored, none for no watch)."""
    if not currency_of:
        return set()
    lasts = {user_id: today + dt.timedelta(days=days) for user_id, today in today_of.items()}
    outflows = outflows_of(user_ids=currency_of, until=max(lasts.values()))
    sums = _sums(currency_of, today_of)
    if cushions is None:
        # The cushions apart, with the batch's ids as one array: a subquery per user would be planned from the
        # statistics of a table the watch has only just filled, and scan it once per user.
        watches = ForecastWatch.objects.filter(AnyOf("user_id", currency_of)).values_list("user_id", "cushion")
        cushions = dict(watches)
    maybe = set()
    for user_id, currency in currency_of.items():
        held = sums[user_id]
        if held.full_read:
            maybe.add(user_id)
            continue
        if held.balance is None:
            continue  # no account to forecast
        # Each sum is rounded once where each amount was rounded on its own: one minor unit more per amount.
        start = to_minor(held.balance, currency) - held.accounts
        bills = sum(
            (to_minor(o.total, currency) + o.count)
            * fc.charges_at_most(first_on=o.first_on, interval=o.interval, last=lasts[user_id])
            for o in outflows[user_id]
            if o.currency == currency
        )
        spent = to_minor(held.spent, currency) + TYPICAL_SPENDING_DAYS
        floor = fc.floor_within(
            today=today_of[user_id],
            start_balance=start,
            days=days,
            events=[fc.Event(today_of[user_id], "bill", "", -bills)],
            daily_spending=fc.median_at_most(total=spent, count=TYPICAL_SPENDING_DAYS),
        )
        if floor < to_minor(cushions.get(user_id, 0), currency):
            maybe.add(user_id)
    return maybe


@dataclass
class _Sums:
    """One user's bounds in their currency: the balance of their spendable accounts (None without one) and how
    many there are, their spending (parts below zero left out), and whether their forecast needs a full read."""

    balance: Decimal | None = None
    accounts: int = 0
    spent: Decimal = Decimal(0)
    full_read: bool = False


def _sums(currency_of: dict[int, str], today_of: dict[int, dt.date]) -> dict[int, _Sums]:
    """Each user's _Sums: their accounts in their currency, all their spending in it over a span holding every
    user's TYPICAL_SPENDING_DAYS, and whether their forecast needs a full read. One grouped read per table
    (the accounts, the spending, then the plans and debts as one union), each a row per user and currency or
    kind however many currencies the batch holds: a subquery per user would scan each user's rows once per
    figure, where a grouped read scans them once for all."""
    ids = list(currency_of)
    sums = {user_id: _Sums() for user_id in ids}
    held = (
        Asset.objects.filter(AnyOf("user_id", ids), kind__in=FORECAST_KINDS)
        .values_list("user_id", "currency", "kind")
        .annotate(total=Sum("balance"), n=Count("id"))
        .order_by()
    )
    for user_id, currency, kind, total, n in held:
        if currency != currency_of[user_id]:
            continue
        mine = sums[user_id]
        if kind in OWED_ON_CARD:
            mine.full_read = True
        else:
            mine.balance = total if mine.balance is None else mine.balance + total
            mine.accounts += n
    since = min(today_of.values()) - dt.timedelta(days=TYPICAL_SPENDING_DAYS)
    until = max(today_of.values()) - dt.timedelta(days=1)
    spending = (
        Transaction.objects.counted()
        .filter(AnyOf("user_id", ids), direction=Transaction.Direction.EXPENSE)
        .filter(occurred_on__gte=since, occurred_on__lte=until)
        .values_list("user_id", "currency")
        # A part below zero could only lower a day's total: the bound counts none.
        .annotate(total=Sum(Greatest("counted_amount", Value(Decimal(0)))))
        .order_by()
    )
    for user_id, currency, total in spending:
        if currency == currency_of[user_id]:
            sums[user_id].spent = total
        else:
            sums[user_id].full_read = True  # spending in another currency: converted by the full read
    months = {pm.month_first(today) for today in today_of.values()}
    planned = MonthlyPlan.objects.filter(AnyOf("user_id", ids), month__in=months, status=MonthlyPlan.Status.ACTIVE)
    owing = Debt.objects.filter(AnyOf("user_id", ids), status=Debt.Status.OPEN, direction=Debt.Direction.I_OWE)
    for (user_id,) in planned.order_by().values_list("user_id").union(owing.order_by().values_list("user_id")):
        sums[user_id].full_read = True
    return sums
