"""Old Excel (.xls, BIFF8) statements, as some banks still export them (ICICI's `DETAILED STATEMENT`), read by
xlrd through the same header search and column mapping as CSV and XLSX. xlrd reads the whole file (there is no
compression to inflate: the importer's cap on files read whole bounds it); an OLE2 file holding no workbook (an
old Word document) is refused, as a broken one is, and so is a workbook whose first sheet holds nothing. A further
sheet is read after the first where it is under the same header (sheets.Sheets), as in an XLSX workbook."""

import datetime as dt
import io
from collections.abc import Iterator
from decimal import Decimal
from typing import BinaryIO

from django.utils.translation import gettext

from assets.statements.rows import ImportRejected


def _refused() -> ImportRejected:
    # xlrd's own words ("array index out of range") say nothing to the reader and are not translated.
    return ImportRejected(gettext("The XLS file is not a readable workbook."), code="INVALID_XLS")


class BookReader:
    """A worksheet's rows (the first's, or `sheet` of the `book` already opened) as lists of text, shaped like a
    csv.reader (with `line_num`): dates as ISO days, whole numbers without a decimal part, rows hidden by hand
    left empty (a person reading the sheet does not see them) and each row's trailing empty cells left out, as
    xlsxfile.SheetReader gives them."""

    def __init__(self, source: BinaryIO | None, book=None, sheet=None):
        # A library loaded only when an .xls file arrives.
        import xlrd

        if book is None:
            try:
                # Ragged rows: xlrd otherwise pads every row to the widest one's width, so one cell written far
                # to the right (a column index BIFF8 does not allow) would make each of 65,536 rows that wide;
                # ragged, such a cell is refused. xlrd's warnings about a broken file go to a buffer, not the
                # server's stdout.
                book = xlrd.open_workbook(
                    file_contents=source.read(),
                    formatting_info=True,
                    on_demand=True,
                    ragged_rows=True,
                    logfile=io.StringIO(),
                )
                sheet = book.sheet_by_index(0)
            except Exception:  # xlrd raises XLRDError, CompDocError, struct, index, assertion and recursion errors
                raise _refused() from None
            if not sheet.nrows:
                raise ImportRejected(gettext("The XLS workbook's first sheet is empty."), code="INVALID_XLS")
        self.book, self.sheet, self.types, self.line_num = book, sheet, xlrd, 0
        # The first sheet's reader releases the workbook at its end, unless further sheets are read after it.
        self.closes = sheet.number == 0

    def more_sheets(self) -> Iterator["BookReader"] | None:
        """A reader of each worksheet after the first, in order (sheets.Sheets); the workbook is released after
        them. None where the workbook has one sheet."""
        if self.book.nsheets < 2:
            return None
        self.closes = False
        return self._further()

    def _further(self) -> Iterator["BookReader"]:
        try:
            for number in range(1, self.book.nsheets):
                try:
                    sheet = self.book.sheet_by_index(number)
                except Exception:
                    raise _refused() from None
                yield BookReader(None, self.book, sheet)
        finally:
            self.book.release_resources()

    def __iter__(self):
        return self

    def __next__(self) -> list[str]:
        if self.line_num >= self.sheet.nrows:
            if self.closes:
                self.book.release_resources()
            raise StopIteration
        row, self.line_num = self.line_num, self.line_num + 1
        info = self.sheet.rowinfo_map.get(row)
        if info is not None and info.hidden:
            return []
        try:
            cells = [self._text(cell) for cell in self.sheet.row(row)]
        except Exception:
            raise _refused() from None
        while cells and not cells[-1]:
            cells.pop()
        return cells

    def _text(self, cell) -> str:
        kind, value = cell.ctype, cell.value
        if kind == self.types.XL_CELL_DATE:
            moment = self.types.xldate_as_datetime(value, self.book.datemode)
            return moment.date().isoformat() if moment.time() == dt.time() else moment.isoformat(sep=" ")
        if kind == self.types.XL_CELL_NUMBER:
            return str(int(value)) if value == int(value) else format(Decimal(repr(value)), "f")
        if kind == self.types.XL_CELL_TEXT:
            return value
        if kind == self.types.XL_CELL_ERROR:
            # As Excel shows it (`#DIV/0!`): in a figure's column the line is refused by name, not read as empty.
            return self.types.error_text_from_code.get(value, "#N/A")
        if kind == self.types.XL_CELL_BOOLEAN:
            return "TRUE" if value else "FALSE"
        return ""  # empty or blank
