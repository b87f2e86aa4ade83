"""The user's write of a recurring series."""

from suggestions.models import RecurringSeries
from suggestions.recurring.selectors import recurring_get


def recurring_dismiss(*, user, series_id) -> RecurringSeries:
    """The user says this is not a series (or not one to watch): it leaves the lists and raises nothing
    more; the nightly detection keeps it dismissed. Repeating it is a no-op."""
    series = recurring_get(user=user, series_id=series_id)
    if series.status != RecurringSeries.Status.DISMISSED:
        series.status = RecurringSeries.Status.DISMISSED
        series.save(update_fields=["status", "updated_at"])
    return series
