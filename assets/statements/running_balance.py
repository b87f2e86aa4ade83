"""An amount column written without signs beside a running balance that falls as well as rises: which way
each line's money went is the balance's to say, line by line (the balance after the line, less the one after
the line before it). Pure."""

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext

from assets.statements import figures
from assets.statements.rows import Row
from zeus.errors import ValidationFailed

# Columns that say a line's way, or move money of their own, so that the balance need not (or cannot) say it.
_OTHER_WAYS = {"direction", "debit", "credit", "currency", "fee", "tax"}


def unsigned(text: str) -> bool:
    """Whether a figure cell is written with no sign, before or after it, and no side (`Dr`, `Cr`)."""
    text, side = figures.side_written(figures.sign_first(text.strip()))
    return bool(text) and not side and text[:1] not in "-+("


@dataclass(frozen=True)
class Line:
    figure: Decimal
    balance: Decimal
    bare: bool


def cell(read: Callable, record: list[str], column: int) -> Decimal | None:
    """The balance a line's `column` holds, None where it holds no figure."""
    try:
        return read(record[column]) if len(record) > column else None
    except ValidationFailed:
        return None


def _steps_fit(lines: list[Line]) -> bool:
    """Whether every line's balance is the one before it moved by the line's figure, oldest line first: a
    signed figure by itself, an unsigned one either way."""
    for before, line in itertools.pairwise(lines):
        moved = line.balance - before.balance
        if moved != line.figure and not (line.bare and moved == -line.figure):
            return False
    return True


def order(ahead: list[tuple[int, list[str]]], mapping: dict, balance: int | None, read: Callable) -> int | None:
    """1 where the lines run oldest first, -1 newest first, for a table whose balance says each unsigned
    figure's way; None where it need not or cannot: no balance column, another column saying the way, fewer than
    three lines to go by, the balance never falling by an unsigned figure (as signed already reads them right),
    or a step the balance does not take. `read`: a figure cell's value (ValidationFailed when it is none)."""
    if balance is None or "amount" not in mapping or _OTHER_WAYS & set(mapping):
        return None
    lines = []
    for _, record in ahead:
        if len(record) <= max(mapping["amount"], balance):
            continue
        text = record[mapping["amount"]]
        try:
            figure, after = read(text), read(record[balance])
        except ValidationFailed:
            return None
        if figure and after is not None:
            lines.append(Line(figure, after, unsigned(text)))
    fits = [way for way in (1, -1) if len(lines) >= 3 and _steps_fit(lines[::way])]
    if len(fits) != 1:
        return None
    oldest_first = lines[:: fits[0]]
    falls = any(line.bare and line.balance - before.balance < 0 for before, line in itertools.pairwise(oldest_first))
    return fits[0] if falls else None


def _settle(row: Row, before: Decimal | None, after: Decimal | None) -> None:
    """The row's way by its balance: the figure added to the balance before it is money in, taken off it out."""
    if row.amount is None or row.problems:
        return
    if before is None or after is None:
        row.problem(
            "amount",
            gettext(
                "The amount has no sign, and no balance before this line shows whether it went in or out: "
                "write it with a minus if it is money out, or a plus if it is money in."
            ),
        )
    elif after - before == row.amount:
        row.direction = "income"
    elif before - after == row.amount:
        row.direction = "expense"
    else:
        row.problem(
            "amount",
            gettext("The amount has no sign, and the balance beside it does not move by it: in or out cannot be told."),
        )


def settled(lines: Iterator[tuple[Row | None, Decimal | None, bool]], way: int) -> Iterator[Row]:
    """The rows of (row, the balance after it, whether its figure is unsigned) in file order, each unsigned one
    given its way by the balance; a row of None is a line that moves no money (an opening balance), whose
    balance, if it has one, is the next line's starting point. `way`: order's 1 or -1."""
    if way == 1:
        before = None
        for row, balance, bare in lines:
            if row is not None:
                yield _settled(row, balance, bare, before=before)
            before = balance if balance is not None or row is not None else before
        return
    # Newest first: a line's balance before it is the next line's after it, so each row waits for the next.
    held: tuple[Row, Decimal | None, bool] | None = None
    for row, balance, bare in lines:
        if held is not None and (row is not None or balance is not None):
            yield _settled(*held, before=balance)
            held = None
        if row is not None:
            held = (row, balance, bare)
    if held is not None:
        yield _settled(*held, before=None)


def _settled(row: Row, after: Decimal | None, bare: bool, *, before: Decimal | None) -> Row:
    if bare:
        _settle(row, before, after)
    return row
