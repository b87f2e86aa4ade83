"""The nightly detection's reads of a batch of users: their ledger over the lookback and their stored series,
one query each."""

import datetime as dt

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
    return [Charge(*row) for row in rows.order_by().values_list(*_CHARGE_FIELDS)]


def stored_series(*, user_ids: list[int]) -> dict[tuple[int, str, str, str], RecurringSeries]:
    """The stored series of these users by (user, direction, currency, key)."""
    series = RecurringSeries.objects.filter(user_id__in=list(user_ids)).order_by()
    return {(s.user_id, s.direction, s.currency, s.key): s for s in series}
