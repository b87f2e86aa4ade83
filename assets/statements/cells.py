"""What one cell of a bank's table is, read on its own: a whole-cell date, a figure as banks write one, and
whether a column's dates read in one order. Pure."""

import re
from decimal import Decimal, InvalidOperation

from assets.statements.dates import read_date
from assets.statements.figures import APOSTROPHES, minus_undone

# A whole cell that is a date (`2026-11-30`, `30/11/2026`, `30.11.26`, `30 Nov 2026`, `30-Nov-2026`, Marcus'
# `20261130`: eight digits only where they are a year of this century or the last, a month and a day), with an
# optional time: not a line of text that starts with one (`15/04/18 UBER EATS`).
_DATE_CELL = re.compile(
    r"^(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\.?|\d{1,2}[-/.]\d{1,2}[-/.](?:\d{4}|\d{2})\.?"
    r"|\d{1,2}[- ][A-Za-z]{3,9}[- ,]+\d{2,4}|(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))"
    r"(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s*(?:Z|[+-]\d{2}:?\d{2}))?)?$"
)
_DAY_MONTH = re.compile(r"^(\d{1,2})[-/.](\d{1,2})[-/.]")
# The currency signs a figure may carry before its digits (EQ Bank's `-$800`).
MONEY_SIGNS = "$\u20ac\u00a3"
# A figure as banks write one: a sign, a currency's sign (EQ Bank's `-$800`), groups of three, a decimal part:
# `-1.234,56`, `+50,00`, `1,234.56`.
_FIGURE = re.compile(
    rf"^[+-]?\s?[{MONEY_SIGNS}]?\d{{1,3}}(?:([.,{APOSTROPHES} ])\d{{3}})*(?:([.,])(\d{{1,4}}))?$"
    rf"|^[+-]?\s?[{MONEY_SIGNS}]?\d+(?:([.,])(\d{{1,4}}))?$"
)


# A figure written with its sign, or negative in brackets (`(150.00)`), as a figure cell opens.
PLUS = re.compile(r"^\+")
MINUS = re.compile(r"^\s*(?:-|\()")


def filled(ahead: list[tuple[int, list[str]]], index: int) -> list[str]:
    """A column's filled cells over a table's first lines (their line numbers and records)."""
    return [record[index].strip() for _, record in ahead if len(record) > index and record[index].strip()]


def is_date_cell(text: str) -> bool:
    """Whether a whole cell is a date, a time after it or not (`2026-11-30 14:02`), and no text that opens with one."""
    if not _DATE_CELL.match(text):
        return False
    try:
        read_date(text)
    except ValueError:
        return False
    return True


def one_order(values: list[str]) -> bool:
    """Whether a column's dates read in one order: no date that needs the day first beside one that needs
    the month first."""
    parts = [_DAY_MONTH.match(v) for v in values]
    day_first = any(m and int(m[1]) > 12 for m in parts)
    month_first = any(m and int(m[2]) > 12 for m in parts)
    return not (day_first and month_first)


def figure(text: str, mark: str) -> Decimal | None:
    """A cell's value in a file whose decimal mark is `mark`; None for a blank cell or one that is no figure."""
    text = minus_undone(text.strip().replace("\u00a0", " "))
    if not _FIGURE.match(text):
        return None
    grouping = "," if mark == "." else "."
    text = re.sub(f"[ {APOSTROPHES}{MONEY_SIGNS}]", "", text).replace(grouping, "").replace(mark, ".")
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def is_figure(text: str) -> bool:
    """Whether a cell is a figure as banks write one (a sign, groups of three, a decimal part)."""
    return bool(_FIGURE.match(minus_undone(text)))
