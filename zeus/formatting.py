"""Dates, weeks and percentages in the reader's language, through Babel (money is zeus.money.format_amount).
The locale is the active Django language unless one is given."""

import datetime as dt
import re
from decimal import Decimal

from babel.dates import format_date as babel_date
from babel.dates import format_datetime as babel_datetime
from babel.dates import get_date_format
from babel.numbers import format_decimal, format_percent
from django.utils import translation
from django.utils.translation import gettext as _


def _locale(locale: str | None) -> str:
    return (locale or translation.get_language() or "vi").replace("-", "_")


def date_text(day: dt.date, *, locale: str | None = None) -> str:
    """One day as its reader writes it: "30 thg 11, 2026", "Nov 30, 2026"."""
    return babel_date(day, "medium", locale=_locale(locale))


def moment_text(when: dt.datetime, *, tz, locale: str | None = None) -> str:
    """An instant on the reader's clock, as they write it: "14:05:00 3 thg 12, 2026", "Dec 3, 2026, 2:05:00 PM"."""
    return babel_datetime(when, "medium", tzinfo=tz, locale=_locale(locale))


def date_range(start: dt.date, end: dt.date, *, locale: str | None = None) -> str:
    """Two days as one span, in the locale's numeric order with two-digit days and months and the year once
    when both days share it: "30/11 - 06/12/2026" in Vietnamese, "11/30 - 12/06/2026" in English."""
    where = _locale(locale)
    full = _numeric_pattern(where)
    first = re.sub(r"[^dMy']*y+[^dMy']*", "", full) if start.year == end.year else full
    return f"{babel_date(start, first, locale=where)} \u2013 {babel_date(end, full, locale=where)}"


def _numeric_pattern(locale: str) -> str:
    """The locale's short date pattern (CLDR: "d/M/yy" in Vietnamese) with two-digit day and month and the
    whole year."""
    pattern = get_date_format("short", locale=locale).pattern
    return re.sub(r"y+", "y", re.sub(r"M+", "MM", re.sub(r"d+", "dd", pattern)))


def week_label(iso_week: str, *, this_year: int | None = None) -> str:
    """ "2026-W49" as a person says it: "Tuần 49" ("Week 49"), with its year when that is not this_year (the
    reader's current year; None: never)."""
    year, week = iso_week.split("-W")
    if this_year is None or int(year) == this_year:
        return _("Week %(week)s") % {"week": int(week)}
    return _("Week %(week)s, %(year)s") % {"week": int(week), "year": year}


def percent(value, *, locale: str | None = None, digits: int = 1) -> str:
    """A percentage given as a number of percent (8.1 → "8,1 %" in Vietnamese, "8.1%" in English)."""
    pattern = "#,##0." + "#" * digits + "%" if digits else "#,##0%"
    return format_percent(Decimal(str(value)) / 100, format=pattern, locale=_locale(locale))


def number_text(value, *, locale: str | None = None) -> str:
    """A plain number as the reader writes it: 8.1 → "8,1" in Vietnamese; whole numbers without decimals."""
    return format_decimal(Decimal(str(value)).normalize(), locale=_locale(locale))
