"""The home's one read of a user's ledger: net worth today and its trend over the last months, spending per
category this month against last month, and this month's money that counts, in one query however long the
ledger is (docs/ledger.md says what counts)."""

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import CharField, DateField, Sum, Value
from django.db.models.functions import Cast

from assets.ledger.totals import (
    PER_MONTH,
    CountedRead,
    conversion_summary,
    counted_convert,
    counted_groups_query,
    missing_summary,
)
from assets.models import OWED_KINDS, LinkedAccount, Transaction
from assets.selectors import HeldAccount, assets_of_kinds
from zeus.money import quantize


@dataclass(frozen=True)
class MonthFlow:
    month: dt.date  # the first day of the month
    income: Decimal
    expense: Decimal


@dataclass(frozen=True)
class MonthEnd:
    month: dt.date  # the first day of the month
    worth: Decimal  # net worth at its end (the current month's: today)


@dataclass(frozen=True)
class NetWorth:
    currency: str
    today: Decimal  # assets and unlinked accounts in the currency, now
    months: list[MonthFlow]  # the last `months` months, oldest first, the current one last
    trend: list[MonthEnd]  # oldest first
    other_currencies: dict[str, Decimal]  # balances held in other currencies no rate converts: not in `today`
    converted: list[dict] = field(default_factory=list)  # conversion_summary's: the balances converted


def _month_start(day: dt.date, back: int = 0) -> dt.date:
    index = day.year * 12 + day.month - 1 - back
    return dt.date(index // 12, index % 12 + 1, 1)


@dataclass(frozen=True)
class CategorySpending:
    now: Decimal  # this month so far
    before: Decimal  # last month


@dataclass(frozen=True)
class LedgerSummary:
    net_worth: NetWorth
    spending_by_category: dict[str, CategorySpending]
    rate_missing: list[dict]  # missing_summary's: what this month's and the trend's figures leave out, no rate
    converted: list[dict] = field(default_factory=list)  # conversion_summary's: this month's, converted
    # This month's money that counts, as spending_read gives it (converted groups and those with no rate named):
    # what the home's budgets read instead of a second query.
    this_month: CountedRead | None = None
    # This month's money that counts per day, first to last day (rows dated after today included), as
    # plans.selectors.plan_ledgers reads a plan's month: what the home's plan reads instead of a second query.
    month_days: CountedRead | None = None


def ledger_summary(
    *, user, currency: str, today: dt.date, months: int = 12, accounts: list[HeldAccount] | None = None
) -> LedgerSummary:
    """Net worth today and its trend, and spending per category this month against last month: one query
    however long the ledger is (`_ledger_rows`: the balances of linked accounts no asset mirrors, and the last
    `months` months of money that counts summed per month, direction and category, this month per day through
    its last day), the user's accounts (`accounts`, every kind, as assets_of_kinds gives them: read here when
    the caller has not read them; the home reads them once for this and the forecast), and one read of the
    rates when another currency appears.

    Today's net worth is the balances (assets, plus linked accounts no asset mirrors; what a card or a loan owes
    counted negative), those in other currencies converted at today's rate. Each earlier month-end is walked
    back from it with the money that counts: the end of month m is today minus the income and plus the
    spending recorded after it. A transfer between two tracked accounts moves no net worth, so it is not in
    the walk, as it is in no total. A row dated later this month is not counted yet; it is in `month_days`,
    the whole month as the month's plan reads it.
    """
    first, this_month, last_month = _month_start(today, months - 1), _month_start(today), _month_start(today, 1)
    month_last = _month_start(today, -1) - dt.timedelta(days=1)
    # The id read once: the home passes request.user, a lazy object whose every attribute read goes through
    # its proxy, and the loop below needs the id for each of the window's grouped rows.
    user_id = user.pk
    if accounts is None:
        accounts = assets_of_kinds(user_ids=[user_id])[user_id]
    balances: dict[str, Decimal] = {}
    for account in accounts:
        signed = -account.balance if account.kind in OWED_KINDS else account.balance
        balances[account.currency] = balances.get(account.currency, Decimal(0)) + signed
    flows: list[dict] = []
    for month, direction, category, row_currency, total in _ledger_rows(
        user_id=user_id, currency=currency, first=first, days_from=this_month, until=month_last
    ):
        if month is None:
            balances[row_currency] = balances.get(row_currency, Decimal(0)) + total
        else:
            flows.append(_flow(user_id, direction, category, row_currency, month, total))
    foreign = [c for c in balances if c != currency]
    flows.extend(_flow(user_id, BALANCE, "", held, today, balances[held]) for held in foreign)
    # Per day: rows in another currency keep their day, as this month's do; the months are summed below.
    read = counted_convert(flows, currency=currency, until=month_last).get(user_id) or CountedRead(currency)
    every_missing = list(zip(read.missing, read.missing_keys, strict=True))
    month_days = _month_of(read.groups, every_missing, currency, this_month)
    groups = [g for g in read.groups if g.day <= today]
    missing_keys = [(m, key) for m, key in every_missing if m.day <= today]
    income: dict[dt.date, Decimal] = defaultdict(Decimal)
    expense: dict[dt.date, Decimal] = defaultdict(Decimal)
    by_category: dict[str, list[Decimal]] = {}
    now = balances.get(currency, Decimal(0))
    for group in groups:
        start = _month_start(group.day)
        if group.direction == BALANCE:
            now += group.amount
        elif group.direction == Transaction.Direction.INCOME:
            income[start] += group.amount
        else:
            expense[start] += group.amount
            if start in (this_month, last_month):
                pair = by_category.setdefault(group.category, [Decimal(0), Decimal(0)])
                pair[0 if start == this_month else 1] += group.amount
    missing = [m for m, _key in missing_keys]
    unconverted = {m.currency: m.amount for m in missing if m.day == today and m.currency in foreign}
    now = quantize(now, currency)
    starts = [_month_start(today, back) for back in range(months - 1, -1, -1)]
    month_rows = [MonthFlow(m, quantize(income[m], currency), quantize(expense[m], currency)) for m in starts]
    trend, value = [], now
    for flow in reversed(month_rows):
        trend.append(MonthEnd(month=flow.month, worth=value))
        value = value - flow.income + flow.expense
    trend.reverse()
    worth = NetWorth(
        currency=currency,
        today=now,
        months=month_rows,
        trend=trend,
        other_currencies={c: quantize(v, c) for c, v in sorted(unconverted.items()) if v},
        converted=conversion_summary(g.conversion for g in groups if g.conversion and g.direction == BALANCE),
    )
    spending = {
        c: CategorySpending(now=quantize(a, currency), before=quantize(b, currency))
        for c, (a, b) in by_category.items()
    }
    flows_missing = [m for m in missing if not (m.day == today and m.currency in unconverted)]
    month_read = _month_of(groups, missing_keys, currency, this_month)
    return LedgerSummary(
        net_worth=worth,
        spending_by_category=spending,
        rate_missing=missing_summary(flows_missing),
        converted=conversion_summary(g.conversion for g in month_read.groups if g.conversion),
        this_month=month_read,
        month_days=month_days,
    )


BALANCE = "balance"  # a balance in another currency, converted beside the flows


def _month_of(groups: list, missing_keys: list[tuple], currency: str, first: dt.date) -> CountedRead:
    """The flows of a read (its groups and its missing, with their keys) from `first` on, balances left out."""
    read = CountedRead(currency=currency)
    read.groups = [g for g in groups if g.direction != BALANCE and g.day >= first]
    for item, key in missing_keys:
        if key[0] != BALANCE and item.day >= first:
            read.missing.append(item)
            read.missing_keys.append(key)
    return read


def _flow(user_id, direction, category, currency, day, total) -> dict:
    """A row in counted_groups_query's shape, for counted_convert."""
    keys = ("user_id", "direction", "counted_category", "currency", "day", "total")
    return dict(zip(keys, (user_id, direction, category, currency, day, total), strict=True))


LEDGER_ROW = ("month", "direction", "category", "currency", "total")


def _ledger_rows(*, user_id: int, currency: str, first: dt.date, days_from: dt.date, until: dt.date) -> list[tuple]:
    """One UNION ALL, rows of LEDGER_ROW: the balances per currency of the linked accounts no asset mirrors
    (month None), then the money that counts from `first` to `today` summed per
    direction and category, per month in `currency` before `days_from` and per day otherwise (the day a
    conversion needs, and the current month's days the plan reads), on the (user, occurred_on) index."""
    # Typed NULLs: a union's columns are matched by type.
    no_date, no_text = Cast(Value(None), DateField()), Cast(Value(None), CharField())

    unlinked = (
        LinkedAccount.objects.filter(user_id=user_id, assets__isnull=True)
        .order_by()
        .values("currency")
        .annotate(month=no_date, direction=no_text, category=no_text, total=Sum("balance"))
        .values_list(*LEDGER_ROW)
    )
    window = counted_groups_query(
        user_ids=[user_id], currency=currency, since=first, until=until, per=PER_MONTH, days_from=days_from
    ).values_list("day", "direction", "counted_category", "currency", "total")
    return list(unlinked.union(window, all=True))


def net_worth(*, user, currency: str, today: dt.date, months: int = 12) -> NetWorth:
    return ledger_summary(user=user, currency=currency, today=today, months=max(months, 2)).net_worth
