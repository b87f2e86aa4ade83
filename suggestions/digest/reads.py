"""The weekly review's reads of a batch of users whose review covers the same week: each one query for the
batch, never one per user."""

import datetime as dt
import functools
import operator
from collections import defaultdict
from dataclasses import dataclass, fields
from decimal import Decimal

from django.db.models import BigIntegerField, Case, CharField, DateField, F, Q, QuerySet, Sum, Value, When, Window
from django.db.models.functions import RowNumber

from assets.ledger.conversion import Converted, RateTable, convert
from assets.ledger.totals import counted_convert, rate_tables_load
from assets.models import Transaction
from goals.models import Goal
from suggestions.models import INSIGHT_KINDS, RecurringSeries, Suggestion, WeeklyDigest
from zeus.queries import AnyOf

WEEKS = 5  # the week and the four before it


@dataclass(frozen=True)
class BigExpense:
    description: str
    amount: Decimal  # in `currency`, the row's own
    currency: str
    category: str
    occurred_on: dt.date
    conversion: Converted  # into the reader's currency at the row's day's rate (`missing` when there is none)


@dataclass(frozen=True)
class ReviewSpending:
    """The spending of a review batch, per user, in that user's currency: rows in another currency converted
    at the rate of their own day; what no rate converts named per week, never counted at 1:1."""

    weeks: dict[int, tuple[Decimal, ...]]  # the week's expense total, then each of the four before
    categories: dict[int, list[tuple[str, Decimal]]]  # (category, total) of the week, if spent
    biggest: dict[int, list[BigExpense]]  # the week's largest expenses (by converted amount), the largest first
    converted: dict[int, list[Converted]]  # the week's groups converted from another currency
    missing: dict[int, tuple[list[Converted], ...]]  # per week, as `weeks`: the groups no rate converts


@dataclass(frozen=True)
class DueSeries:
    """An active expense series due in the span the review asks about: what the review says of it."""

    id: int
    user_id: int
    merchant: str
    kind: str
    amount: Decimal
    currency: str
    interval: str
    next_on: dt.date


@dataclass(frozen=True)
class WeekReviewRows:
    spending: ReviewSpending
    goals: list[Goal]  # active, oldest first per user
    due: list[DueSeries]  # active expense series due in the span asked, soonest first per user
    insights: list[Suggestion]  # insights created from the moment asked on, newest first per user


def _week_index(day: dt.date, week_start: dt.date) -> int:
    """0 for the week itself, 1 for the week before, ... 4."""
    return 0 if day >= week_start else ((week_start - day).days - 1) // 7 + 1


def _by_converted_amount(big: BigExpense) -> tuple:
    """The largest converted amount first; a row no rate converts after every one that converts."""
    converted = big.conversion.converted
    return converted is None, -(converted or Decimal(0))


def _own_currency(currencies: dict[int, str]) -> Q:
    """A row in its user's own currency, for users {id: currency}."""
    by_currency = defaultdict(list)
    for uid, currency in currencies.items():
        by_currency[currency].append(uid)
    if len(by_currency) == 1:
        # The usual batch, everyone reading in one currency: no test of each row's user against the batch.
        return Q(currency=next(iter(by_currency)))
    return functools.reduce(operator.or_, (Q(AnyOf("user_id", ids), currency=c) for c, ids in by_currency.items()))


def _week_expenses(*, currencies: dict[int, str], week_start: dt.date, per_user: int) -> QuerySet:
    """The week's expenses of these users that can be among their `per_user` largest, whole (a split row once),
    as (id, user_id, currency, category, description, amount, occurred_on): of the rows in a user's own currency
    only the first `per_user` by amount, largest first, equal amounts in the order they were recorded (the
    database ranks them, a window per user), and every row in another currency, whose rank depends on its day's
    rate. It reads the week alone, on the (user, direction, -occurred_on, -id) index."""
    own_or_each_alone = Case(
        When(_own_currency(currencies), then=Value(0)), default=F("id"), output_field=BigIntegerField()
    )
    rank = Window(RowNumber(), partition_by=[F("user_id"), own_or_each_alone], order_by=[F("amount").desc(), "id"])
    return (
        Transaction.objects.not_transfers()
        .filter(AnyOf("user_id", currencies), direction=Transaction.Direction.EXPENSE)
        .filter(occurred_on__range=(week_start, week_start + dt.timedelta(days=6)))
        .annotate(rank=rank)
        .filter(rank__lte=per_user)
        .order_by()
        .values_list("id", "user_id", "currency", "category", "description", "amount", "occurred_on")
    )


def _spent_per_week(*, currencies: dict[int, str], week_start: dt.date) -> QuerySet:
    """The counted expenses of these users over the five weeks, one row per user, category (`None` for the
    four weeks before in the user's own currency), currency and `day`, with each week's sum (`week0` the week
    itself, `week1` the week before, ...): a row in the user's own currency has no `day` (its weeks are summed
    in the database, conditional sums of one GROUP BY), a row in another currency keeps its day, the day its
    conversion needs (then one of its week sums is set)."""
    own = _own_currency(currencies)
    day = Case(When(own, then=Value(None)), default=F("occurred_on"), output_field=DateField())
    # Only the week itself is shown by category; the four before are totals: their rows in the user's own
    # currency make one group per user (no category), not one per category, each a row more to fetch and add up.
    category = Case(
        When(own, occurred_on__lt=week_start, then=Value(None)), default=F("counted_category"), output_field=CharField()
    )
    mondays = [week_start - dt.timedelta(days=7 * k) for k in range(WEEKS)]
    weeks = {
        f"week{k}": Sum("counted_amount", filter=Q(occurred_on__range=(monday, monday + dt.timedelta(days=6))))
        for k, monday in enumerate(mondays)
    }
    return (
        Transaction.objects.counted()
        .filter(AnyOf("user_id", currencies), direction=Transaction.Direction.EXPENSE)
        .filter(occurred_on__range=(mondays[-1], week_start + dt.timedelta(days=6)))
        .annotate(day=day, week_category=category)
        .values("user_id", "week_category", "currency", "day")
        .annotate(**weeks)
        .order_by()
        # Tuples, not a dict per row: the batch's thousands of rows are unpacked once, by position.
        .values_list("user_id", "week_category", "currency", "day", *weeks)
    )


def review_spending(*, currencies: dict[int, str], week_start: dt.date, per_user: int) -> ReviewSpending:
    """The expenses of the week starting `week_start` and of the four before, for users {id: currency}: the
    money that counts (through the ledger's one read, Transaction.objects.counted(): no transfers, no excluded
    rows, a split row by its parts) summed per user, category and week in the user's currency, and per day in
    another currency, converted at each day's rate (assets.ledger.totals.counted_convert); then the week's
    expenses that can rank (_week_expenses), whole, ranked by their converted amount (equal amounts the largest
    row first, then in the order they were recorded). Two queries for the batch, and one read of the rates when
    another currency appears."""
    ids, end = list(currencies), week_start + dt.timedelta(days=6)
    grouped = list(_spent_per_week(currencies=currencies, week_start=week_start))
    this_week = list(_week_expenses(currencies=currencies, week_start=week_start, per_user=per_user))
    zero = Decimal(0)
    totals: dict[int, list[Decimal]] = {}
    by_category: dict[int, dict[str, Decimal]] = {}
    foreign = []
    for uid, category, currency, day, *sums in grouped:
        if day is not None:
            foreign.append(
                {"user_id": uid, "direction": Transaction.Direction.EXPENSE, "counted_category": category,
                 "currency": currency, "day": day, "total": next(s for s in sums if s is not None)}
            )  # fmt: skip
            continue
        mine = totals.get(uid)
        if mine is None:
            mine = totals[uid] = [zero] * WEEKS
        for k, spent in enumerate(sums):
            if spent is not None:
                mine[k] += spent
        if sums[0] is not None:
            categories_of = by_category.get(uid)
            if categories_of is None:
                categories_of = by_category[uid] = defaultdict(Decimal)
            categories_of[category] += sums[0]
    tables = None
    if foreign:
        held = {row[2] for row in grouped}
        tables = rate_tables_load(user_ids=ids, currencies=held | set(currencies.values()), until=end)
    reads = {}
    for currency in {currencies[row["user_id"]] for row in foreign}:
        mine = [row for row in foreign if currencies[row["user_id"]] == currency]
        reads.update(counted_convert(mine, currency=currency, until=end, tables=tables))
    converted, missing = {}, {}
    for uid, read in reads.items():
        mine = totals.setdefault(uid, [zero] * WEEKS)
        for group in read.groups:
            index = _week_index(group.day, week_start)
            mine[index] += group.amount
            if index == 0:
                by_category.setdefault(uid, defaultdict(Decimal))[group.category] += group.amount
        converted[uid] = [g.conversion for g in read.groups if g.conversion and g.day >= week_start]
        per_week = tuple([] for _ in range(WEEKS))
        for item in read.missing:
            per_week[_week_index(item.day, week_start)].append(item)
        missing[uid] = per_week
    weeks = {uid: tuple(spent) for uid, spent in totals.items()}
    categories = {uid: [(c, total) for c, total in spent.items() if total > 0] for uid, spent in by_category.items()}
    biggest = defaultdict(list)
    no_rates = RateTable()
    for row_id, uid, currency, category, description, amount, day in this_week:
        conversion = convert(amount, currency, day, to=currencies[uid], table=tables[uid] if tables else no_rates)
        big = BigExpense(description, amount, currency, category, day, conversion)
        biggest[uid].append((_by_converted_amount(big), -amount, row_id, big))
    ranked = {uid: [big for *_, big in sorted(rows)[:per_user]] for uid, rows in biggest.items()}
    return ReviewSpending(weeks=weeks, categories=categories, biggest=ranked, converted=converted, missing=missing)


_DUE_FIELDS = tuple(f.name for f in fields(DueSeries))


def weekly_review_rows(
    *,
    currencies: dict[int, str],
    week_start: dt.date,
    per_user: int,
    due: tuple[dt.date, dt.date],
    insights_since: dt.datetime,
) -> WeekReviewRows:
    """The weekly review's reads of a batch of users {id: currency}: the week's spending and biggest expenses
    (review_spending), the active goals, the active expense series due from `due[0]` through `due[1]` and the
    insights created from `insights_since` on."""
    ids = list(currencies)
    goals = Goal.objects.filter(AnyOf("user_id", ids), status=Goal.Status.ACTIVE).order_by(
        "user_id", "created_at", "id"
    )
    series = RecurringSeries.objects.filter(
        AnyOf("user_id", ids), status=RecurringSeries.Status.ACTIVE, direction="expense", next_on__range=due
    ).exclude(kind=RecurringSeries.Kind.TRANSFER)
    insights = Suggestion.objects.filter(
        AnyOf("user_id", ids), kind__in=list(INSIGHT_KINDS), created_at__gte=insights_since
    )
    return WeekReviewRows(
        spending=review_spending(currencies=currencies, week_start=week_start, per_user=per_user),
        goals=list(goals),
        due=[DueSeries(*row) for row in series.order_by("user_id", "next_on", "id").values_list(*_DUE_FIELDS)],
        insights=list(insights.order_by("user_id", "-created_at", "-id")),
    )


def digests_of(*, user_ids: list[int], iso_week: str) -> set[int]:
    """The users of these who already have this week's review."""
    found = WeeklyDigest.objects.filter(AnyOf("user_id", user_ids), iso_week=iso_week)
    return set(found.values_list("user_id", flat=True))


def digest_get(*, user, iso_week: str) -> WeeklyDigest | None:
    return WeeklyDigest.objects.filter(user=user, iso_week=iso_week).first()
