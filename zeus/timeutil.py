"""The user's clock. "Today" is always the user's today, in their timezone."""

import datetime as dt
import functools
import zoneinfo

from django.utils import timezone
from django.utils.translation import gettext as _

from zeus.errors import ValidationFailed


def user_tz(user) -> zoneinfo.ZoneInfo:
    from zeus.selectors import profile_get

    return profile_get(user=user).tz


def user_now(user, *, now: dt.datetime | None = None) -> dt.datetime:
    return (now or timezone.now()).astimezone(user_tz(user))


def user_today(user, *, now: dt.datetime | None = None) -> dt.date:
    return user_now(user, now=now).date()


def parse_date(value, field: str = "date") -> dt.date:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value).strip())
    except ValueError as exc:
        raise ValidationFailed(
            _("%(field)s must be a date as YYYY-MM-DD.") % {"field": field},
            code="INVALID_DATE",
            fields={field: [_("Use YYYY-MM-DD.")]},
        ) from exc


# How far from the user's today a ledger date may lie: a bill entered a year ahead is plausible, 2099 is a typo
# or a probe, and every figure built on dates (months, forecasts, reviews) would carry it (docs/security.md).
EARLIEST_LEDGER_DATE = dt.date(1900, 1, 1)
LEDGER_HORIZON = dt.timedelta(days=366)


def ledger_date(value, *, user, field: str = "occurred_on", now: dt.datetime | None = None) -> dt.date:
    """A ledger entry's date from a client: parsed as `parse_date`, and within a year of the user's today."""
    date = parse_date(value, field)
    latest = user_today(user, now=now) + LEDGER_HORIZON
    if not EARLIEST_LEDGER_DATE <= date <= latest:
        raise ValidationFailed(
            _("%(field)s must lie between %(earliest)s and %(latest)s.")
            % {"field": field, "earliest": EARLIEST_LEDGER_DATE.isoformat(), "latest": latest.isoformat()},
            code="DATE_OUT_OF_RANGE",
            fields={field: [_("At most %(days)d days ahead.") % {"days": LEDGER_HORIZON.days}]},
        )
    return date


@functools.cache
def timezone_names() -> frozenset[str]:
    """Every IANA zone name the time zone database holds."""
    # Listed on first use, not at import: the listing walks the whole database on disk, and every process imports
    # this module at start (tests/test_startup.py).
    return frozenset(zoneinfo.available_timezones())


def validate_timezone(name: str) -> str:
    if name not in timezone_names():
        raise ValidationFailed(
            _("“%(name)s” is not a timezone.") % {"name": name},
            code="INVALID_TIMEZONE",
            fields={"timezone": [_("Use an IANA name such as Asia/Ho_Chi_Minh.")]},
        )
    return name


def month_bounds(year: int, month: int) -> tuple[dt.date, dt.date]:
    """First and last day of a month."""
    first = dt.date(year, month, 1)
    nxt = dt.date(year + (month == 12), month % 12 + 1, 1)
    return first, nxt - dt.timedelta(days=1)
