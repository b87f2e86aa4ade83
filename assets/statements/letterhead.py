"""What the lines above a table's header (its letterhead: the bank's title, the account, the period) say of its
lines: which way their dates are written, the statement's period, the day yearless lines are read up to. Pure."""

import calendar
import contextlib
import datetime as dt
import re
from collections.abc import Iterator

from assets.statements.dates import read_date
from assets.statements.inference import dates_day_first

_WRITTEN_DATE = re.compile(r"(?<![\d/.-])\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}(?![\d/.-])")


def day_first(seen: list[tuple[int, list[str]]], *, default: bool) -> bool:
    """Whether the dates above the header (`Statement Period 01/01/2020 - 19/01/2020`, `As Of 20/01/2020`) put
    the day first: where the table's own dates leave it open, the statement's period says it before the
    account's country guesses."""
    found = (match.group(0) for _, record in seen for cell in record for match in _WRITTEN_DATE.finditer(cell))
    return dates_day_first(found, default=default)


# A year written above the table (a statement's period, China Merchants Bank's `2024年01月`).
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
# A year and month written above the table the Chinese and Japanese way, a day after them where there is one.
_YEAR_MONTH = re.compile(r"(?<!\d)((?:19|20)\d\d)\s*年\s*(\d{1,2})\s*月(?:\s*(\d{1,2})\s*日)?")
_YEAR_FIRST = re.compile(r"(?<![\d/.-])(?:19|20)\d\d[/.-]\d{1,2}[/.-]\d{1,2}(?![\d/.-])")


def _days_above(cells: list[str], *, day_first: bool) -> Iterator[dt.date]:
    """The days written above a table: whole dates, and a year and month alone as that month's last day."""
    for cell in cells:
        for match in _YEAR_MONTH.finditer(cell):
            year, month = int(match[1]), int(match[2])
            if 1 <= month <= 12:
                last = calendar.monthrange(year, month)[1]
                with contextlib.suppress(ValueError):
                    yield dt.date(year, month, int(match[3]) if match[3] else last)
        for match in (*_WRITTEN_DATE.finditer(cell), *_YEAR_FIRST.finditer(cell)):
            with contextlib.suppress(ValueError):
                yield read_date(match.group(0), day_first=day_first)


def until(seen: list[tuple[int, list[str]]], today: dt.date | None, *, day_first: bool) -> dt.date | None:
    """The day a table's yearless days are read up to: `today` where nothing above the header names a year; where
    something does (the days' year is that period's), the latest day written there (the period's end, CMB's
    `2024年01月`: a `12/29` line is the December before), never past `today`; None where no day can be read from
    it, or without a `today`, and the yearless days stay bad rows, named in the 400."""
    cells = [cell for _, record in seen for cell in record]
    if today is None or not any(_YEAR.search(cell) for cell in cells):
        return today
    latest = max(_days_above(cells, day_first=day_first), default=None)
    return min(latest, today) if latest else None


def period(seen: list[tuple[int, list[str]]], *, day_first: bool) -> tuple[dt.date, dt.date] | None:
    """The first and last of the days written above a table, where there are two or more: its period."""
    days = sorted(set(_days_above([cell for _, record in seen for cell in record], day_first=day_first)))
    return (days[0], days[-1]) if len(days) > 1 else None
