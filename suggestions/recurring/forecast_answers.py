"""The recurring series, as the forecast in plans asks for them (plans.forecast_sources)."""

from decimal import Decimal

from django.db.models import Count, Min, Sum, Value
from django.db.models.functions import Greatest
from django.dispatch import receiver

from plans.forecast_sources import Outflows, Series, recurring_outflows, recurring_series
from suggestions.models import RecurringSeries
from zeus.queries import AnyOf


@receiver(recurring_series, dispatch_uid="suggestions.series_for_forecast")
def series_for_forecast(sender, *, user_ids, until, **kwargs) -> list[Series]:
    # A recurring transfer (a savings deposit) moves money between the user's own accounts: nothing the
    # forecast counts (docs/ledger.md).
    if not user_ids:
        return []  # an empty ANY is still a query, where an empty IN was none
    fields = ("user_id", "merchant", "kind", "direction", "amount", "currency", "interval", "next_on", "category")
    rows = (
        RecurringSeries.objects.filter(
            AnyOf("user_id", user_ids), status=RecurringSeries.Status.ACTIVE, next_on__lte=until
        )
        .exclude(kind=RecurringSeries.Kind.TRANSFER)
        .values_list(*fields)
    )
    return [Series(*row) for row in rows]


@receiver(recurring_outflows, dispatch_uid="suggestions.outflows_for_forecast")
def outflows_for_forecast(sender, *, user_ids, until, **kwargs) -> list[Outflows]:
    # The series series_for_forecast gives that take money out (the forecast counts every series not of
    # income as money going out), summed in the database: a row per user, currency and interval.
    if not user_ids:
        return []
    rows = (
        RecurringSeries.objects.filter(
            AnyOf("user_id", user_ids), status=RecurringSeries.Status.ACTIVE, next_on__lte=until
        )
        .exclude(kind=RecurringSeries.Kind.TRANSFER)
        .exclude(direction="income")
        .values_list("user_id", "currency", "interval")
        # An amount below zero would come in, not go out: the bound counts none.
        .annotate(total=Sum(Greatest("amount", Value(Decimal(0)))), count=Count("id"), first_on=Min("next_on"))
        .order_by()
    )
    return [Outflows(*row) for row in rows]
