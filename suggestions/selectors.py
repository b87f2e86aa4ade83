"""Reads: a user's suggestions, and the batch aggregates the insights job runs over many users at once."""

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields
from decimal import Decimal
from typing import NamedTuple

from django.contrib.auth import get_user_model
from django.db.models import QuerySet

from assets.selectors import (
    expense_week_review_read,
    expense_weekly_totals,
    transaction_charge_candidates,
    transaction_close_repeats,
    transaction_rows,
    transaction_rows_of_pairs,
)
from goals.selectors import active_goals_query, budget_rows
from plans.selectors import active_plans_query
from suggestions import recurring
from suggestions.duplicates import DROPPED_WORDS, Row
from suggestions.models import INSIGHT_KINDS, RecurringSeries, Suggestion, WeeklyDigest
from suggestions.thresholds import BATCH_SIZE, LOOKBACK_DAYS, RECURRING_LOOKBACK_DAYS, WEEKS_OF_HISTORY
from zeus.batch import Rows, arrays_supported, run_batch
from zeus.errors import NotFound, ValidationFailed
from zeus.models import DEFAULT_LANGUAGE, DEFAULT_TIMEZONE
from zeus.money import DEFAULT_CURRENCY, quantize
from zeus.timeutil import user_today


def suggestion_list(*, user, status: str | None = Suggestion.Status.ACTIVE) -> QuerySet[Suggestion]:
    """Active ones by default; `status` may be active, dismissed, completed or all."""
    qs = Suggestion.objects.filter(user=user)
    if status and status != "all":
        if status not in Suggestion.Status.values:
            raise ValidationFailed(
                "status must be active, dismissed, completed or all.", fields={"status": ["Not valid."]}
            )
        qs = qs.filter(status=status)
    return qs.order_by("-created_at", "-id")


def suggestion_list_active(*, user, limit: int = 5) -> list[Suggestion]:
    """The newest active suggestions, as a list (safe to hand across sync_to_async). The chat reads these."""
    limit = max(1, min(int(limit), 50))
    return list(suggestion_list(user=user)[:limit])


# The home's two reads of this app, on every load. Each is `Model.objects.raw` over the same rows, in the same
# order, as the ORM read named in its docstring: building and compiling those querysets cost more CPU than
# running them (0.55 ms against 0.2 ms a read, measured), and the home makes four such reads.
_HOME_INSIGHTS_SQL = (
    f"SELECT * FROM {Suggestion._meta.db_table} WHERE user_id = %s AND status = %s"
    " ORDER BY created_at DESC, id DESC LIMIT %s"
)
_HOME_BILLS_SQL = (
    f"SELECT * FROM {RecurringSeries._meta.db_table} WHERE user_id = %s AND status = %s"
    " AND next_on >= %s AND next_on <= %s ORDER BY next_on, id LIMIT %s"
)


def home_insights_query(*, user, limit: int):
    """`suggestion_list_active(user=user, limit=limit)`, for the home, unevaluated (the home sends its small
    reads in one round trip: zeus/panels.py)."""
    return Suggestion.objects.raw(_HOME_INSIGHTS_SQL, [user.pk, Suggestion.Status.ACTIVE, limit])


def home_insights(*, user, limit: int) -> list[Suggestion]:
    return list(home_insights_query(user=user, limit=limit))


def home_recurring_due_query(*, user, today: dt.date, within_days: int, limit: int):
    """`recurring_list(user=user, due_within_days=within_days, today=today)[:limit]`, for the home,
    unevaluated."""
    until = today + dt.timedelta(days=within_days)
    params = [user.pk, RecurringSeries.Status.ACTIVE, today, until, limit]
    return RecurringSeries.objects.raw(_HOME_BILLS_SQL, params)


def home_recurring_due(*, user, today: dt.date, within_days: int, limit: int) -> list[RecurringSeries]:
    return list(home_recurring_due_query(user=user, today=today, within_days=within_days, limit=limit))


def suggestion_to_dict(suggestion: Suggestion) -> dict:
    """The one public shape of a suggestion (docs/contract/rest.md), for the chat's tools and cards."""
    return {
        "id": suggestion.id,
        "kind": suggestion.kind,
        "title": suggestion.title,
        "body": suggestion.body,
        "cta_url": suggestion.cta_url,
        "prompt": suggestion.prompt,
        "status": suggestion.status,
        "created_at": suggestion.created_at.isoformat(),
    }


def suggestion_get(*, user, suggestion_id) -> Suggestion:
    try:
        return Suggestion.objects.get(user=user, id=int(suggestion_id))
    except (Suggestion.DoesNotExist, TypeError, ValueError):
        raise NotFound("No such suggestion.") from None


# The insights job's reads. Each is one query over a batch of users, never one per user.


@dataclass(frozen=True)
class BatchUser:
    id: int
    timezone: str
    currency: str
    language: str = DEFAULT_LANGUAGE


def user_batches(
    *, user_ids: Iterable[int] | None = None, user_id_range: tuple[int, int] | None = None, size: int = BATCH_SIZE
) -> Iterator[list[BatchUser]]:
    """Active users in id order, `size` at a time, with their clock and currency (keyset pages); only these
    ids, or only the ids in [first, last] (a fan-out batch), if given."""
    qs = get_user_model().objects.filter(is_active=True).order_by("id")
    if user_ids is not None:
        qs = qs.filter(id__in=list(user_ids))
    if user_id_range is not None:
        qs = qs.filter(id__range=user_id_range)
    last = 0
    while True:
        page = list(
            qs.filter(id__gt=last).values_list("id", "profile__timezone", "profile__currency", "profile__language")[
                :size
            ]
        )
        if not page:
            return
        yield [
            BatchUser(uid, tz or DEFAULT_TIMEZONE, cur or DEFAULT_CURRENCY, lang or DEFAULT_LANGUAGE)
            for uid, tz, cur, lang in page
        ]
        last = page[-1][0]
        # A short page is the last, and so is one that reached the range's end: no query for an empty page.
        if len(page) < size or (user_id_range is not None and last >= user_id_range[1]):
            return


class CategoryWeeks(NamedTuple):
    user_id: int
    currency: str
    category: str
    # [0]: the 7 days ending today; [k]: the 7 days ending 7k days before today; None: no expense in that
    # window (most categories have empty weeks, and only the few a spike could come from need the numbers).
    weeks: tuple[Decimal | None, ...]
    month_to_date: Decimal
    first_on: dt.date


def weekly_category_totals(*, user_ids: list[int], today: dt.date) -> list[CategoryWeeks]:
    """Expense totals per user, currency and category for each 7-day window of the 91 days ending `today`,
    and since the first of today's month: one query (assets.selectors.expense_weekly_totals), one row per
    category (not one per week)."""
    rows = expense_weekly_totals(user_ids=user_ids, today=today, windows=WEEKS_OF_HISTORY + 1)
    zero = Decimal(0)
    return [CategoryWeeks(row[0], row[1], row[2], row[5:], row[3] or zero, row[4]) for row in rows]


def close_repeats(*, user_ids: list[int], today: dt.date) -> set[tuple[int, Decimal]]:
    """(user, amount) pairs with two rows at most a day apart in the lookback, found in the database."""
    return transaction_close_repeats(user_ids=user_ids, since=_lookback_start(today), until=today)


def rows_with_amounts(*, candidates: set[tuple[int, Decimal]], today: dt.date) -> list[Row]:
    """The lookback rows of these (user, amount) candidates, both directions: the clusters themselves, their
    recurring series and their refunds."""
    rows = transaction_rows_of_pairs(pairs=candidates, since=_lookback_start(today), until=today)
    return [Row(*row) for row in rows]


def lookback_rows(*, user_ids: set[int], today: dt.date) -> list[Row]:
    """Every lookback row of these users: how often each merchant sees them. Read only for the few users a
    duplicate is still suspected for."""
    if not user_ids:
        return []
    return [Row(*row) for row in transaction_rows(user_ids=user_ids, since=_lookback_start(today), until=today)]


def _lookback_start(today: dt.date) -> dt.date:
    return today - dt.timedelta(days=LOOKBACK_DAYS)


@dataclass(frozen=True)
class BudgetLimit:
    user_id: int
    category: str
    amount: Decimal
    currency: str


def budgets_of(*, user_ids: list[int]) -> list[BudgetLimit]:
    return [BudgetLimit(*row) for row in budget_rows(user_ids=user_ids)]


def existing_dedupe_keys(*, user_ids: list[int], keys: Iterable[str]) -> dict[tuple[int, str], dict]:
    """(user id, key) → payload of the suggestions that already hold these keys, in any status."""
    keys = list(set(keys))
    if not keys:
        return {}
    rows = Suggestion.objects.filter(user_id__in=user_ids, dedupe_key__in=keys).values_list(
        "user_id", "dedupe_key", "payload"
    )
    return {(u, k): p for u, k, p in rows}


# Recurring series: the user's list, and the detection job's two reads per batch.


def recurring_list(
    *, user, status: str | None = "active", due_within_days=None, kind: str | None = None, today: dt.date | None = None
) -> QuerySet[RecurringSeries]:
    """The user's series, soonest next charge first. `status`: active (default), ended, dismissed or all;
    `due_within_days`: only series whose next charge is due from today through that many days ahead."""
    qs = RecurringSeries.objects.filter(user=user)
    if status and status != "all":
        if status not in RecurringSeries.Status.values:
            raise ValidationFailed("status must be active, ended, dismissed or all.", fields={"status": ["Not valid."]})
        qs = qs.filter(status=status)
    if kind and kind != "all":
        if kind not in RecurringSeries.Kind.values:
            raise ValidationFailed("kind must be subscription, bill, income or all.", fields={"kind": ["Not valid."]})
        qs = qs.filter(kind=kind)
    if due_within_days not in (None, ""):
        try:
            days = int(due_within_days)
        except (TypeError, ValueError):
            days = -1
        if not 0 <= days <= 366:
            raise ValidationFailed(
                "due_within_days must be a whole number from 0 to 366.",
                fields={"due_within_days": ["Use 0 to 366."]},
            )
        today = today or user_today(user)
        qs = qs.filter(next_on__gte=today, next_on__lte=today + dt.timedelta(days=days))
    return qs.order_by("next_on", "id")


def recurring_get(*, user, series_id) -> RecurringSeries:
    try:
        return RecurringSeries.objects.get(user=user, id=int(series_id))
    except (RecurringSeries.DoesNotExist, TypeError, ValueError):
        raise NotFound("No such recurring series.") from None


def recurring_to_dict(series: RecurringSeries) -> dict:
    """The public shape of a series (docs/recurring.md), for the chat's tool and the pages."""
    c = series.currency
    return {
        "id": series.id,
        "merchant": series.merchant,
        "kind": series.kind,
        "amount": str(quantize(series.amount, c)),
        "currency": c,
        "interval": series.interval,
        "last_on": series.last_on.isoformat(),
        "next_on": series.next_on.isoformat(),
        "category": series.category,
        "status": series.status,
        "monthly_cost": str(quantize(recurring.monthly_cost(series.amount, series.interval), c)),
        "yearly_cost": str(quantize(recurring.yearly_cost(series.amount, series.interval), c)),
    }


def recurring_candidates(*, user_ids: list[int], today: dt.date) -> list[recurring.Charge]:
    """The rows of these users over the recurring lookback ending `today` that may be part of a series: one
    query, which drops in the database the merchants without three amounts alike (recurring.detect_group's
    first check, on a coarser grouping: nothing that can be a series is left out)."""
    since = today - dt.timedelta(days=RECURRING_LOOKBACK_DAYS)
    return transaction_charge_candidates(
        user_ids=user_ids,
        since=since,
        until=today,
        dropped_words=DROPPED_WORDS,
        tolerances=recurring.TOLERANCE_BY_CATEGORY,
        tolerance=recurring.TOLERANCE,
        row=recurring.Charge,
    )


@dataclass(slots=True)
class SeriesRow:
    """A stored series as the nightly detection reads and rewrites it: plain attributes, not a model (the
    batch reads thousands). `id` is None until it is inserted."""

    id: int | None
    user_id: int
    direction: str
    currency: str
    key: str
    merchant: str = ""
    kind: str = ""
    amount: Decimal | None = None
    previous_amount: Decimal | None = None
    interval: str = ""
    last_on: dt.date | None = None
    next_on: dt.date | None = None
    category: str = ""
    occurrences: int = 0
    status: str = RecurringSeries.Status.ACTIVE


SERIES_ROW = tuple(f.name for f in fields(SeriesRow))


def series_rows_of(*, user_ids: list[int]) -> dict[tuple[int, str, str, str], SeriesRow]:
    """The stored series of these users by (user, direction, currency, key), as SeriesRow: one query."""
    rows = RecurringSeries.objects.filter(user_id__in=user_ids).order_by().values_list(*SERIES_ROW)
    return {(r[1], r[2], r[3], r[4]): SeriesRow(*r) for r in rows}


# The weekly review's reads: each one query for a batch of users whose review covers the same week.


class BigExpense(NamedTuple):  # a tuple: a review batch reads some 1,500
    user_id: int
    description: str
    amount: Decimal
    currency: str
    category: str
    occurred_on: dt.date


class ReviewSpending(NamedTuple):
    """The spending of a review batch, by (user, currency)."""

    weeks: dict[tuple[int, str], tuple[Decimal, ...]]  # the week's expense total, then each of the four before
    categories: dict[tuple[int, str], list[tuple[str, Decimal]]]  # (category, total) of the week, if spent
    biggest: dict[tuple[int, str], list[BigExpense]]  # the week's largest expenses, the largest first


def review_spending(rows: list[tuple], *, per_user: int) -> ReviewSpending:
    """`assets.selectors.expense_week_review_read`'s rows keyed as the review looks them up: the week's
    expenses added up by category, and the `per_user` largest of them kept (equal ones in the order they
    were recorded, as ORDER BY amount DESC, id)."""
    weeks = {}
    expenses = defaultdict(list)
    for row in rows:
        if row[0] == 0:
            weeks[row[1], row[2]] = row[7:]
        else:
            expenses[row[1], row[2]].append(row)
    categories, biggest = {}, {}
    for key, spent in expenses.items():
        totals = {}
        for row in spent:
            totals[row[3]] = totals.get(row[3], 0) + row[7]
        categories[key] = [(category, total) for category, total in totals.items() if total > 0]
        spent.sort(key=_largest_then_oldest)
        biggest[key] = [
            BigExpense(user_id, description, amount, currency, category, occurred_on)
            for _part, user_id, currency, category, description, occurred_on, _id, amount, *_none in spent[:per_user]
        ]
    return ReviewSpending(weeks, categories, biggest)


def _largest_then_oldest(row):
    return -row[7], row[6]


class DueSeries(NamedTuple):
    id: int
    user_id: int
    merchant: str
    kind: str
    amount: Decimal
    currency: str
    interval: str
    next_on: dt.date


class Insight(NamedTuple):
    id: int
    user_id: int
    kind: str
    title: str
    cta_url: str
    created_at: dt.datetime


# Active expense series expected in a span, soonest first; insights from a moment on, newest first.
_DUE_SQL = (
    f"SELECT {', '.join(DueSeries._fields)} FROM {RecurringSeries._meta.db_table} "
    "WHERE user_id = ANY(%s) AND status = %s AND direction = 'expense' AND next_on BETWEEN %s AND %s "
    "ORDER BY user_id, next_on, id"
)
_INSIGHTS_SQL = (
    f"SELECT {', '.join(Insight._fields)} FROM {Suggestion._meta.db_table} "
    "WHERE user_id = ANY(%s) AND kind = ANY(%s) AND created_at >= %s ORDER BY user_id, created_at DESC, id DESC"
)


def _due_read(ids: list[int], due: tuple[dt.date, dt.date]):
    if arrays_supported():
        return Rows(_DUE_SQL, [ids, RecurringSeries.Status.ACTIVE, *due])
    series = RecurringSeries.objects.filter(user_id__in=ids, status=RecurringSeries.Status.ACTIVE)
    series = series.filter(direction="expense", next_on__range=due).order_by("user_id", "next_on", "id")
    return series.values_list(*DueSeries._fields)


def _insights_read(ids: list[int], since: dt.datetime):
    if arrays_supported():
        return Rows(_INSIGHTS_SQL, [ids, list(INSIGHT_KINDS), since])
    insights = Suggestion.objects.filter(user_id__in=ids, kind__in=list(INSIGHT_KINDS), created_at__gte=since)
    return insights.order_by("user_id", "-created_at", "-id").values_list(*Insight._fields)


class WeekReviewRows(NamedTuple):
    spending: ReviewSpending
    planned: set[int]  # the users with an active plan for one of the months
    goals: list  # goals.models.Goal, active, oldest first per user
    due: list[DueSeries]
    insights: list[Insight]


def weekly_review_rows(
    *,
    user_ids: list[int],
    week_start: dt.date,
    per_user: int,
    plan_months: set[dt.date],
    due: tuple[dt.date, dt.date],
    insights_since: dt.datetime,
) -> WeekReviewRows:
    """The weekly review's reads of a batch, sent in one round trip (zeus/batch.py), each a plain statement
    over the batch's ids as one array: the week's spending and biggest expenses
    (assets.selectors.expense_week_review_read, keyed by review_spending), which users have an active plan
    (plans.selectors.plan_summaries is asked only for them), the active goals, the active expense series due
    from `due[0]` through `due[1]` and the insights created from `insights_since` on. Building the ORM
    querysets of these reads cost more CPU than PostgreSQL took to answer them (docs/digest.md)."""
    ids = list(user_ids)
    reads = [
        expense_week_review_read(user_ids=ids, week_start=week_start, weeks=5),
        active_plans_query(user_ids=ids, months=plan_months),
        active_goals_query(user_ids=ids),
        _due_read(ids, due),
        _insights_read(ids, insights_since),
    ]
    spent, plans, goals, due_rows, insights = run_batch(reads)
    return WeekReviewRows(
        spending=review_spending(spent, per_user=per_user),
        planned={p.user_id for p in plans},
        goals=goals,
        due=[DueSeries(*row) for row in due_rows],
        insights=[Insight(*row) for row in insights],
    )


_DIGESTS_OF_SQL = f"SELECT user_id FROM {WeeklyDigest._meta.db_table} WHERE user_id = ANY(%s) AND iso_week = %s"


def digests_of(*, user_ids: list[int], iso_week: str) -> set[int]:
    """The users of these who already have this week's review: a plain statement over the ids as one array
    (the ORM's IN list of a batch's 500 ids cost more CPU than the read)."""
    if not arrays_supported():
        found = WeeklyDigest.objects.filter(user_id__in=list(user_ids), iso_week=iso_week)
        return set(found.values_list("user_id", flat=True))
    return {user_id for (user_id,) in Rows(_DIGESTS_OF_SQL, [list(user_ids), iso_week]).run()}


def digest_get(*, user, iso_week: str) -> WeeklyDigest | None:
    return WeeklyDigest.objects.filter(user=user, iso_week=iso_week).first()
