"""Reads: a user's suggestions, and the batch aggregates the insights job runs over many users at once."""

import datetime as dt
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db.models import QuerySet

from assets.selectors import expense_weekly_totals, transaction_close_repeats, transaction_rows
from goals.selectors import budget_rows
from suggestions.duplicates import Row
from suggestions.models import Suggestion
from suggestions.thresholds import BATCH_SIZE, LOOKBACK_DAYS, WEEKS_OF_HISTORY
from zeus.errors import NotFound, ValidationFailed
from zeus.models import DEFAULT_LANGUAGE, DEFAULT_TIMEZONE
from zeus.money import DEFAULT_CURRENCY


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


def suggestion_to_dict(suggestion: Suggestion) -> dict:
    """The one public shape of a suggestion (CONTRACT §2), for the chat's tools and cards."""
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


@dataclass(frozen=True)
class CategoryWeeks:
    user_id: int
    currency: str
    category: str
    weeks: list[Decimal]  # [0]: the 7 days ending today; [k]: the 7 days ending 7k days before today
    month_to_date: Decimal
    first_on: dt.date


def weekly_category_totals(*, user_ids: list[int], today: dt.date) -> list[CategoryWeeks]:
    """Expense totals per user, currency and category for each 7-day window of the 91 days ending `today`,
    and since the first of today's month: one query (assets.selectors.expense_weekly_totals), one row per
    category (not one per week)."""
    rows = expense_weekly_totals(user_ids=user_ids, today=today, windows=WEEKS_OF_HISTORY + 1)
    zero = Decimal(0)
    return [CategoryWeeks(u, c, cat, [w or zero for w in weeks], m or zero, f) for u, c, cat, m, f, *weeks in rows]


def close_repeats(*, user_ids: list[int], today: dt.date) -> set[tuple[int, Decimal]]:
    """(user, amount) pairs with two rows at most a day apart in the lookback, found in the database."""
    return transaction_close_repeats(user_ids=user_ids, since=_lookback_start(today), until=today)


def rows_with_amounts(*, candidates: set[tuple[int, Decimal]], today: dt.date) -> list[Row]:
    """The lookback rows of these (user, amount) candidates, both directions: the clusters themselves, their
    recurring series and their refunds."""
    if not candidates:
        return []
    users = {u for u, _ in candidates}
    amounts = {a for _, a in candidates}
    rows = transaction_rows(user_ids=users, since=_lookback_start(today), until=today, amounts=amounts)
    return [Row(*row) for row in rows if (row[1], row[4]) in candidates]


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
