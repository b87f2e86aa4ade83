"""The nightly detection's reads of a batch of users: their ledger over the lookback and their stored series,
one query each."""

import datetime as dt
import functools
import operator
from collections import defaultdict
from decimal import Decimal
from typing import NamedTuple

from django.db.models import BooleanField, ExpressionWrapper, Q

from assets.models import Transaction
from suggestions.models import RecurringSeries
from suggestions.recurring.detection import Charge
from suggestions.thresholds import RECURRING_LOOKBACK_DAYS


def recurring_rows(*, today_of: dict[int, dt.date]) -> list[tuple]:
    """The rows of these users (user id: the user's today) over the recurring lookback ending on the latest
    of their todays, each up to its owner's today, both directions, as tuples in Charge's field order (the
    detection makes a Charge only of a group that can hold a series). Every row: the detection groups them by
    counterparty (suggestions.merchants, the one folding of merchant names) and drops at once a counterparty
    without three amounts alike. The rows of paired transfers are read too, marked `in_transfer` (their series
    are transfers, docs/recurring.md); excluded rows are not."""
    if not today_of:
        return []
    in_transfer = ExpressionWrapper(Q(transfer__isnull=False), output_field=BooleanField())
    # Each user's rows end on their own today: one condition per distinct today (a batch's users span a day
    # or two of clocks), so no row past its owner's today is read, nor checked one by one after.
    by_today: dict[dt.date, list[int]] = defaultdict(list)
    for user_id, today in today_of.items():
        by_today[today].append(user_id)
    up_to_today = functools.reduce(
        operator.or_, (Q(user_id__in=ids, occurred_on__lte=today) for today, ids in sorted(by_today.items()))
    )
    rows = (
        Transaction.objects.not_excluded()
        .annotate(in_transfer=in_transfer)
        .filter(up_to_today, occurred_on__gte=max(today_of.values()) - dt.timedelta(days=RECURRING_LOOKBACK_DAYS))
    )
    return list(rows.order_by().values_list(*Charge._fields))


# What the nightly detection compares and writes, after the series' identity (user, direction, currency, key).
class SeriesValues(NamedTuple):
    merchant: str
    kind: str
    amount: Decimal
    previous_amount: Decimal | None
    interval: str
    last_on: dt.date
    next_on: dt.date
    category: str
    occurrences: int
    status: str


class StoredSeries(NamedTuple):
    id: int
    values: SeriesValues


def stored_series(*, user_ids: list[int]) -> dict[tuple[int, str, str, str], StoredSeries]:
    """The stored series of these users by (user, direction, currency, key): each its id and its values (the
    detection compares them; it builds a model only for a row it writes)."""
    rows = (
        RecurringSeries.objects.filter(user_id__in=list(user_ids))
        .order_by()
        .values_list("user_id", "direction", "currency", "key", "id", *SeriesValues._fields)
    )
    return {row[:4]: StoredSeries(row[4], SeriesValues._make(row[5:])) for row in rows}
