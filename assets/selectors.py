"""Reads of the ledger, always scoped to one user."""

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.postgres.lookups import Unaccent
from django.db.models import CharField, Count, DateField, F, Q, QuerySet, Sum, Value
from django.db.models.functions import Cast, TruncMonth

from assets import categories
from assets.models import Asset, LinkedAccount, Source, Transaction
from assets.rules.text import fold
from zeus.errors import NotFound, ValidationFailed
from zeus.money import quantize
from zeus.timeutil import parse_date


def asset_list(*, user, source: str | None = None) -> QuerySet[Asset]:
    qs = Asset.objects.filter(user=user)
    if source and source != "all":
        if source not in Source.values:
            raise ValidationFailed("source must be manual, synced or all.", fields={"source": ["Not a source."]})
        qs = qs.filter(source=source)
    return qs


def asset_get(*, user, asset_id) -> Asset:
    try:
        return Asset.objects.get(user=user, id=int(asset_id))
    except (Asset.DoesNotExist, TypeError, ValueError):
        raise NotFound("No such asset.") from None


def linked_account_list(*, user) -> QuerySet[LinkedAccount]:
    return LinkedAccount.objects.filter(user=user)


def transaction_list(*, user, **filters) -> QuerySet[Transaction]:
    """Newest first, filtered by transaction_filters' arguments; every filter is validated: a malformed one is
    a ValidationFailed, never a 500."""
    return transactions_matching(user=user, lookups=transaction_filters(user=user, **filters))


def transaction_filters(
    *,
    user,
    since: dt.date | str | None = None,
    until: dt.date | str | None = None,
    category: str | None = None,
    direction: str | None = None,
    source: str | None = None,
    asset_id=None,
) -> dict:
    """transaction_list's filters, validated, as lookups on Transaction beside the user; what is not given is
    left out."""

    lookups = {}
    if since:
        lookups["occurred_on__gte"] = parse_date(since, "since")
    if until:
        lookups["occurred_on__lte"] = parse_date(until, "until")
    if category:
        if category not in categories.ALL:
            raise ValidationFailed(f"Unknown category {category!r}.", fields={"category": ["Not a category."]})
        lookups["category"] = category
    if direction:
        if direction not in Transaction.Direction.values:
            raise ValidationFailed("direction must be expense or income.", fields={"direction": ["Not valid."]})
        lookups["direction"] = direction
    if source and source != "all":
        if source not in Source.values:
            raise ValidationFailed("source must be manual, synced or all.", fields={"source": ["Not a source."]})
        lookups["source"] = source
    if asset_id not in (None, ""):
        try:
            asset_id = int(asset_id)
        except (TypeError, ValueError):
            raise ValidationFailed("asset must be an id.", fields={"asset": ["Not an id."]}) from None
        # Another user's asset is a 404 here as everywhere, not an empty list that confirms nothing.
        if not Asset.objects.filter(user=user, id=asset_id).exists():
            raise NotFound("No such asset.", fields={"asset": ["No such asset."]})
        lookups["asset_id"] = asset_id
    return lookups


def transactions_matching(*, user, lookups: dict) -> QuerySet[Transaction]:
    """The user's transactions that match transaction_filters' lookups, newest first."""
    return Transaction.objects.filter(user=user, **lookups).order_by("-occurred_on", "-id")


def transaction_get(*, user, transaction_id) -> Transaction:
    try:
        return Transaction.objects.select_related("asset").get(user=user, id=int(transaction_id))
    except (Transaction.DoesNotExist, TypeError, ValueError):
        raise NotFound("No such transaction.") from None


def expense_totals_by_category(*, user, currency: str, since: dt.date, until: dt.date) -> dict[str, Decimal]:
    """Expense totals per category in one currency over [since, until], summed in the database."""
    rows = (
        Transaction.objects.filter(
            user=user,
            currency=currency,
            direction=Transaction.Direction.EXPENSE,
            occurred_on__gte=since,
            occurred_on__lte=until,
        )
        .values("category")
        .annotate(total=Sum("amount"))
    )
    return {row["category"]: row["total"] for row in rows}


def _expenses(user_id: int, since: dt.date, until: dt.date, currency: str) -> QuerySet[Transaction]:
    return Transaction.objects.filter(
        user_id=user_id,
        currency=currency,
        direction=Transaction.Direction.EXPENSE,
        occurred_on__gte=since,
        occurred_on__lte=until,
    )


def expense_totals_per_category_query(*, user_id: int, currency: str, month: dt.date, month_last: dt.date) -> QuerySet:
    """The user's expenses in `currency` in a month (`month` its first day, `month_last` its last) summed per
    category, as rows (`label`: the category, `day`: NULL, `value`: the sum), for a caller that unions them
    with rows of its own (a plan's month, plans.selectors)."""
    return (
        _expenses(user_id, month, month_last, currency)
        .values(label=F("category"), day=Value(None, output_field=DateField()))
        .annotate(value=Sum("amount"))
        .order_by()
    )


def expense_totals_per_day_query(
    *,
    user_id: int,
    currency: str,
    since: dt.date,
    until: dt.date,
    category_in: Iterable[str],
    category_not_in: QuerySet,
) -> QuerySet:
    """The user's expenses in `currency` from `since` through `until` summed per day, over the categories in
    `category_in` and not among `category_not_in`'s (a queryset of one column of categories), as rows of
    expense_totals_per_category_query's shape (`label`: empty, `day`: the day, `value`: the sum)."""
    return (
        _expenses(user_id, since, until, currency)
        .filter(category__in=list(category_in))
        .exclude(category__in=category_not_in)
        .values(label=Value(""), day=F("occurred_on"))
        .annotate(value=Sum("amount"))
        .order_by()
    )


def expense_totals_by_day(
    *, user, currency: str, since: dt.date, until: dt.date, category_in=None
) -> dict[dt.date, Decimal]:
    qs = Transaction.objects.filter(
        user=user,
        currency=currency,
        direction=Transaction.Direction.EXPENSE,
        occurred_on__gte=since,
        occurred_on__lte=until,
    )
    if category_in is not None:
        qs = qs.filter(category__in=list(category_in))
    rows = qs.values("occurred_on").annotate(total=Sum("amount"))
    return {row["occurred_on"]: row["total"] for row in rows}


def transaction_search(*, user, text: str = "", **filters) -> QuerySet[Transaction]:
    """`transaction_list` plus a text search in the description, newest first. Case and diacritics do not
    matter ("pho" finds "Phở"): the description through PostgreSQL's unaccent, the words folded as the rules
    fold them."""
    qs = transaction_list(user=user, **filters)
    text = fold(text)
    if text:
        qs = qs.alias(plain_description=Unaccent("description")).filter(plain_description__icontains=text)
    return qs


@dataclass(frozen=True)
class Page:
    rows: list
    next_after: tuple[dt.date, int] | None  # the keyset of the last row when older rows remain


def transaction_page(qs: QuerySet[Transaction], *, after: tuple[dt.date, int] | None, size: int) -> Page:
    """One page of a newest-first ledger query, after a keyset (date, id): constant cost however deep the page,
    where an OFFSET would read every row before it (the index is (user, -occurred_on, -id))."""
    if after is not None:
        day, row_id = after
        qs = qs.filter(Q(occurred_on__lt=day) | Q(occurred_on=day, id__lt=row_id))
    rows = list(qs.order_by("-occurred_on", "-id")[: size + 1])
    more = len(rows) > size
    rows = rows[:size]
    return Page(rows=rows, next_after=(rows[-1].occurred_on, rows[-1].id) if more and rows else None)


@dataclass(frozen=True)
class Totals:
    currency: str
    income: Decimal
    expense: Decimal
    count: int

    @property
    def net(self) -> Decimal:
        return self.income - self.expense


def transaction_totals(qs: QuerySet[Transaction]) -> list[Totals]:
    """Income, spending and count of a ledger query, per currency, in one aggregate query."""
    rows = (
        qs.order_by()
        .values("currency")
        .annotate(
            income=Sum("amount", filter=Q(direction=Transaction.Direction.INCOME), default=Decimal(0)),
            expense=Sum("amount", filter=Q(direction=Transaction.Direction.EXPENSE), default=Decimal(0)),
            count=Count("id"),
        )
        .order_by("currency")
    )
    return [
        Totals(r["currency"], quantize(r["income"], r["currency"]), quantize(r["expense"], r["currency"]), r["count"])
        for r in rows
    ]


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
    other_currencies: dict[str, Decimal]  # balances held in other currencies, not converted


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


def ledger_summary(*, user, currency: str, today: dt.date, months: int = 12) -> LedgerSummary:
    """Net worth today and its trend, and spending per category this month against last month: one query
    however long the ledger is (`_ledger_rows`: the balances, and the last `months` months summed per month,
    direction and category).

    Today's net worth is the balances (assets, plus linked accounts no asset mirrors). Each earlier month-end
    is walked back from it with the ledger: the end of month m is today minus the income and plus the spending
    recorded after it.
    """
    first, this_month, last_month = _month_start(today, months - 1), _month_start(today), _month_start(today, 1)
    balances: dict[str, Decimal] = {}
    income: dict[dt.date, Decimal] = {}
    expense: dict[dt.date, Decimal] = {}
    by_category: dict[str, list[Decimal]] = {}
    rows = _ledger_rows(user=user, currency=currency, first=first, today=today)
    for month, direction, category, row_currency, total in rows:
        if month is None:
            balances[row_currency] = balances.get(row_currency, Decimal(0)) + total
        elif direction == Transaction.Direction.INCOME:
            income[month] = income.get(month, Decimal(0)) + total
        else:
            expense[month] = expense.get(month, Decimal(0)) + total
            if month in (this_month, last_month):
                pair = by_category.setdefault(category, [Decimal(0), Decimal(0)])
                pair[0 if month == this_month else 1] += total
    now = quantize(balances.pop(currency, Decimal(0)), currency)
    month_rows = [
        MonthFlow(
            month=start,
            income=quantize(income.get(start, Decimal(0)), currency),
            expense=quantize(expense.get(start, Decimal(0)), currency),
        )
        for start in (_month_start(today, back) for back in range(months - 1, -1, -1))
    ]
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
        other_currencies={c: quantize(v, c) for c, v in sorted(balances.items()) if v},
    )
    spending = {
        c: CategorySpending(now=quantize(a, currency), before=quantize(b, currency))
        for c, (a, b) in by_category.items()
    }
    return LedgerSummary(net_worth=worth, spending_by_category=spending)


LEDGER_ROW = ("month", "direction", "category", "currency", "total")


def _ledger_rows(*, user, currency: str, first: dt.date, today: dt.date) -> list[tuple]:
    """One UNION ALL, rows of LEDGER_ROW: the balances per currency (month None: assets, and linked accounts no
    asset mirrors), then the ledger in `currency` from `first` to `today` summed per month, direction and
    category, on the (user, occurred_on) index: a row dated later this month is not counted yet."""
    # Typed NULLs: a union's columns are matched by type.
    no_date, no_text = Cast(Value(None), DateField()), Cast(Value(None), CharField())

    def balances(qs):
        return (
            qs.order_by()
            .values("currency")
            .annotate(month=no_date, direction=no_text, category=no_text, total=Sum("balance"))
            .values_list(*LEDGER_ROW)
        )

    assets = balances(Asset.objects.filter(user=user))
    unlinked = balances(LinkedAccount.objects.filter(user=user, assets__isnull=True))
    window = (
        Transaction.objects.filter(user=user, currency=currency, occurred_on__gte=first, occurred_on__lte=today)
        .order_by()
        .annotate(month=Cast(TruncMonth("occurred_on"), DateField()))  # a date, as the other parts' months
        .values("month", "direction", "category", "currency")
        .annotate(total=Sum("amount"))
        .values_list(*LEDGER_ROW)
    )
    return list(assets.union(unlinked, window, all=True))


def net_worth(*, user, currency: str, today: dt.date, months: int = 12) -> NetWorth:
    return ledger_summary(user=user, currency=currency, today=today, months=max(months, 2)).net_worth
