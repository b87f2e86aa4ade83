"""Reads of the ledger, always scoped to one user."""

import datetime as dt
from collections.abc import Iterable
from decimal import Decimal

from django.db.models import QuerySet, Sum

from assets.models import Asset, LinkedAccount, Source, Transaction
from zeus.errors import NotFound, ValidationFailed
from zeus.timeutil import parse_date


def asset_list(*, user, source: str | None = None) -> QuerySet[Asset]:
    qs = Asset.objects.filter(user=user)
    if source and source != "all":
        if source not in Source.values:
            raise ValidationFailed("source must be manual, synced or all.", fields={"source": ["Not a source."]})
        qs = qs.filter(source=source)
    return qs


def asset_get(*, user, asset_id) -> Asset:
    try:
        return Asset.objects.get(user=user, id=int(asset_id))
    except (Asset.DoesNotExist, TypeError, ValueError):
        raise NotFound("No such asset.") from None


def linked_account_list(*, user) -> QuerySet[LinkedAccount]:
    return LinkedAccount.objects.filter(user=user)


def transaction_list(
    *,
    user,
    since: dt.date | str | None = None,
    until: dt.date | str | None = None,
    category: str | None = None,
    direction: str | None = None,
    source: str | None = None,
    asset_id=None,
) -> QuerySet[Transaction]:
    """Newest first. Every filter is validated: a malformed one is a ValidationFailed, never a 500."""
    from assets import categories

    qs = Transaction.objects.filter(user=user)
    if since:
        qs = qs.filter(occurred_on__gte=parse_date(since, "since"))
    if until:
        qs = qs.filter(occurred_on__lte=parse_date(until, "until"))
    if category:
        if category not in categories.ALL:
            raise ValidationFailed(f"Unknown category {category!r}.", fields={"category": ["Not a category."]})
        qs = qs.filter(category=category)
    if direction:
        if direction not in Transaction.Direction.values:
            raise ValidationFailed("direction must be expense or income.", fields={"direction": ["Not valid."]})
        qs = qs.filter(direction=direction)
    if source and source != "all":
        if source not in Source.values:
            raise ValidationFailed("source must be manual, synced or all.", fields={"source": ["Not a source."]})
        qs = qs.filter(source=source)
    if asset_id not in (None, ""):
        try:
            asset_id = int(asset_id)
        except (TypeError, ValueError):
            raise ValidationFailed("asset must be an id.", fields={"asset": ["Not an id."]}) from None
        # Another user's asset is a 404 here as everywhere, not an empty list that confirms nothing.
        if not Asset.objects.filter(user=user, id=asset_id).exists():
            raise NotFound("No such asset.", fields={"asset": ["No such asset."]})
        qs = qs.filter(asset_id=asset_id)
    return qs.order_by("-occurred_on", "-id")


def transaction_get(*, user, transaction_id) -> Transaction:
    try:
        return Transaction.objects.select_related("asset").get(user=user, id=int(transaction_id))
    except (Transaction.DoesNotExist, TypeError, ValueError):
        raise NotFound("No such transaction.") from None


def expense_totals_by_category(*, user, currency: str, since: dt.date, until: dt.date) -> dict[str, Decimal]:
    """Expense totals per category in one currency over [since, until], summed in the database."""
    rows = (
        Transaction.objects.filter(
            user=user,
            currency=currency,
            direction=Transaction.Direction.EXPENSE,
            occurred_on__gte=since,
            occurred_on__lte=until,
        )
        .values("category")
        .annotate(total=Sum("amount"))
    )
    return {row["category"]: row["total"] for row in rows}


def expense_totals_by_category_and_day(
    *, user_ids: Iterable[int], since: dt.date, until: dt.date, currency: str | None = None
) -> list[dict]:
    """Expense totals per (user, currency, category, day) over [since, until], summed in the database: one
    query for any number of users. Rows are dicts with user_id, currency, category, occurred_on and total.

    The plan ledgers read a month this way, one plan or a job batch of thousands at once: one aggregate gives
    both the per-category and the per-day figures, which the plan's categories split.
    """
    qs = Transaction.objects.filter(
        user_id__in=list(user_ids),
        direction=Transaction.Direction.EXPENSE,
        occurred_on__gte=since,
        occurred_on__lte=until,
    )
    if currency is not None:
        qs = qs.filter(currency=currency)
    return list(qs.values("user_id", "currency", "category", "occurred_on").annotate(total=Sum("amount")).order_by())


def expense_totals_by_day(
    *, user, currency: str, since: dt.date, until: dt.date, category_in=None
) -> dict[dt.date, Decimal]:
    qs = Transaction.objects.filter(
        user=user,
        currency=currency,
        direction=Transaction.Direction.EXPENSE,
        occurred_on__gte=since,
        occurred_on__lte=until,
    )
    if category_in is not None:
        qs = qs.filter(category__in=list(category_in))
    rows = qs.values("occurred_on").annotate(total=Sum("amount"))
    return {row["occurred_on"]: row["total"] for row in rows}
