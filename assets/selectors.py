"""Reads of the ledger, always scoped to one user."""

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.postgres.aggregates import ArrayAgg
from django.db import connection
from django.db.models import Count, DateField, F, Min, Q, QuerySet, Sum, Window
from django.db.models.functions import Cast, Lag, RowNumber, TruncMonth

from assets.models import Asset, LinkedAccount, Source, Transaction
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


def transaction_list(
    *,
    user,
    since: dt.date | str | None = None,
    until: dt.date | str | None = None,
    category: str | None = None,
    direction: str | None = None,
    source: str | None = None,
    asset_id=None,
) -> QuerySet[Transaction]:
    """Newest first. Every filter is validated: a malformed one is a ValidationFailed, never a 500."""
    from assets import categories

    qs = Transaction.objects.filter(user=user)
    if since:
        qs = qs.filter(occurred_on__gte=parse_date(since, "since"))
    if until:
        qs = qs.filter(occurred_on__lte=parse_date(until, "until"))
    if category:
        if category not in categories.ALL:
            raise ValidationFailed(f"Unknown category {category!r}.", fields={"category": ["Not a category."]})
        qs = qs.filter(category=category)
    if direction:
        if direction not in Transaction.Direction.values:
            raise ValidationFailed("direction must be expense or income.", fields={"direction": ["Not valid."]})
        qs = qs.filter(direction=direction)
    if source and source != "all":
        if source not in Source.values:
            raise ValidationFailed("source must be manual, synced or all.", fields={"source": ["Not a source."]})
        qs = qs.filter(source=source)
    if asset_id not in (None, ""):
        try:
            asset_id = int(asset_id)
        except (TypeError, ValueError):
            raise ValidationFailed("asset must be an id.", fields={"asset": ["Not an id."]}) from None
        # Another user's asset is a 404 here as everywhere, not an empty list that confirms nothing.
        if not Asset.objects.filter(user=user, id=asset_id).exists():
            raise NotFound("No such asset.", fields={"asset": ["No such asset."]})
        qs = qs.filter(asset_id=asset_id)
    return qs.order_by("-occurred_on", "-id")


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


def expense_totals_by_category_and_day(
    *, user_ids: Iterable[int], since: dt.date, until: dt.date, currency: str | None = None
) -> list[dict]:
    """Expense totals per (user, currency, category, day) over [since, until], summed in the database: one
    query for any number of users. Rows are dicts with user_id, currency, category, occurred_on and total.

    The plan ledgers read a month this way, one plan or a job batch of thousands at once: one aggregate gives
    both the per-category and the per-day figures, which the plan's categories split.
    """
    return list(expense_totals_query(user_ids=user_ids, since=since, until=until, currency=currency))


def expense_totals_query(
    *, user_ids: Iterable[int], since: dt.date, until: dt.date, currency: str | None = None
) -> QuerySet:
    """The queryset behind expense_totals_by_category_and_day, for a caller that compiles it once
    (zeus/prepared.py)."""
    qs = Transaction.objects.filter(
        user_id__in=list(user_ids),
        direction=Transaction.Direction.EXPENSE,
        occurred_on__gte=since,
        occurred_on__lte=until,
    )
    if currency is not None:
        qs = qs.filter(currency=currency)
    return qs.values("user_id", "currency", "category", "occurred_on").annotate(total=Sum("amount")).order_by()


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
    """`transaction_list` plus a text search in the description (case folded), newest first."""
    qs = transaction_list(user=user, **filters)
    text = " ".join((text or "").split())
    if text:
        qs = qs.filter(description__icontains=text)
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
class NetWorth:
    currency: str
    today: Decimal  # assets and unlinked accounts in the currency, now
    months: list[MonthFlow]  # the last `months` months, oldest first, the current one last
    trend: list[tuple[dt.date, Decimal]]  # net worth at the end of each month (the current one: today)
    other_currencies: dict[str, Decimal]  # balances held in other currencies, not converted


def _month_start(day: dt.date, back: int = 0) -> dt.date:
    index = day.year * 12 + day.month - 1 - back
    return dt.date(index // 12, index % 12 + 1, 1)


@dataclass(frozen=True)
class LedgerSummary:
    net_worth: NetWorth
    spending_by_category: dict[str, tuple[Decimal, Decimal]]  # category -> (this month so far, last month)


def ledger_summary(*, user, currency: str, today: dt.date, months: int = 12) -> LedgerSummary:
    """Net worth today and its trend, and spending per category this month against last month: two queries
    however long the ledger is (the balances; the last `months` months grouped by month, direction and
    category, read through the (user, date) index).

    Today's net worth is the balances (assets, plus linked accounts no asset mirrors). Each earlier month-end
    is walked back from it with the ledger: the end of month m is today minus the income and plus the spending
    recorded after it.
    """
    assets = Asset.objects.filter(user=user).order_by().values("currency").annotate(total=Sum("balance"))
    unlinked = (
        LinkedAccount.objects.filter(user=user, assets__isnull=True)
        .order_by()
        .values("currency")
        .annotate(total=Sum("balance"))
    )
    balances: dict[str, Decimal] = {}
    for row in assets.union(unlinked, all=True):
        balances[row["currency"]] = balances.get(row["currency"], Decimal(0)) + row["total"]
    now = quantize(balances.pop(currency, Decimal(0)), currency)

    first = _month_start(today, months - 1)
    rows = (
        Transaction.objects.filter(user=user, currency=currency, occurred_on__gte=first, occurred_on__lte=today)
        .annotate(month=TruncMonth("occurred_on"))
        .values("month", "direction", "category")
        .annotate(total=Sum("amount"))
        .order_by()
    )
    income: dict[dt.date, Decimal] = {}
    expense: dict[dt.date, Decimal] = {}
    this_month, last_month = _month_start(today), _month_start(today, 1)
    by_category: dict[str, list[Decimal]] = {}
    for row in rows:
        month, total = row["month"], row["total"]
        if row["direction"] == Transaction.Direction.INCOME:
            income[month] = income.get(month, Decimal(0)) + total
            continue
        expense[month] = expense.get(month, Decimal(0)) + total
        if month in (this_month, last_month):
            pair = by_category.setdefault(row["category"], [Decimal(0), Decimal(0)])
            pair[0 if month == this_month else 1] += total
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
        trend.append((flow.month, value))
        value = value - flow.income + flow.expense
    trend.reverse()
    worth = NetWorth(
        currency=currency,
        today=now,
        months=month_rows,
        trend=trend,
        other_currencies={c: quantize(v, c) for c, v in sorted(balances.items()) if v},
    )
    spending = {c: (quantize(a, currency), quantize(b, currency)) for c, (a, b) in by_category.items()}
    return LedgerSummary(net_worth=worth, spending_by_category=spending)


def net_worth(*, user, currency: str, today: dt.date, months: int = 12) -> NetWorth:
    return ledger_summary(user=user, currency=currency, today=today, months=max(months, 2)).net_worth


# Batch reads for the nightly jobs of the apps above (insights, duplicates): one query over many users each,
# never one per user. They return plain tuples; the callers give them their own shapes.

TRANSACTION_ROW = ("id", "user_id", "direction", "currency", "amount", "description", "occurred_on")


def expense_weekly_totals(*, user_ids: list[int], today: dt.date, windows: int) -> list[tuple]:
    """Expense totals per user, currency and category for each of `windows` 7-day windows ending `today`
    (w0: the 7 days ending today; wk: ending 7k days before), plus since the first of today's month and the
    first day seen: one GROUP BY with a filtered SUM per window, the same SQL on PostgreSQL and SQLite.
    Rows: (user_id, currency, category, month_to_date, first_on, w0, ..., w{windows-1})."""
    since = today - dt.timedelta(days=7 * windows - 1)

    def window(k: int) -> Sum:
        end = today - dt.timedelta(days=7 * k)
        return Sum("amount", filter=Q(occurred_on__gte=end - dt.timedelta(days=6), occurred_on__lte=end))

    return list(
        Transaction.objects.filter(
            user_id__in=user_ids,
            direction=Transaction.Direction.EXPENSE,
            occurred_on__gte=since,
            occurred_on__lte=today,
        )
        .values("user_id", "currency", "category")
        .annotate(
            month_to_date=Sum("amount", filter=Q(occurred_on__gte=today.replace(day=1))),
            first_on=Min("occurred_on"),
            **{f"w{k}": window(k) for k in range(windows)},
        )
        .order_by()
        .values_list("user_id", "currency", "category", "month_to_date", "first_on", *[f"w{k}" for k in range(windows)])
    )


def _window_rows(user_ids, since: dt.date, until: dt.date) -> QuerySet[Transaction]:
    return Transaction.objects.filter(
        user_id__in=list(user_ids), occurred_on__gte=since, occurred_on__lte=until
    ).order_by()


def transaction_close_repeats(*, user_ids, since: dt.date, until: dt.date) -> set[tuple[int, Decimal]]:
    """(user, amount) pairs with two rows at most a day apart in [since, until]: LAG over the (user, amount)
    partition, filtered in the database, so only the candidates come back. The partition leaves direction
    and currency out (numbers sort much faster than collated text); callers check them on the few rows."""
    day = dt.timedelta(days=1)
    rows = (
        _window_rows(user_ids, since, until)
        .annotate(
            prev_on=Window(
                Lag("occurred_on"),
                partition_by=[F("user_id"), F("amount")],
                order_by=F("occurred_on").asc(),
            )
        )
        .annotate(close_until=Cast(F("prev_on") + day, DateField()))
        .filter(close_until__gte=F("occurred_on"))
        .values_list("user_id", "amount")
    )
    return set(rows)


def transaction_rows(*, user_ids, since: dt.date, until: dt.date, amounts=None) -> list[tuple]:
    """The rows of these users in [since, until] (only those amounts, if given), as TRANSACTION_ROW tuples."""
    qs = _window_rows(user_ids, since, until)
    if amounts is not None:
        qs = qs.filter(amount__in=list(amounts))
    return list(qs.values_list(*TRANSACTION_ROW))


CHARGE_ROW = ("id", "user_id", "direction", "currency", "amount", "description", "category", "occurred_on")


def transaction_charge_rows(*, user_ids, since: dt.date, until: dt.date) -> list[tuple]:
    """The rows of these users in [since, until] as CHARGE_ROW tuples (the recurring detection's read).

    On PostgreSQL the rows come grouped, one row per (user, direction, currency, description, category)
    with the ids, amounts and dates as arrays: a tenth of the rows to decode and build, and the same work
    in the database as a plain scan (measured in bench/recurring.py). Elsewhere, plainly."""
    qs = _window_rows(user_ids, since, until)
    if connection.vendor != "postgresql":
        return list(qs.values_list(*CHARGE_ROW))
    groups = (
        qs.values("user_id", "direction", "currency", "description", "category")
        .annotate(ids=ArrayAgg("id"), amounts=ArrayAgg("amount"), dates=ArrayAgg("occurred_on"))
        .values_list("user_id", "direction", "currency", "description", "category", "ids", "amounts", "dates")
    )
    return [
        (i, user_id, direction, currency, amount, description, category, on)
        for user_id, direction, currency, description, category, ids, amounts, dates in groups
        for i, amount, on in zip(ids, amounts, dates, strict=True)
    ]


def expense_totals_by_week(*, user_ids, week_start: dt.date, weeks: int) -> list[tuple]:
    """Expense totals per user, currency and category of the week starting `week_start` (w0) and of each of
    the `weeks - 1` weeks before (w1, ...): one GROUP BY with a filtered SUM per week.
    Rows: (user_id, currency, category, w0, ..., w{weeks-1})."""

    def week(k: int) -> Sum:
        start = week_start - dt.timedelta(days=7 * k)
        return Sum("amount", filter=Q(occurred_on__gte=start, occurred_on__lte=start + dt.timedelta(days=6)))

    return list(
        Transaction.objects.filter(
            user_id__in=list(user_ids),
            direction=Transaction.Direction.EXPENSE,
            occurred_on__gte=week_start - dt.timedelta(days=7 * (weeks - 1)),
            occurred_on__lte=week_start + dt.timedelta(days=6),
        )
        .values("user_id", "currency", "category")
        .annotate(**{f"w{k}": week(k) for k in range(weeks)})
        .order_by()
        .values_list("user_id", "currency", "category", *[f"w{k}" for k in range(weeks)])
    )


def largest_expenses(*, user_ids, since: dt.date, until: dt.date, per_user: int) -> list[tuple]:
    """Each user's (and currency's) `per_user` largest expenses in [since, until]: ROW_NUMBER over the user's
    rows, filtered in the database. Rows: (user_id, description, amount, currency, category, occurred_on)."""
    return list(
        _window_rows(user_ids, since, until)
        .filter(direction=Transaction.Direction.EXPENSE)
        .annotate(
            rank=Window(RowNumber(), partition_by=[F("user_id"), F("currency")], order_by=[F("amount").desc(), F("id")])
        )
        .filter(rank__lte=per_user)
        .order_by("user_id", "rank")
        .values_list("user_id", "description", "amount", "currency", "category", "occurred_on")
    )
