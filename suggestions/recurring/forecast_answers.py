"""The recurring series, as the forecast in plans asks for them (plans.forecast_sources)."""

from django.dispatch import receiver

from plans.forecast_sources import Series, recurring_series
from suggestions.models import RecurringSeries
from suggestions.recurring.selectors import recurring_list


@receiver(recurring_series, dispatch_uid="suggestions.series_for_forecast")
def series_for_forecast(sender, *, user, until, **kwargs) -> list[Series]:
    # A recurring transfer (a savings deposit) moves money between the user's own accounts: nothing the
    # forecast counts (docs/ledger.md).
    rows = (
        recurring_list(user=user, status="active")
        .filter(next_on__lte=until)
        .exclude(kind=RecurringSeries.Kind.TRANSFER)
    )
    return [
        Series(
            name=row.merchant,
            kind=row.kind,
            direction=row.direction,
            amount=row.amount,
            currency=row.currency,
            interval=row.interval,
            next_on=row.next_on,
            category=row.category,
        )
        for row in rows
    ]
