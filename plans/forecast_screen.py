"""Which users of the nightly watch's batch may fall short, found without reading anyone's forecast: most users
of a batch have money enough, and reading their forecasts only to learn that was most of the watch's work.

A user's forecast cannot fall below the cushion within the window when its floor (fc.floor_within) does not, and
that floor cannot lie below one taken from bounds of its inputs: today's balance, every bill the series can
charge by the window's last day (fc.charges_at_most times what they add up to) and the typical day's spending
(fc.median_at_most of all the spending of the last TYPICAL_SPENDING_DAYS). Those bounds come from sums the
database makes, a row per user, with no series listed and no day of spending returned. A user whose forecast
holds more than these sums say (a card, an active plan, a debt they owe, spending in another currency) is
always read in full."""

import datetime as dt
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Greatest

from assets.models import Asset, Transaction
from goals.debts.models import Debt
from plans import forecast as fc
from plans import math as pm
from plans.forecast_models import ForecastWatch
from plans.forecast_read import OWED_ON_CARD, SPENDABLE, TYPICAL_SPENDING_DAYS
from plans.forecast_sources import outflows_of
from plans.models import MonthlyPlan
from zeus.money import to_minor
from zeus.queries import AnyOf


def may_fall_short(*, currency_of: dict[int, str], today_of: dict[int, dt.date], days: int) -> set[int]:
    """The users (user id: their currency; user id: their today) whose forecast may fall below their cushion
    within `days` days: everyone but those the bounds clear. Three queries however many users (one more per
    further currency)."""
    if not currency_of:
        return set()
    lasts = {user_id: today + dt.timedelta(days=days) for user_id, today in today_of.items()}
    outflows = outflows_of(user_ids=currency_of, until=max(lasts.values()))
    by_currency: dict[str, list[int]] = {}
    for user_id, currency in currency_of.items():
        by_currency.setdefault(currency, []).append(user_id)
    rows = [(currency, row) for currency, ids in by_currency.items() for row in _sums(currency, ids, today_of)]
    maybe = set()
    # The cushions apart, with the batch's ids as one array: a subquery per user would be planned from the
    # statistics of a table the watch has only just filled, and scan it once per user.
    watches = ForecastWatch.objects.filter(AnyOf("user_id", currency_of)).values_list("user_id", "cushion")
    cushions = dict(watches)
    for currency, (user_id, balance, accounts, spent, full_read) in rows:
        if full_read:
            maybe.add(user_id)
            continue
        if balance is None:
            continue  # no account to forecast
        # Each sum is rounded once where each amount was rounded on its own: one minor unit more per amount.
        start = to_minor(balance, currency) - accounts
        bills = sum(
            (to_minor(o.total, currency) + o.count)
            * fc.charges_at_most(first_on=o.first_on, interval=o.interval, last=lasts[user_id])
            for o in outflows[user_id]
            if o.currency == currency
        )
        spent = to_minor(spent or 0, currency) + TYPICAL_SPENDING_DAYS
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


def _sums(currency: str, user_ids: list[int], today_of: dict[int, dt.date]):
    """A row per user of `currency`: the balance of their spendable accounts in it and how many there are, all
    their spending in it over a span holding every user's TYPICAL_SPENDING_DAYS, and whether
    their forecast needs a full read. A query per currency (a batch has one or two): the currency is then a
    constant of the statement, not a case per row."""
    since = min(today_of.values()) - dt.timedelta(days=TYPICAL_SPENDING_DAYS)
    until = max(today_of.values()) - dt.timedelta(days=1)
    mine = {"user_id": OuterRef("pk"), "currency": currency}
    spendable = Asset.objects.filter(kind__in=SPENDABLE, **mine).order_by().values("user_id")
    spending = (
        Transaction.objects.counted()
        .filter(user_id=OuterRef("pk"), direction=Transaction.Direction.EXPENSE)
        .filter(occurred_on__gte=since, occurred_on__lte=until)
    )
    months = {pm.month_first(today) for today in today_of.values()}
    full_read = (
        Exists(Asset.objects.filter(kind__in=OWED_ON_CARD, **mine))
        | Exists(MonthlyPlan.objects.filter(user_id=OuterRef("pk"), month__in=months, status=MonthlyPlan.Status.ACTIVE))
        | Exists(Debt.objects.filter(user_id=OuterRef("pk"), status=Debt.Status.OPEN, direction=Debt.Direction.I_OWE))
        | Exists(spending.exclude(currency=currency))
    )
    return (
        get_user_model()
        .objects.filter(AnyOf("pk", user_ids))
        .annotate(
            balance=Subquery(spendable.annotate(total=Sum("balance")).values("total")),
            accounts=Subquery(spendable.annotate(n=Count("id")).values("n")),
            # A part below zero could only lower a day's total: the bound counts none.
            spent=Subquery(
                spending.filter(currency=currency)
                .order_by()
                .values("user_id")
                .annotate(total=Sum(Greatest("counted_amount", Value(Decimal(0)))))
                .values("total")
            ),
            full_read=full_read,
        )
        .values_list("pk", "balance", "accounts", "spent", "full_read")
    )
