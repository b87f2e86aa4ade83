"""A table's line a few cells longer than its header because its text holds the delimiter unquoted (HDFC's
savings download: `NEFT DR-…-NETBANK, MUM-…` splits its narration in two and shifts every figure after it one
column right). The pieces are joined back at the text column only where that reading leaves no doubt: the
line above fills the header's width, every other cell of the joined line is no text (a date, a figure, a code
without spaces), its figures read as figures, and where the header names a balance the line's balance follows
from the line above it. Any other line is passed on as written, and the reader names it as a bad row. Pure."""

from decimal import Decimal

from assets.statements.cells import figure
from assets.statements.dates import is_date
from assets.statements.figures import decimal_mark
from assets.statements.headers import column_keys

_MONEY = ("amount", "debit", "credit", "fee", "tax")


class Mender:
    """Reads back a line of a table read with `delimiter` under `header` (its columns resolved in `mapping`)
    that is too long in the way the module says; the caller asks only for lines longer than `width`."""

    def __init__(self, header: list[str], mapping: dict, delimiter: str):
        self.width, self.mapping, self.delimiter = len(header), mapping, delimiter
        self.balance = next((c for c, key in column_keys(header).items() if key == "balance"), None)

    def joined(self, record: list[str], above: list[str] | None) -> list[str]:
        """`record` with its text column's extra pieces joined, or as written where any check fails; `above`
        is the line before it."""
        text, extra = self.mapping.get("description"), len(record) - self.width
        if text is None or above is None or len(above) != self.width:
            return record
        if not any(cell.strip() for cell in record[self.width :]):
            return record  # blank cells past the header (a trailing separator) shift nothing
        joined = [*record[:text], self.delimiter.join(record[text : text + extra + 1]), *record[text + extra + 1 :]]
        others = [cell.strip() for column, cell in enumerate(joined) if column != text]
        if any(len(cell.split()) > 1 and not is_date(cell) and not _figure_like(cell) for cell in others):
            return record  # another column holds words too: which one took the delimiter is not sure
        if not is_date(joined[self.mapping["date"]]):
            return record
        mark = decimal_mark((*joined, *above), unsettled=".")
        amounts = [self._amount(line, mark) for line in (joined, above)]
        if mark is None or None in amounts:
            return record
        if self.balance is not None:
            balances = [figure(line[self.balance], mark) for line in (joined, above)]
            if None in balances or abs(balances[0] - balances[1]) not in {abs(a) for a in amounts}:
                return record  # newest first, the line above's own figure moves the balance between the two
        return joined

    def _amount(self, line: list[str], mark: str | None) -> Decimal | None:
        """The line's figures summed as signed (credit less debit), None where a money cell holds no figure."""
        total = Decimal(0)
        for key in _MONEY:
            if key not in self.mapping or not line[self.mapping[key]].strip():
                continue
            value = figure(line[self.mapping[key]], mark or ".")
            if value is None:
                return None
            total += -abs(value) if key in ("debit", "fee", "tax") else value
        return total


def _figure_like(cell: str) -> bool:
    """Whether a cell is a figure grouped by spaces (`1 234,56`), which is no text."""
    return figure(cell, ",") is not None or figure(cell, ".") is not None
