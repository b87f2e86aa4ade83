"""Money that counts, summed and converted: the one read every figure of income or spending goes through (the
home, budgets, the plan, the assistant's `summarize_spending`). It groups `Transaction.objects.counted()` in the
database and converts each group through assets/ledger/conversion.py at its rows' own day; a group with no rate
is listed in `missing` and left out, never taken at 1:1 (docs/ledger.md, "Money that counts")."""

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import NamedTuple

from django.contrib.auth import get_user_model
from django.contrib.postgres.expressions import ArraySubquery
from django.db.models import (
    BigIntegerField,
    Case,
    CharField,
    Count,
    DateField,
    DecimalField,
    ExpressionWrapper,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Cast, ExtractDay, Round
from django.db.models.lookups import GreaterThan

from assets.ledger.conversion import PIVOT, Converted, RateRow, RateTable, convert
from assets.ledger.models import ExchangeRate
from assets.ledger.queries import COUNTS
from assets.models import Transaction
from zeus.money import exponent, quantize
from zeus.queries import AnyOf

PER_DAY = "day"
PER_MONTH = "month"


# A named tuple, not a frozen dataclass: a read builds one per grouped row (hundreds for a plan's month, one
# per user and day for the jobs), and a frozen dataclass's __init__ sets each field through object.__setattr__.
class CountedGroup(NamedTuple):
    user_id: int
    direction: str
    category: str  # one of the fixed categories
    day: dt.date  # the rows' own day; the first of their month when summed per month
    amount: Decimal  # in the currency asked, not yet quantized
    conversion: Converted | None = None  # rows in another currency: the original, the rate and its day


@dataclass
class CountedRead:
    """What counted in one currency; the groups that could not be converted apart, named."""

    currency: str
    groups: list[CountedGroup] = field(default_factory=list)
    missing: list[Converted] = field(default_factory=list)
    missing_keys: list[tuple[str, str]] = field(default_factory=list)  # (direction, category) of each of `missing`

    def missing_of(
        self, direction: str = Transaction.Direction.EXPENSE, category: str | None = None
    ) -> list[Converted]:
        return [
            m
            for m, (d, c) in zip(self.missing, self.missing_keys, strict=True)
            if d == direction and category in (None, c)
        ]

    def conversions_of(
        self, direction: str = Transaction.Direction.EXPENSE, category: str | None = None
    ) -> list[Converted]:
        """The groups in another currency that were converted: original, converted amount and rate."""
        return [
            g.conversion
            for g in self.groups
            if g.conversion is not None and g.direction == direction and category in (None, g.category)
        ]

    def by_category(self, direction: str = Transaction.Direction.EXPENSE) -> dict[str, Decimal]:
        out: dict[str, Decimal] = {}
        for group in self.groups:
            if group.direction == direction:
                out[group.category] = out.get(group.category, Decimal(0)) + group.amount
        return out

    def by_day(self, direction: str = Transaction.Direction.EXPENSE) -> dict[dt.date, Decimal]:
        out: dict[dt.date, Decimal] = {}
        for group in self.groups:
            if group.direction == direction:
                out[group.day] = out.get(group.day, Decimal(0)) + group.amount
        return out


def rate_tables_load(*, user_ids: Iterable[int], currencies: Iterable[str], until: dt.date) -> dict[int, RateTable]:
    """Each user's rate table (the published rates and their own) between `currencies` and VND up to `until`:
    one read for any number of users."""
    ids = set(user_ids)
    wanted = set(currencies) | {PIVOT}
    rows = ExchangeRate.objects.filter(
        Q(user__isnull=True) | Q(user_id__in=ids), from_currency__in=wanted, to_currency__in=wanted, day__lte=until
    ).values_list("day", "from_currency", "to_currency", "rate", "source", "user_id")
    published, own = [], {i: [] for i in ids}
    for day, f, t, rate, source, owner in rows:
        row = RateRow(day=day, from_currency=f, to_currency=t, rate=rate, source=source, own=owner is not None)
        (published if owner is None else own[owner]).append(row)
    return {i: RateTable([*published, *own[i]]) for i in ids}


def counted_groups_query(
    *,
    user_ids: Iterable[int],
    currency: str,
    since: dt.date,
    until: dt.date,
    per: str = PER_DAY,
    days_from: dt.date | None = None,
) -> QuerySet:
    """The counted entries of these users between two days, summed per user, direction, fixed category,
    currency and day: rows in `currency` per day or per month (`per`), rows in any other per day, the day a
    conversion needs. Per month, the rows from `days_from` on are per day whatever their currency (the home's
    current month, which the plan reads per day)."""
    if per == PER_DAY:
        day = F("occurred_on")  # every row its own day, whatever its currency
    else:
        # The first of the row's month in date arithmetic (the day minus its day of the month, less one):
        # TruncMonth on a date casts every row to a timestamp with time zone and back.
        day_of_month = Cast(ExtractDay("occurred_on"), IntegerField())
        month = ExpressionWrapper(F("occurred_on") - (day_of_month - 1), output_field=DateField())
        by_month = Q(currency=currency) if days_from is None else Q(currency=currency, occurred_on__lt=days_from)
        day = Case(When(by_month, then=month), default=F("occurred_on"), output_field=DateField())
    return (
        Transaction.objects.counted()
        .filter(user_id__in=list(user_ids), occurred_on__gte=since, occurred_on__lte=until)
        .annotate(day=day)
        .values("user_id", "direction", "counted_category", "currency", "day")
        .annotate(total=Sum("counted_amount"))
        .order_by()
    )


def counted_convert(
    rows: Iterable[dict],
    *,
    currency: str,
    until: dt.date,
    per: str = PER_DAY,
    tables: dict[int, RateTable] | None = None,
) -> dict[int, CountedRead]:
    """counted_groups_query's rows as one CountedRead per user, in `currency`: the rows in another currency
    converted at their day (one read of the rates, only when there are such rows and no `tables` are given)."""
    rows = list(rows)
    foreign = {r["currency"] for r in rows if r["currency"] != currency}
    if foreign and tables is None:
        tables = rate_tables_load(user_ids={r["user_id"] for r in rows}, currencies=foreign | {currency}, until=until)
    reads: dict[int, CountedRead] = {}
    for row in rows:
        user_id = row["user_id"]
        read = reads.get(user_id)
        if read is None:
            read = reads[user_id] = CountedRead(currency=currency)
        if row["currency"] == currency:
            read.groups.append(
                CountedGroup(user_id, row["direction"], row["counted_category"], row["day"], row["total"])
            )
            continue
        day = row["day"]
        converted = convert(row["total"], row["currency"], day, to=currency, table=tables[user_id])
        if converted.missing:
            read.missing.append(converted)
            read.missing_keys.append((row["direction"], row["counted_category"]))
            continue
        if per == PER_MONTH:
            day = day.replace(day=1)
        read.groups.append(
            CountedGroup(user_id, row["direction"], row["counted_category"], day, converted.converted, converted)
        )
    return reads


def counted_read(
    *, user_ids: Iterable[int], currency: str, since: dt.date, until: dt.date, per: str = PER_DAY
) -> dict[int, CountedRead]:
    """Income and spending of these users between two days in `currency`, per category and day (or month):
    one grouped read, and one read of the rates when another currency appears. A user with nothing counted
    has an empty CountedRead."""
    ids = list(user_ids)
    query = counted_groups_query(user_ids=ids, currency=currency, since=since, until=until, per=per)
    reads = counted_convert(query, currency=currency, until=until, per=per)
    return {i: reads.get(i, CountedRead(currency=currency)) for i in ids}


def counted_reads_of(*, spans: dict[int, tuple[str, dt.date, dt.date]]) -> dict[int, CountedRead]:
    """counted_read for many users each in their own currency over their own days (user id: (currency, since,
    until)): one grouped read over the span of all their days, and one read of the rates when a row in another
    currency appears, however many currencies (a job's batch, its users in different timezones)."""
    if not spans:
        return {}
    since, until = min(s for _c, s, _u in spans.values()), max(u for _c, _s, u in spans.values())
    rows = [
        row
        for row in counted_groups_query(user_ids=spans, currency="", since=since, until=until)
        if spans[row["user_id"]][1] <= row["day"] <= spans[row["user_id"]][2]
    ]
    foreign = {row["user_id"] for row in rows if row["currency"] != spans[row["user_id"]][0]}
    tables = None
    if foreign:
        held = {row["currency"] for row in rows} | {currency for currency, _s, _u in spans.values()}
        tables = rate_tables_load(user_ids=foreign, currencies=held, until=until)
    reads: dict[int, CountedRead] = {}
    for currency in {currency for currency, _s, _u in spans.values()}:
        mine = [row for row in rows if spans[row["user_id"]][0] == currency]
        reads.update(counted_convert(mine, currency=currency, until=until, tables=tables))
    return {user_id: reads.get(user_id, CountedRead(currency=spans[user_id][0])) for user_id in spans}


def counted_reads_in(*, user, currencies: Iterable[str], since: dt.date, until: dt.date) -> dict[str, CountedRead]:
    """One user's counted income and spending per category and day in each of `currencies`: one grouped read
    and, when the rows and the currencies differ, one read of the rates, however many currencies."""
    wanted = set(currencies)
    rows = list(counted_groups_query(user_ids=[user.pk], currency="", since=since, until=until))
    held = {r["currency"] for r in rows}
    tables = None
    if held - wanted or (held and len(wanted) > 1):
        tables = rate_tables_load(user_ids=[user.pk], currencies=held | wanted, until=until)
    out = {}
    for currency in wanted:
        read = counted_convert(rows, currency=currency, until=until, tables=tables)
        out[currency] = read.get(user.pk, CountedRead(currency=currency))
    return out


@dataclass(frozen=True)
class DaysSpent:
    """One user's counted spending on each day of their span that spent anything, in their own currency's minor
    units (each day's sum rounded as zeus.money.to_minor rounds it), in no order. `foreign`: some of the span's
    spending is in another currency; the days are then empty, the whole span being for counted_reads_of to
    convert."""

    days: list[int]
    foreign: bool


def counted_days_spent(*, spans: dict[int, tuple[str, dt.date, dt.date]]) -> dict[int, DaysSpent]:
    """Each user's counted spending per day in their own currency over their own days (user id: (currency,
    since, until)), summed and rounded in the database: one query however many users, currencies and days (the
    nightly watch's typical day), one row per user carrying that user's day totals as an array."""
    if not spans:
        return {}
    # round(sum * 10^exponent) is to_minor's ROUND_HALF_UP: PostgreSQL rounds a numeric's halves away from zero.
    factors = {user_id: (Decimal(10) ** exponent(currency),) for user_id, (currency, _s, _u) in spans.items()}
    # Each user's currency and span ride on their row (a batch's users have two or three todays and a currency
    # or two), so the day totals come back as one array per user, not a row per user and day.
    own = _per_user(spans, 0, CharField())
    within = Transaction.objects.counted().filter(
        user_id=OuterRef("pk"),
        direction=Transaction.Direction.EXPENSE,
        occurred_on__gte=OuterRef("since"),
        occurred_on__lte=OuterRef("until"),
    )
    # One pass over each user's rows for both answers: a total per day, NULL for a day that spent in another
    # currency. A separate EXISTS for those rows was planned as a scan of the whole table per batch (it expects
    # next to none), and grouping by the currency too hashes each user's days where the index gives them in order.
    others = Count("pk", filter=~Q(currency=OuterRef("own")))
    days = (
        within.values("occurred_on")
        .annotate(
            minor=Case(
                When(GreaterThan(others, 0), then=Value(None)),
                default=Cast(Round(Sum("counted_amount") * OuterRef("factor")), BigIntegerField()),
                output_field=BigIntegerField(),
            )
        )
        .order_by()
        .values("minor")
    )
    rows = (
        get_user_model()
        .objects.filter(AnyOf("pk", spans))
        .annotate(
            own=own,
            since=_per_user(spans, 1, DateField()),
            until=_per_user(spans, 2, DateField()),
            factor=_per_user(factors, 0, DecimalField()),
        )
        .annotate(days=ArraySubquery(days))
        .values_list("pk", "days")
    )
    out = {user_id: DaysSpent(days=[], foreign=False) for user_id in spans}
    for user_id, totals in rows:
        foreign = None in totals
        out[user_id] = DaysSpent(days=[] if foreign else totals, foreign=foreign)
    return out


def _per_user(spans: dict[int, tuple], index: int, output_field) -> Case:
    """The `index`th item of each user's span: the batch's most common value by default, a case over the other
    users' ids for the rest. The database evaluates it on every row the subquery reads, so the ids it lists are
    only the few users whose today or currency differs from most of the batch's."""
    users_of: dict = {}
    for user_id, span in spans.items():
        users_of.setdefault(span[index], []).append(user_id)
    common = max(users_of, key=lambda value: len(users_of[value]))
    return Case(
        *(When(AnyOf("pk", ids), then=Value(value)) for value, ids in users_of.items() if value != common),
        default=Value(common),
        output_field=output_field,
    )


def counted_user_read(*, user, currency: str, since: dt.date, until: dt.date) -> CountedRead:
    return counted_read(user_ids=[user.pk], currency=currency, since=since, until=until)[user.pk]


def missing_summary(missing: Iterable[Converted]) -> list[dict]:
    """The groups left out for want of a rate, per currency: what the pages and the assistant name as
    "rate missing"."""
    totals: dict[str, Decimal] = {}
    for item in missing:
        totals[item.currency] = totals.get(item.currency, Decimal(0)) + item.amount
    return [{"currency": c, "amount": quantize(amount, c)} for c, amount in sorted(totals.items())]


def conversion_summary(conversions: Iterable[Converted]) -> list[dict]:
    """What was converted into a figure, beside its original: one entry per currency and rate used, summed
    (`{"currency", "amount", "to_currency", "converted", "rate", "rate_date"}`), oldest rate first; every
    page, REST answer and tool shows conversions in this one shape."""
    sums: dict[tuple, list[Decimal]] = {}
    for item in conversions:
        if item.converted is None or item.currency == item.to_currency:
            continue
        pair = sums.setdefault((item.rate_day, item.currency, item.to_currency, item.rate), [Decimal(0), Decimal(0)])
        pair[0] += item.amount
        pair[1] += item.converted
    return [
        {
            "currency": currency,
            "amount": quantize(amount, currency),
            "to_currency": to,
            "converted": quantize(converted, to),
            "rate": rate,
            "rate_date": day,
        }
        for (day, currency, to, rate), (amount, converted) in sorted(sums.items())
    ]


@dataclass(frozen=True)
class CombinedTotal:
    """A list's income and spending in one currency: its own rows as they are, the others converted at each
    row's day's rate, those with no rate named apart; each per direction ({"income": [...], "expense": [...]},
    in conversion_summary's and missing_summary's shapes)."""

    currency: str
    income: Decimal
    expense: Decimal
    converted: dict[str, list[dict]]
    rate_missing: dict[str, list[dict]]

    @property
    def net(self) -> Decimal:
        return self.income - self.expense


def list_total_in(qs: QuerySet, *, currency: str, own: tuple[Decimal, Decimal]) -> CombinedTotal:
    """The rows of a ledger query that count, added up in `currency`: `own` is (income, expense) of its rows
    already in `currency`; the rows in other currencies are summed per user, direction, currency and day (one
    query) and converted at that day's rate (one read of the rates)."""
    foreign = (
        qs.filter(COUNTS)
        .exclude(currency=currency)
        .order_by()
        .annotate(day=F("occurred_on"), counted_category=Value(""))
        .values("user_id", "direction", "counted_category", "currency", "day")
        .annotate(total=Sum("amount"))
    )
    sums = dict(zip(DIRECTIONS, own, strict=True))
    converted: dict[str, list] = {d: [] for d in DIRECTIONS}
    missing: dict[str, list] = {d: [] for d in DIRECTIONS}
    for read in counted_convert(foreign, currency=currency, until=dt.date.max).values():
        for group in read.groups:
            sums[group.direction] += group.amount
            converted[group.direction].append(group.conversion)
        for item, (direction, _category) in zip(read.missing, read.missing_keys, strict=True):
            missing[direction].append(item)
    return CombinedTotal(
        currency=currency,
        income=quantize(sums[Transaction.Direction.INCOME], currency),
        expense=quantize(sums[Transaction.Direction.EXPENSE], currency),
        converted={d: conversion_summary(converted[d]) for d in DIRECTIONS},
        rate_missing={d: missing_summary(missing[d]) for d in DIRECTIONS},
    )


DIRECTIONS = (Transaction.Direction.INCOME.value, Transaction.Direction.EXPENSE.value)
