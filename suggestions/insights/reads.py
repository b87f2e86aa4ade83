"""The nightly insights' reads of a batch of users: each one query over the batch, never one per user."""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import DateField, F, Min, Q, QuerySet, Sum, Window
from django.db.models.functions import Cast, Lag

from assets.models import Transaction
from goals.models import Budget
from suggestions.insights.duplicates import Row
from suggestions.thresholds import LOOKBACK_DAYS, WEEKS_OF_HISTORY

_ROW_FIELDS = ("id", "user_id", "direction", "currency", "amount", "description", "occurred_on")


@dataclass(frozen=True)
class CategoryWeeks:
    """A user's expenses in one currency and category over the weeks a spike is measured against."""

    user_id: int
    currency: str
    category: str
    # [0]: the 7 days ending today; [k]: the 7 days ending 7k days before today; None: no expense in that
    # window (most categories have empty weeks, and only the few a spike could come from need the numbers).
    weeks: tuple[Decimal | None, ...]
    month_to_date: Decimal
    first_on: dt.date  # the first expense of the category in the windows


@dataclass(frozen=True)
class AmountKey:
    """A user's amount seen on two rows at most a day apart: where a duplicate may be."""

    user_id: int
    amount: Decimal


@dataclass(frozen=True)
class BudgetLimit:
    user_id: int
    category: str
    amount: Decimal
    currency: str


def weekly_category_totals(*, user_ids: list[int], today: dt.date) -> list[CategoryWeeks]:
    """Expense totals per user, currency and category for each 7-day window of the 91 days ending `today`,
    and since the first of today's month: one GROUP BY with a filtered SUM per window, one row per category
    (not one per week). The money that counts (Transaction.objects.counted(): no transfers, no excluded rows,
    splits by part), per currency as the spikes and the budgets' thresholds compare like with like."""
    windows = WEEKS_OF_HISTORY + 1

    def window(k: int) -> Sum:
        end = today - dt.timedelta(days=7 * k)
        return Sum("counted_amount", filter=Q(occurred_on__gte=end - dt.timedelta(days=6), occurred_on__lte=end))

    names = [f"w{k}" for k in range(windows)]
    rows = (
        Transaction.objects.counted()
        .filter(
            user_id__in=list(user_ids),
            direction=Transaction.Direction.EXPENSE,
            occurred_on__gte=today - dt.timedelta(days=7 * windows - 1),
            occurred_on__lte=today,
        )
        .values("user_id", "currency", "counted_category")
        .annotate(
            month_to_date=Sum("counted_amount", filter=Q(occurred_on__gte=today.replace(day=1)), default=Decimal(0)),
            first_on=Min("occurred_on"),
            **{name: window(k) for k, name in enumerate(names)},
        )
        .order_by()
        # Tuples, not a dict of eighteen keys per row: the group is set by values() above, and a batch reads
        # one row per user and category.
        .values_list("user_id", "currency", "counted_category", "month_to_date", "first_on", *names)
    )
    return [
        CategoryWeeks(
            user_id=row[0], currency=row[1], category=row[2], weeks=row[5:], month_to_date=row[3], first_on=row[4]
        )
        for row in rows
    ]


def _lookback(user_ids, today: dt.date) -> QuerySet[Transaction]:
    since = today - dt.timedelta(days=LOOKBACK_DAYS)
    # A transfer between the user's own accounts, or a row they excluded, is no charge that could be doubled.
    return Transaction.objects.not_transfers().filter(
        user_id__in=list(user_ids), occurred_on__gte=since, occurred_on__lte=today
    )


def close_repeats(*, user_ids: list[int], today: dt.date) -> set[AmountKey]:
    """The amounts of each user with two rows at most a day apart in the lookback, any direction and currency
    (the caller checks those on the few rows): LAG over the user's rows of one amount, filtered in the
    database, so only the candidates come back."""
    rows = (
        _lookback(user_ids, today)
        .annotate(
            previous_on=Window(Lag("occurred_on"), partition_by=[F("user_id"), F("amount")], order_by="occurred_on")
        )
        .annotate(close_until=Cast(F("previous_on") + dt.timedelta(days=1), DateField()))
        .filter(close_until__gte=F("occurred_on"))
        .order_by()
        .values_list("user_id", "amount")
    )
    return {AmountKey(user_id, amount) for user_id, amount in rows}


def rows_with_amounts(*, candidates: set[AmountKey], today: dt.date) -> list[Row]:
    """The lookback rows of these candidates, both directions, by user and id: the clusters themselves, their
    recurring series and their refunds. Only the candidates' rows: a user's rows at another candidate's
    amount are left out."""
    if not candidates:
        return []
    rows = (
        _lookback({c.user_id for c in candidates}, today)
        .filter(amount__in={c.amount for c in candidates})
        .order_by("user_id", "id")
        .values_list(*_ROW_FIELDS)
    )
    return [Row(*row) for row in rows if AmountKey(row[1], row[4]) in candidates]


def lookback_rows(*, user_ids: set[int], today: dt.date) -> list[Row]:
    """Every lookback row of these users: how often each merchant sees them. Read only for the few users a
    duplicate is still suspected for."""
    if not user_ids:
        return []
    return [Row(*row) for row in _lookback(user_ids, today).order_by().values_list(*_ROW_FIELDS)]


def budgets_of(*, user_ids: list[int]) -> list[BudgetLimit]:
    rows = Budget.objects.filter(user_id__in=list(user_ids)).order_by("id")
    return [BudgetLimit(*row) for row in rows.values_list("user_id", "category", "amount", "currency")]
