"""When a plan's daily reminder is due (docs/plans.md, "Reminders"), pure: the user's local clock comes in as
an argument."""

import datetime as dt
from collections.abc import Iterable

from plans.math import month_first

REMINDER_WINDOW = dt.timedelta(hours=3)


def reminder_window_date(*, local_now: dt.datetime, reminder_time: dt.time) -> dt.date | None:
    """The local date whose reminder window [reminder_time, reminder_time + 3 h) holds `local_now`, or None.

    A window that starts late in the evening runs past midnight and still belongs to the day it started.
    """
    today = local_now.date()
    for day in (today, today - dt.timedelta(days=1)):
        start = dt.datetime.combine(day, reminder_time)
        if start <= local_now.replace(tzinfo=None) < start + REMINDER_WINDOW:
            return day
    return None


def reminder_due(
    *,
    enabled: bool,
    active: bool,
    first: dt.date,
    local_now: dt.datetime,
    reminder_time: dt.time,
    sent_dates: Iterable[dt.date] = (),
) -> dt.date | None:
    """The local date to remind for, when a reminder is due now; None otherwise. At most one a local date,
    and only for dates inside the plan's month."""
    if not (enabled and active):
        return None
    day = reminder_window_date(local_now=local_now, reminder_time=reminder_time)
    if day is None or month_first(day) != first or day in set(sent_dates):
        return None
    return day
