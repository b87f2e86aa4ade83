"""Reads of the ledger, always scoped to one user."""

import datetime as dt
import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.postgres.aggregates import ArrayAgg
from django.contrib.postgres.lookups import Unaccent
from django.db import connection, transaction
from django.db.models import CharField, Count, DateField, F, Min, Q, QuerySet, Sum, Value, Window
from django.db.models.expressions import RawSQL
from django.db.models.functions import Cast, Lag, RowNumber, TruncMonth

from assets import categories
from assets.models import Asset, LinkedAccount, MonthTotal, Source, Transaction
from assets.rules.text import fold
from zeus.batch import Computed, Rows, arrays_supported
from zeus.errors import NotFound, ValidationFailed
from zeus.money import quantize
from zeus.prepared import Prepared
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
    """transaction_list's filters, validated, as lookups on Transaction beside the user (keys of
    `_LOOKUP_KINDS`); what is not given is left out."""
    from assets import categories

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


_LOOKUP_KINDS = {
    "occurred_on__gte": dt.date,
    "occurred_on__lte": dt.date,
    "category": str,
    "direction": str,
    "source": str,
    "asset_id": int,
}


def transactions_matching(*, user, lookups: dict) -> QuerySet[Transaction]:
    """The user's transactions that match transaction_filters' lookups, newest first."""
    return Transaction.objects.filter(user=user, **lookups).order_by("-occurred_on", "-id")


# (filters given, columns, rows) -> the first page's read: at most 2**6 filter sets times the page lengths.
_FIRST_PAGES: dict[tuple, Prepared] = {}


def transaction_first_page(*, user, lookups: dict, columns: tuple[str, ...], limit: int) -> list[dict]:
    """transactions_matching's first `limit` rows as `.values(*columns)` dicts, from a read compiled once per
    set of filters and length (zeus/prepared.py): the page without a cursor, which most requests ask for,
    costs no query building or compiling (a third of a 50-row page's Python)."""
    names = tuple(sorted(lookups))
    key = (names, columns, limit)
    read = _FIRST_PAGES.get(key)
    if read is None:
        read = _FIRST_PAGES.setdefault(
            key,
            Prepared(
                lambda user_id, *values: (
                    Transaction.objects.filter(user_id=user_id, **dict(zip(names, values, strict=True)))
                    .order_by("-occurred_on", "-id")
                    .values(*columns)[:limit]
                ),
                int,
                *(_LOOKUP_KINDS[name] for name in names),
            ),
        )
    return read.run(user.pk, *(lookups[name] for name in names))


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


def _category_literals(names: Iterable[str]) -> list[RawSQL]:
    """Categories written into the SQL, not bound: a server-prepared statement's one plan is made without its
    parameters' values, and with the list as parameters PostgreSQL chose to walk the month's every expense
    rather than the (user, category, day) index (measured: 0.60 ms a run against 0.43). Only the contract's
    names (assets/categories.py) are written, so no text of anyone's reaches the SQL."""
    names = list(names)
    unknown = set(names) - set(categories.ALL)
    if unknown:
        raise ValueError(f"not categories: {sorted(unknown)}")
    return [RawSQL(f"'{name}'", []) for name in names]


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
    with rows of its own (a plan's month, plans.selectors). Where the month totals are kept (PostgreSQL), they
    are those rows: a row a category, however many transactions the month holds."""
    no_day = Value(None, output_field=DateField())
    if month_totals_kept():
        return (
            MonthTotal.objects.filter(
                user_id=user_id, currency=currency, month=month, direction=Transaction.Direction.EXPENSE
            )
            .values(label=F("category"), day=no_day, value=F("total"))
            .order_by()
        )
    return (
        _expenses(user_id, month, month_last, currency)
        .values(label=F("category"), day=no_day)
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
        .filter(category__in=_category_literals(category_in))
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


def ledger_rows_read(*, user, currency: str, today: dt.date, months: int = 12) -> Rows | None:
    """The statement `ledger_summary` runs, unevaluated, where the month totals are kept (None elsewhere):
    the home sends it with its other small reads in one round trip (zeus/panels.py) and passes the rows
    back as `rows`."""
    if not month_totals_kept():
        return None
    first, this_month = _month_start(today, months - 1), _month_start(today)
    return Rows(_LEDGER_ROWS_SQL, _ledger_params(user, currency, first, this_month, today))


def _ledger_params(user, currency, first, this_month, today) -> list:
    return [user.pk, user.pk, user.pk, currency, first, this_month, this_month, user.pk, currency, this_month, today]


def ledger_summary(
    *, user, currency: str, today: dt.date, months: int = 12, rows: list[tuple] | None = None
) -> LedgerSummary:
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
    if rows is None:
        rows = _ledger_rows(user=user, currency=currency, first=first, this_month=this_month, today=today)
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


def month_totals_kept() -> bool:
    """Whether MonthTotal follows the ledger here: its triggers exist on PostgreSQL only (migration 0006)."""
    return connection.vendor == "postgresql"


LEDGER_ROW = ("month", "direction", "category", "currency", "total")


def _ledger_rows(*, user, currency: str, first: dt.date, this_month: dt.date, today: dt.date) -> list[tuple]:
    """One UNION ALL, rows of LEDGER_ROW: the balances per currency (month None: assets, and linked accounts no
    asset mirrors), then the ledger in `currency` from `first` to `today` summed per month, direction and
    category (a key may come twice: add them up).

    Where the month totals are kept (PostgreSQL), the months before this one are read from them (MonthTotal, a
    row per key: about a hundred for a year, however many transactions it holds) and only this month is summed
    from its rows, up to today as the whole window is (a row dated later this month is not counted yet).
    Elsewhere the whole window is summed from its rows."""
    if month_totals_kept():
        return Rows(_LEDGER_ROWS_SQL, _ledger_params(user, currency, first, this_month, today)).run()
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


# The same rows where the month totals are kept, written out: the home reads it on every load, and building the
# four-part union through the ORM cost ten times the query itself in Python (2 ms of CPU, measured).
_LEDGER_ROWS_SQL = f"""
SELECT NULL::date, NULL, NULL, currency, SUM(balance) FROM {Asset._meta.db_table} WHERE user_id = %s GROUP BY currency
UNION ALL
SELECT NULL::date, NULL, NULL, a.currency, SUM(a.balance) FROM {LinkedAccount._meta.db_table} a
WHERE a.user_id = %s AND NOT EXISTS (SELECT FROM {Asset._meta.db_table} m WHERE m.linked_account_id = a.id)
GROUP BY a.currency
UNION ALL
SELECT month, direction, category, currency, total FROM {MonthTotal._meta.db_table}
WHERE user_id = %s AND currency = %s AND month >= %s AND month < %s
UNION ALL
SELECT %s::date, direction, category, currency, SUM(amount) FROM {Transaction._meta.db_table}
WHERE user_id = %s AND currency = %s AND occurred_on >= %s AND occurred_on <= %s
GROUP BY direction, category, currency
"""


def net_worth(*, user, currency: str, today: dt.date, months: int = 12) -> NetWorth:
    return ledger_summary(user=user, currency=currency, today=today, months=max(months, 2)).net_worth


# Batch reads for the nightly jobs of the apps above (insights, duplicates): one query over many users each,
# never one per user. They return plain tuples; the callers give them their own shapes. On PostgreSQL each is
# a plain statement over the ids as one array: through the ORM, the weekly totals of a 500-user batch cost
# 28 ms of Python (Django's converters ran once per value, 50,000 a batch; an IN list of a parameter per id,
# which psycopg parses again for every execute, as it caches only statements of up to 50 parameters)
# against 10 ms as a plain statement, beside PostgreSQL's 50 ms. Elsewhere (SQLite), the same reads through
# the ORM.

TRANSACTION_ROW = ("id", "user_id", "direction", "currency", "amount", "description", "occurred_on")
_TABLE = Transaction._meta.db_table


def expense_weekly_totals(*, user_ids: list[int], today: dt.date, windows: int) -> list[tuple]:
    """Expense totals per user, currency and category for each of `windows` 7-day windows ending `today`
    (w0: the 7 days ending today; wk: ending 7k days before), plus since the first of today's month and the
    first day seen: one GROUP BY with a filtered SUM per window. A window without expenses is None.
    Rows: (user_id, currency, category, month_to_date, first_on, w0, ..., w{windows-1})."""
    since = today - dt.timedelta(days=7 * windows - 1)
    if arrays_supported():
        bounds = []
        for k in range(windows):
            end = today - dt.timedelta(days=7 * k)
            bounds += [end - dt.timedelta(days=6), end]
        params = [today.replace(day=1), *bounds, list(user_ids), Transaction.Direction.EXPENSE, since, today]
        return Rows(_weekly_totals_sql(windows), params).run()
    return _expense_weekly_totals_orm(user_ids=user_ids, today=today, since=since, windows=windows)


@functools.cache
def _weekly_totals_sql(windows: int) -> str:
    sums = ", ".join("sum(amount) FILTER (WHERE occurred_on BETWEEN %s AND %s)" for _ in range(windows))
    return f"""
SELECT user_id, currency, category, sum(amount) FILTER (WHERE occurred_on >= %s), min(occurred_on), {sums}
FROM {_TABLE} WHERE user_id = ANY(%s) AND direction = %s AND occurred_on BETWEEN %s AND %s
GROUP BY user_id, currency, category
"""


def _expense_weekly_totals_orm(*, user_ids, today: dt.date, since: dt.date, windows: int) -> list[tuple]:
    def window(k: int) -> Sum:
        end = today - dt.timedelta(days=7 * k)
        return Sum("amount", filter=Q(occurred_on__gte=end - dt.timedelta(days=6), occurred_on__lte=end))

    return list(
        Transaction.objects.filter(
            user_id__in=list(user_ids),
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


# The partition is (user, amount in cents): the column is numeric(17, 2), so amount * 100 is a whole number
# below 10^17 and its bigint names the amount exactly, and bigints sort faster than numerics (39 against
# 44 ms of PostgreSQL's CPU for a 500-user batch).
_CLOSE_REPEATS_SQL = f"""
SELECT user_id, amount FROM (
    SELECT user_id, amount, occurred_on,
           lag(occurred_on) OVER (PARTITION BY user_id, (amount * 100)::bigint ORDER BY occurred_on) AS previous
    FROM {_TABLE} WHERE user_id = ANY(%s) AND occurred_on BETWEEN %s AND %s
) t
WHERE occurred_on <= previous + 1
"""


def transaction_close_repeats(*, user_ids, since: dt.date, until: dt.date) -> set[tuple[int, Decimal]]:
    """(user, amount) pairs with two rows at most a day apart in [since, until]: LAG over the (user, amount)
    partition, filtered in the database, so only the candidates come back. The partition leaves direction
    and currency out (numbers sort much faster than collated text); callers check them on the few rows."""
    if arrays_supported():
        return set(Rows(_CLOSE_REPEATS_SQL, [list(user_ids), since, until]).run())
    return _close_repeats_orm(user_ids=user_ids, since=since, until=until)


def _close_repeats_orm(*, user_ids, since: dt.date, until: dt.date) -> set[tuple[int, Decimal]]:
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


_ROWS_SQL = (
    f"SELECT {', '.join(TRANSACTION_ROW)} FROM {_TABLE} WHERE user_id = ANY(%s) AND occurred_on BETWEEN %s AND %s"
)
# The table's columns, not the pairs' (the pairs' amounts come without the column's two decimal places).
_PAIR_ROWS_SQL = f"""
SELECT {", ".join(f"t.{column}" for column in TRANSACTION_ROW)}
FROM {_TABLE} t JOIN unnest(%s::integer[], %s::numeric[]) AS pair(user_id, amount)
     ON t.user_id = pair.user_id AND t.amount = pair.amount
WHERE t.occurred_on BETWEEN %s AND %s
ORDER BY t.user_id, t.id
"""


def transaction_rows(*, user_ids, since: dt.date, until: dt.date) -> list[tuple]:
    """The rows of these users in [since, until], as TRANSACTION_ROW tuples."""
    if arrays_supported():
        return Rows(_ROWS_SQL, [list(user_ids), since, until]).run()
    return list(_window_rows(user_ids, since, until).values_list(*TRANSACTION_ROW))


def transaction_rows_of_pairs(*, pairs: set[tuple[int, Decimal]], since: dt.date, until: dt.date) -> list[tuple]:
    """The rows in [since, until] of these (user, amount) pairs, as TRANSACTION_ROW tuples, by user and id.

    Only the pairs' rows: asking for the pairs' users and amounts apart would bring every user's rows at any
    pair's amount too (13 times as many on the bench's batches)."""
    if not pairs:
        return []
    if arrays_supported():
        users, amounts = zip(*pairs, strict=True)
        return Rows(_PAIR_ROWS_SQL, [list(users), list(amounts), since, until]).run()
    return _rows_of_pairs_orm(pairs=pairs, since=since, until=until)


def _rows_of_pairs_orm(*, pairs: set[tuple[int, Decimal]], since: dt.date, until: dt.date) -> list[tuple]:
    qs = _window_rows({u for u, _ in pairs}, since, until).filter(amount__in={a for _, a in pairs})
    return [row for row in qs.order_by("user_id", "id").values_list(*TRANSACTION_ROW) if (row[1], row[4]) in pairs]


CHARGE_ROW = ("id", "user_id", "direction", "currency", "amount", "description", "category", "occurred_on")


def transaction_charge_rows(*, user_ids, since: dt.date, until: dt.date) -> list[tuple]:
    """The rows of these users in [since, until] as CHARGE_ROW tuples (the recurring detection's read).

    On PostgreSQL the rows come grouped, one row per (user, direction, currency, description, category)
    with the ids, amounts and dates as arrays: a tenth of the rows to decode and build, and the same work
    in the database as a plain scan (measured in bench/recurring.py). Elsewhere, plainly."""
    qs = _window_rows(user_ids, since, until)
    if not arrays_supported():
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


# No character from here on has a combining class (Unicode 15: the last is U+1E94A); a test checks it against
# the running Python's unicodedata. Scanning the whole code space would cost half a second per process.
COMBINING_SCAN_END = 0x20000


def _combining_class() -> str:
    """A regex bracket of every character Python's unicodedata gives a combining class (what
    suggestions.duplicates' folding drops after NFKD), as ranges."""
    import unicodedata

    ranges: list[list[int]] = []
    for code in range(COMBINING_SCAN_END):
        if unicodedata.combining(chr(code)):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1][1] = code
            else:
                ranges.append([code, code])
    return "[" + "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in ranges) + "]"


_COMBINING: str | None = None
_UPPER = "đĐABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LOWER = "dd" + _UPPER[2:].lower()

# The description (`folded`: NFKD, the combining marks dropped) folded further as
# suggestions.duplicates.counterparty folds it (đ to d, ASCII lowered), then its tokens ([a-z0-9] runs) that
# hold a digit and the `dropped` words removed, the rest joined by single spaces. Every token it keeps,
# counterparty keeps too (counterparty may keep more: the digits of a bare transfer, a "tien" outside "hoan
# tien"), so two descriptions with one counterparty get one key here: grouping by it may merge
# counterparties, never split one.
_MERCHANT_KEY = """btrim(regexp_replace(regexp_replace(regexp_replace(
    translate(folded, %(upper)s, %(lower)s),
    '[a-z0-9]*[0-9][a-z0-9]*', ' ', 'g'),
    %(dropped)s, '\\1', 'g'),
    '[^a-z]+', ' ', 'g'))"""

# Enough for the window's in-memory sort of a batch of 500 users at a few hundred rows each (7 MB measured at
# 50,000 rows: docs/recurring.md).
CANDIDATES_WORK_MEM = "32MB"

_CHARGE_CANDIDATES = f"""
WITH keys AS MATERIALIZED (  -- each distinct description keyed once (the regular expressions only where it is
                             -- not ASCII), the key and the description numbered: the window sorts numbers
    SELECT description, dense_rank() OVER (ORDER BY {_MERCHANT_KEY}) AS k, row_number() OVER () AS n
    FROM (SELECT description, CASE WHEN description ~ '^[ -~]*$' THEN description
                                   ELSE regexp_replace(normalize(description, NFKD), %(combining)s, '', 'g') END
                 AS folded
          FROM (SELECT DISTINCT description FROM assets_transaction
                WHERE user_id = ANY(%(users)s) AND occurred_on BETWEEN %(since)s AND %(until)s) d) f
)
SELECT user_id, direction, currency, array_agg(id), array_agg(amount), array_agg(occurred_on), array_agg(n),
       array_agg(category::text)
FROM (SELECT id, user_id, k, n, direction, currency, category, amount, occurred_on,
             {{tolerance}}::float8 AS tol,
             -- in amount order, the charge two below as a share of this one: three alike within twice the
             -- tolerance when it is at least 1 - 2 * tolerance
             lag(amount::float8, 2) OVER (PARTITION BY user_id, k, direction, currency ORDER BY amount)
                 / amount::float8 AS near
      FROM assets_transaction JOIN keys USING (description)
      WHERE user_id = ANY(%(users)s) AND occurred_on BETWEEN %(since)s AND %(until)s) a
GROUP BY user_id, k, direction, currency  -- the window's order: no second sort
-- In floating point the ratio is off by 1e-16 at most: the margin keeps every group the exact check
-- (recurring._three_alike, in Decimal) keeps.
HAVING max(near) >= 1 - 2 * max(tol) - 1e-9
UNION ALL  -- one more row: the descriptions by number
SELECT NULL, NULL, NULL, NULL, NULL, NULL, array_agg(n), array_agg(description::text) FROM keys
"""


def transaction_charge_candidates(
    *,
    user_ids,
    since: dt.date,
    until: dt.date,
    dropped_words: Iterable[str],
    tolerances: dict[str, Decimal],
    tolerance: Decimal,
    row: Callable[..., tuple] | None = None,
) -> list[tuple]:
    """The rows of these users in [since, until], as CHARGE_ROW tuples (or `row(*CHARGE_ROW)`, the caller's
    named tuple, built once instead of a tuple and then a copy), that can be part of a recurring
    series: one query that keeps only the (user, direction, currency, merchant key) groups where three
    amounts are alike (the largest and the smallest of the three within twice the group's largest category
    tolerance, `tolerances` or else `tolerance`, of the largest: every price a series holds three times
    passes). The merchant key is coarser than suggestions' counterparty (_MERCHANT_KEY), so no group that
    could hold a series is dropped; the caller groups the rows exactly and checks again. Elsewhere than
    PostgreSQL, every row (the caller's checks decide)."""
    if not arrays_supported():
        rows = transaction_charge_rows(user_ids=user_ids, since=since, until=until)
        return [row(*r) for r in rows] if row else rows
    global _COMBINING
    if _COMBINING is None:
        _COMBINING = _combining_class()
    words = sorted(set(dropped_words))
    params = {
        "combining": _COMBINING,
        "upper": _UPPER,
        "lower": _LOWER,
        # A dropped word is a whole token: after the start or a separator, before a separator or the end.
        "dropped": rf"(^|[^a-z0-9])(?:{'|'.join(words)})(?=[^a-z0-9]|$)" if words else "(?!)",
        "tolerance": tolerance,
        **{f"category{n}": category for n, category in enumerate(tolerances)},
        **{f"tolerance{n}": share for n, share in enumerate(tolerances.values())},
        "users": list(user_ids),
        "since": since,
        "until": until,
    }
    shares = " ".join(f"WHEN %(category{n})s THEN %(tolerance{n})s" for n in range(len(tolerances)))
    sql = _CHARGE_CANDIDATES.replace("{tolerance}", f"CASE category {shares} ELSE %(tolerance)s END")
    # The window sorts the batch's rows (some 50,000 for 500 users): with the default 4 MB of work_mem it
    # spills about as much to disk. The memory it needs, for this statement only (SET LOCAL lasts until the
    # transaction ends; savepoint=False: no savepoint when the caller is already in one).
    with transaction.atomic(savepoint=False), connection.cursor() as cursor:
        cursor.execute(f"SET LOCAL work_mem = '{CANDIDATES_WORK_MEM}'")
        cursor.execute(sql, params)
        groups = cursor.fetchall()
    # The last row numbers the descriptions (its arrays are null when the batch has no rows).
    names = next(dict(zip(ns or (), texts or (), strict=True)) for user_id, *_, ns, texts in groups if user_id is None)
    make = row or (lambda *fields: fields)
    return [
        make(i, user_id, direction, currency, amount, names[n], category, on)
        for user_id, direction, currency, ids, amounts, dates, ns, categories in groups
        if user_id is not None
        for i, amount, on, n, category in zip(ids, amounts, dates, ns, categories, strict=True)
    ]


def expense_week_review_read(*, user_ids, week_start: dt.date, weeks: int) -> Rows:
    """The weekly review's read of the ledger, one pass over the expenses of the `weeks` weeks ending with
    the one starting `week_start`, unevaluated (the review sends it with its other reads in one round trip:
    zeus/batch.py). Rows (part, user_id, currency, category, description, occurred_on, id, n0, ...,
    n{weeks-1}), by part:
    - 0, per user and currency: the totals of that week (n0) and of each week before (n1, ...), 0 when empty;
    - 1, each expense of that week: its category, description, date, id and amount (n0).
    One query, the rows read once into a materialised CTE. The weeks are added up here; the week's few
    expenses (a handful a user) come back as they are, for the review to add up by category and to rank:
    totals per category and week and a ROW_NUMBER per user cost PostgreSQL more (aggregating, sorting and
    printing the benchmark's 17,500 figures a batch) than the review spends on them (docs/PERFORMANCE.md)."""
    since = week_start - dt.timedelta(days=7 * (weeks - 1))
    until = week_start + dt.timedelta(days=6)
    bounds = []
    for k in range(weeks):
        start = week_start - dt.timedelta(days=7 * k)
        bounds += [start, start + dt.timedelta(days=6)]
    if not arrays_supported():
        return Computed(lambda: _expense_week_review_rows(user_ids, since, until, bounds, week_start))
    sums = ", ".join("coalesce(sum(amount) FILTER (WHERE occurred_on BETWEEN %s AND %s), 0)" for _ in range(weeks))
    nulls = "".join(", NULL::numeric" for _ in range(1, weeks))
    sql = f"""
WITH r AS MATERIALIZED (
    SELECT id, user_id, currency, category, description, amount, occurred_on
    FROM assets_transaction
    WHERE user_id = ANY(%s) AND direction = 'expense' AND occurred_on BETWEEN %s AND %s
)
SELECT 0, user_id, currency, NULL, NULL, NULL::date, NULL::bigint, {sums}
FROM r GROUP BY user_id, currency
UNION ALL
SELECT 1, user_id, currency, category, description, occurred_on, id, amount{nulls}
FROM r WHERE occurred_on >= %s
"""
    return Rows(sql, [list(user_ids), since, until, *bounds, week_start])


def _expense_week_review_rows(user_ids, since, until, bounds, week_start) -> list[tuple]:
    """expense_week_review_read's rows made with the ORM, for a database without its statement's arrays."""
    expenses = Transaction.objects.filter(
        user_id__in=list(user_ids), direction=Transaction.Direction.EXPENSE, occurred_on__range=(since, until)
    ).values_list("id", "user_id", "currency", "category", "description", "amount", "occurred_on")
    spans = list(zip(bounds[::2], bounds[1::2], strict=True))
    totals: dict[tuple, list] = {}
    week = []
    for id_, user_id, currency, category, description, amount, occurred_on in expenses:
        sums = totals.setdefault((user_id, currency), [Decimal(0)] * len(spans))
        for k, (start, end) in enumerate(spans):
            if start <= occurred_on <= end:
                sums[k] += amount
        if occurred_on >= week_start:
            week.append(
                (1, user_id, currency, category, description, occurred_on, id_, amount, *[None] * (len(spans) - 1))
            )
    return [(0, *key, None, None, None, None, *sums) for key, sums in totals.items()] + week
