"""The weekly review's reads of a batch of users whose review covers the same week: each one query for the
batch, never one per user."""

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import F, Q, Sum

from assets.models import Transaction
from goals.models import Goal
from suggestions.models import INSIGHT_KINDS, RecurringSeries, Suggestion, WeeklyDigest

WEEKS = 5  # the week and the four before it


@dataclass(frozen=True)
class BigExpense:
    description: str
    amount: Decimal
    category: str
    occurred_on: dt.date


@dataclass(frozen=True)
class ReviewSpending:
    """The spending of a review batch, by (user, currency)."""

    weeks: dict[tuple[int, str], tuple[Decimal, ...]]  # the week's expense total, then each of the four before
    categories: dict[tuple[int, str], list[tuple[str, Decimal]]]  # (category, total) of the week, if spent
    biggest: dict[tuple[int, str], list[BigExpense]]  # the week's largest expenses, the largest first


@dataclass(frozen=True)
class WeekReviewRows:
    spending: ReviewSpending
    goals: list[Goal]  # active, oldest first per user
    due: list[RecurringSeries]  # active expense series due in the span asked, soonest first per user
    insights: list[Suggestion]  # insights created from the moment asked on, newest first per user


def review_spending(*, user_ids: list[int], week_start: dt.date, per_user: int) -> ReviewSpending:
    """The expenses of the week starting `week_start` and of the four before, in two queries: the totals of
    each week per user and currency, then the week's expenses themselves (a handful a user), added up by
    category and ranked here (equal amounts in the order they were recorded). The money that counts
    (Transaction.objects.counted(): no transfers, no excluded rows, a split row by its parts for the categories
    and whole among the biggest), per currency."""
    expenses = Transaction.objects.counted().filter(user_id__in=list(user_ids), direction=Transaction.Direction.EXPENSE)

    def week(k: int) -> Sum:
        start = week_start - dt.timedelta(days=7 * k)
        span = Q(occurred_on__gte=start, occurred_on__lte=start + dt.timedelta(days=6))
        return Sum("counted_amount", filter=span, default=Decimal(0))

    names = [f"w{k}" for k in range(WEEKS)]
    totals = (
        expenses.filter(
            occurred_on__gte=week_start - dt.timedelta(days=7 * (WEEKS - 1)),
            occurred_on__lte=week_start + dt.timedelta(days=6),
        )
        .values("user_id", "currency")
        .annotate(**{name: week(k) for k, name in enumerate(names)})
        .order_by()
    )
    weeks = {(row["user_id"], row["currency"]): tuple(row[name] for name in names) for row in totals}
    this_week = expenses.filter(occurred_on__gte=week_start, occurred_on__lte=week_start + dt.timedelta(days=6))
    spent = defaultdict(list)
    for row in (
        this_week.order_by("-amount", "id")
        .values("id", "user_id", "currency", "category", "description", "amount", "occurred_on")
        .annotate(part_category=F("counted_category"), part=F("counted_amount"))
    ):
        spent[row["user_id"], row["currency"]].append(row)
    categories, biggest = {}, {}
    for key, entries in spent.items():
        by_category = defaultdict(Decimal)
        for entry in entries:
            by_category[entry["part_category"]] += entry["part"]
        rows = list({entry["id"]: entry for entry in entries}.values())  # a split row once, whole
        categories[key] = [(category, total) for category, total in by_category.items() if total > 0]
        biggest[key] = [
            BigExpense(row["description"], row["amount"], row["category"], row["occurred_on"])
            for row in rows[:per_user]
        ]
    return ReviewSpending(weeks=weeks, categories=categories, biggest=biggest)


def weekly_review_rows(
    *,
    user_ids: list[int],
    week_start: dt.date,
    per_user: int,
    due: tuple[dt.date, dt.date],
    insights_since: dt.datetime,
) -> WeekReviewRows:
    """The weekly review's reads of a batch: the week's spending and biggest expenses (review_spending), the
    active goals, the active expense series due from `due[0]` through `due[1]` and the insights created from
    `insights_since` on."""
    ids = list(user_ids)
    goals = Goal.objects.filter(user_id__in=ids, status=Goal.Status.ACTIVE).order_by("user_id", "created_at", "id")
    series = RecurringSeries.objects.filter(
        user_id__in=ids, status=RecurringSeries.Status.ACTIVE, direction="expense", next_on__range=due
    ).exclude(kind=RecurringSeries.Kind.TRANSFER)
    insights = Suggestion.objects.filter(user_id__in=ids, kind__in=list(INSIGHT_KINDS), created_at__gte=insights_since)
    return WeekReviewRows(
        spending=review_spending(user_ids=ids, week_start=week_start, per_user=per_user),
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
