"""The nightly detection's reads of a batch of users: their ledger over the lookback and their stored series,
one query each."""

import datetime as dt
from decimal import Decimal
from typing import NamedTuple

from django.db.models import BooleanField, ExpressionWrapper, Q

from assets.models import Transaction
from suggestions.models import RecurringSeries
from suggestions.recurring.detection import Charge
from suggestions.thresholds import RECURRING_LOOKBACK_DAYS

_CHARGE_FIELDS = (
    "id",
    "user_id",
    "direction",
    "currency",
    "amount",
    "description",
    "category",
    "occurred_on",
    "in_transfer",
)


def recurring_charges(*, user_ids: list[int], today: dt.date) -> list[Charge]:
    """The rows of these users over the recurring lookback ending `today`, both directions. Every row: the
    detection groups them by counterparty (suggestions.merchants, the one folding of merchant names) and
    drops at once a counterparty without three amounts alike. The rows of paired transfers are read too,
    marked `in_transfer` (their series are transfers, docs/recurring.md); excluded rows are not."""
    in_transfer = ExpressionWrapper(Q(transfer__isnull=False), output_field=BooleanField())
    rows = (
        Transaction.objects.not_excluded()
        .annotate(in_transfer=in_transfer)
        .filter(
            user_id__in=list(user_ids),
            occurred_on__gte=today - dt.timedelta(days=RECURRING_LOOKBACK_DAYS),
            occurred_on__lte=today,
        )
    )
    return list(map(Charge._make, rows.order_by().values_list(*_CHARGE_FIELDS)))


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
