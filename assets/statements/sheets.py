"""A workbook's further worksheets read as more lines of its first sheet's table, where each is under the same
header (Max, an Israeli card company, splits one statement over a sheet of foreign purchases and one of domestic
ones). A sheet under another header, or none, is no part of the statement and is not read. A line that repeats in
every cell a line of an earlier sheet is a copy (a workbook of the whole period, then one of its months), not a
second payment, and is not read again. Pure."""

from collections.abc import Callable, Iterator


class Sheets:
    """The first sheet's records, then those under the same header on each further sheet, in sheet order, shaped
    like a csv.reader. Line numbers run on from one sheet to the next, so that each line keeps a number (its row's
    key) of its own. `first`: the first sheet's reader as the header search left it; `raw`: that sheet's own
    reader; `more`: a reader of each further sheet; `under(sheet)`: the sheet's records after its header, where
    the header search finds the first sheet's header on it, else None."""

    def __init__(self, first, raw, more: Iterator, under: Callable):
        self.reader, self.raw, self.more, self.under = first, raw, more, under
        self.offset, self.line_num = 0, 0
        # Each line's hash, not the line, so that a long first sheet costs little to remember.
        self.earlier: set[int] = set()
        self.this_sheet: set[int] = set()

    def __iter__(self):
        return self

    def __next__(self) -> list[str]:
        while True:
            try:
                record = next(self.reader)
            except StopIteration:
                self.offset += self.raw.line_num
                self.reader, self.raw = self._next_sheet()
                self.earlier |= self.this_sheet
                self.this_sheet = set()
                continue
            if any(record):  # a blank line is no payment, and may end a table on any sheet
                line = hash(tuple(record))
                if line in self.earlier:
                    continue
                self.this_sheet.add(line)
            self.line_num = self.offset + self.reader.line_num
            return record

    def _next_sheet(self):
        for sheet in self.more:
            rest = self.under(sheet)
            if rest is not None:
                return rest, sheet
        raise StopIteration

    def end_with_this_sheet(self) -> None:
        """What follows is another table's (tabular._Section), which no further sheet continues."""
        self.more = iter(())
