"""The weekly review's reads of a batch of users whose review covers the same week: each one query for the
batch, never one per user."""

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from assets.ledger.conversion import Converted, RateTable, convert
from assets.ledger.totals import counted_convert, counted_groups_query, rate_tables_load
from assets.models import Transaction
from goals.models import Goal
from suggestions.models import INSIGHT_KINDS, RecurringSeries, Suggestion, WeeklyDigest

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
class WeekReviewRows:
    spending: ReviewSpending
    goals: list[Goal]  # active, oldest first per user
    due: list[RecurringSeries]  # active expense series due in the span asked, soonest first per user
    insights: list[Suggestion]  # insights created from the moment asked on, newest first per user


def _week_index(day: dt.date, week_start: dt.date) -> int:
    """0 for the week itself, 1 for the week before, ... 4."""
    return 0 if day >= week_start else ((week_start - day).days - 1) // 7 + 1


def _by_converted_amount(big: BigExpense) -> tuple:
    """The largest converted amount first; a row no rate converts after every one that converts."""
    converted = big.conversion.converted
    return converted is None, -(converted or Decimal(0))


def review_spending(*, currencies: dict[int, str], week_start: dt.date, per_user: int) -> ReviewSpending:
    """The expenses of the week starting `week_start` and of the four before, for users {id: currency}: the
    money that counts summed per user, category, currency and day through the ledger's one read
    (assets.ledger.totals: no transfers, no excluded rows, a split row by its parts), converted into each
    user's currency at each day's rate; then the week's expenses themselves (a handful a user), whole, ranked
    by their converted amount (equal amounts in the order they were recorded). Two queries for the batch, and
    one read of the rates when another currency appears."""
    ids, end = list(currencies), week_start + dt.timedelta(days=6)
    # Only the expenses leave the database: the income groups were fetched and converted only to be dropped.
    grouped = list(
        counted_groups_query(
            user_ids=ids, currency="", since=week_start - dt.timedelta(days=7 * (WEEKS - 1)), until=end
        ).filter(direction=Transaction.Direction.EXPENSE)
    )
    this_week = list(
        Transaction.objects.not_transfers()
        .filter(user_id__in=ids, direction=Transaction.Direction.EXPENSE, occurred_on__gte=week_start)
        .filter(occurred_on__lte=end)
        .order_by("-amount", "id")
        .values("user_id", "currency", "category", "description", "amount", "occurred_on")
    )
    held = {row["currency"] for row in grouped}
    tables = None
    if any(row["currency"] != currencies[row["user_id"]] for row in grouped):
        tables = rate_tables_load(user_ids=ids, currencies=held | set(currencies.values()), until=end)
    reads = {}
    for currency in set(currencies.values()):
        mine = [row for row in grouped if currencies[row["user_id"]] == currency]
        reads.update(counted_convert(mine, currency=currency, until=end, tables=tables))
    weeks, categories, converted, missing = {}, {}, {}, {}
    for uid, read in reads.items():
        totals = [Decimal(0)] * WEEKS
        by_category = defaultdict(Decimal)
        for group in read.groups:
            index = _week_index(group.day, week_start)
            totals[index] += group.amount
            if index == 0:
                by_category[group.category] += group.amount
        weeks[uid] = tuple(totals)
        categories[uid] = [(category, total) for category, total in by_category.items() if total > 0]
        converted[uid] = [g.conversion for g in read.groups if g.conversion and g.day >= week_start]
        per_week = tuple([] for _ in range(WEEKS))
        for item in read.missing:
            per_week[_week_index(item.day, week_start)].append(item)
        missing[uid] = per_week
    biggest = defaultdict(list)
    for row in this_week:
        uid, own = row["user_id"], currencies[row["user_id"]]
        amount, currency, day = row["amount"], row["currency"], row["occurred_on"]
        conversion = convert(amount, currency, day, to=own, table=tables[uid] if tables else RateTable())
        biggest[uid].append(BigExpense(row["description"], amount, currency, row["category"], day, conversion))
    ranked = {uid: sorted(rows, key=_by_converted_amount)[:per_user] for uid, rows in biggest.items()}
    return ReviewSpending(weeks=weeks, categories=categories, biggest=ranked, converted=converted, missing=missing)


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
    goals = Goal.objects.filter(user_id__in=ids, status=Goal.Status.ACTIVE).order_by("user_id", "created_at", "id")
    series = RecurringSeries.objects.filter(
        user_id__in=ids, status=RecurringSeries.Status.ACTIVE, direction="expense", next_on__range=due
    ).exclude(kind=RecurringSeries.Kind.TRANSFER)
    insights = Suggestion.objects.filter(user_id__in=ids, kind__in=list(INSIGHT_KINDS), created_at__gte=insights_since)
    return WeekReviewRows(
        spending=review_spending(currencies=currencies, week_start=week_start, per_user=per_user),
        goals=list(goals),
        due=list(series.order_by("user_id", "next_on", "id")),
        insights=list(insights.order_by("user_id", "-created_at", "-id")),
    )


def digests_of(*, user_ids: list[int], iso_week: str) -> set[int]:
    """The users of these who already have this week's review."""
    found = WeeklyDigest.objects.filter(user_id__in=list(user_ids), iso_week=iso_week)
    return set(found.values_list("user_id", flat=True))


def digest_get(*, user, iso_week: str) -> WeeklyDigest | None:
    return WeeklyDigest.objects.filter(user=user, iso_week=iso_week).first()
