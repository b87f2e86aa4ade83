"""The nightly detection of recurring series (docs/contract/tasks.md, `suggestions.detect_recurring`): per
batch of users, their ledger and stored series read (suggestions/recurring/reads.py), the series found in
Python (suggestions/recurring/detection.py), one insert and one update of the stored series, then the
insights they raise (a price that rose, a bill the plan cannot cover)."""

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, fields
from decimal import Decimal

from django.db import transaction
from django.utils import timezone, translation

from plans.selectors import plan_summaries
from suggestions.batches import BatchUser, local_today, user_batches
from suggestions.drafts import Draft
from suggestions.models import RecurringSeries
from suggestions.recurring import detection
from suggestions.recurring.insights import bill_due_draft, price_change_draft
from suggestions.recurring.reads import SeriesValues, recurring_rows, stored_series
from suggestions.services import insights_store
from suggestions.sql import SeriesKey, series_insert
from suggestions.thresholds import BILL_DUE_DAYS
from zeus.timeutil import month_bounds


@dataclass
class RecurringResult:
    series: int = 0
    created: int = 0
    ended: int = 0
    insights: int = 0

    def add(self, other: "RecurringResult") -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


def recurring_detect(
    *,
    user_ids: list[int] | None = None,
    user_id_range: tuple[int, int] | None = None,
    now: dt.datetime | None = None,
) -> RecurringResult:
    """Detects the series of these users (default: every active one; or the ids in a fan-out range) in
    bounded batches. A re-run changes nothing and raises no insight twice."""
    now = now or timezone.now()
    result = RecurringResult()
    for batch in user_batches(user_ids=user_ids, user_id_range=user_id_range):
        result.add(recurring_detect_batch(users=batch, now=now))
    return result


@dataclass(frozen=True)
class PriceRise:
    key: SeriesKey
    values: SeriesValues
    previous_amount: Decimal


def _model(key: SeriesKey, series_id: int | None, values: SeriesValues) -> RecurringSeries:
    user_id, direction, currency, series_key = key
    return RecurringSeries(
        id=series_id,
        user_id=user_id,
        direction=direction,
        currency=currency,
        key=series_key,
        **values._asdict(),
    )


def recurring_detect_batch(*, users: list[BatchUser], now: dt.datetime) -> RecurringResult:
    """One batch: the ledger over the lookback and the stored series in two queries, the detection in
    Python, one insert and one update for the series (a series found as stored is not written), then the
    insights (plans are read only when a bill is near). A model instance is built only for a row updated or
    named by an insight; the new rows go in as values (suggestions.sql.series_insert)."""
    today_of = {u.id: local_today(u.timezone, now) for u in users}
    languages = {u.id: u.language or "vi" for u in users}  # each insight in its reader's language
    if not today_of:
        return RecurringResult()
    detected = detection.detect(recurring_rows(today_of=today_of))
    stored = stored_series(user_ids=list(today_of))
    result = RecurringResult(series=len(detected))
    new: dict[SeriesKey, SeriesValues] = {}
    changed, rises = [], []
    # Every series of the batch as it stands after this run: its id (None while new) and its values.
    current: dict[SeriesKey, tuple[int | None, SeriesValues]] = {}
    active, ended, dismissed = (
        RecurringSeries.Status.ACTIVE,
        RecurringSeries.Status.ENDED,
        RecurringSeries.Status.DISMISSED,
    )
    for found in detected:
        key = (found.user_id, found.direction, found.currency, found.key)
        row = stored.get(key)
        before = None if row is None else row.values
        if before is not None and before.status == dismissed:
            status = dismissed
        elif detection.is_overdue(found.next_on, found.interval, today_of[found.user_id]):
            status = ended
        else:
            status = active
        values = SeriesValues(
            merchant=found.merchant,
            kind=found.kind,
            amount=found.amount,
            previous_amount=found.previous_amount,
            interval=found.interval,
            last_on=found.last_on,
            next_on=found.next_on,
            category=found.category,
            occurrences=found.occurrences,
            status=status,
        )
        if before is None:
            new[key] = values
        elif before != values:
            changed.append(_model(key, row.id, values))
        if found.rose and status == active:
            rises.append(PriceRise(key, values, found.previous_amount))
        current[key] = (None if row is None else row.id, values)
        if status == ended and (before is None or before.status != ended):
            result.ended += 1
    for key, row in stored.items():
        if key in current:
            continue
        values = row.values
        if values.status == active and detection.is_overdue(values.next_on, values.interval, today_of[key[0]]):
            values = values._replace(status=ended)
            changed.append(_model(key, row.id, values))
            result.ended += 1
        current[key] = (row.id, values)
    if new or changed:
        stamp = timezone.now()
        for model in changed:
            model.updated_at = stamp
        with transaction.atomic():
            ids = series_insert(new, stamp=stamp)
            RecurringSeries.objects.bulk_update(changed, [*SeriesValues._fields, "updated_at"])
        for key, series_id in ids.items():
            current[key] = (series_id, current[key][1])
    result.created = len(new)
    drafts: dict[int, list[Draft]] = defaultdict(list)
    for rise in rises:
        user_id = rise.key[0]
        with translation.override(languages[user_id]):
            series = _model(rise.key, current[rise.key][0], rise.values)
            drafts[user_id].append(price_change_draft(series, previous=rise.previous_amount))
    for user_id, draft in _bills_due(current, today_of, languages):
        drafts[user_id].append(draft)
    result.insights = insights_store(drafts)
    return result


def _bills_due(
    current: dict[SeriesKey, tuple[int | None, SeriesValues]], today_of: dict[int, dt.date], languages: dict[int, str]
):
    """Active expense series due from today to a week ahead, within the user's month, whose amount is more
    than the safe-to-spend the user's plan has left for the month."""
    horizons = {
        user_id: min(today + dt.timedelta(days=BILL_DUE_DAYS), month_bounds(today.year, today.month)[1])
        for user_id, today in today_of.items()
    }
    near = []
    for key, (series_id, values) in current.items():
        user_id = key[0]
        if (
            values.status == RecurringSeries.Status.ACTIVE
            and key[1] == "expense"
            and today_of[user_id] <= values.next_on <= horizons[user_id]
        ):
            near.append(_model(key, series_id, values))
    if not near:
        return
    plans = plan_summaries(today_by_user={r.user_id: today_of[r.user_id] for r in near})
    for row in near:
        plan = plans.get(row.user_id)
        if plan is not None and plan.currency == row.currency and row.amount > plan.safe_left:
            with translation.override(languages[row.user_id]):
                draft = bill_due_draft(row, safe_left=plan.safe_left, today=today_of[row.user_id])
            yield row.user_id, draft
