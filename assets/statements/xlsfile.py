"""Old Excel (.xls, BIFF8) statements, as some banks still export them (ICICI's `DETAILED STATEMENT`), read by
xlrd through the same header search and column mapping as CSV and XLSX. xlrd reads the whole file (there is no
compression to inflate: the importer's cap on files read whole bounds it); an OLE2 file holding no workbook (an
old Word document) is refused, as a broken one is, and so is a workbook whose first sheet holds nothing."""

import datetime as dt
import io
from decimal import Decimal
from typing import BinaryIO

from django.utils.translation import gettext

from assets.statements.rows import ImportRejected


def _refused() -> ImportRejected:
    # xlrd's own words ("array index out of range") say nothing to the reader and are not translated.
    return ImportRejected(gettext("The XLS file is not a readable workbook."), code="INVALID_XLS")


class BookReader:
    """The first worksheet's rows as lists of text, shaped like a csv.reader (with `line_num`): dates as ISO
    days, whole numbers without a decimal part, rows hidden by hand left empty (a person reading the sheet does
    not see them) and each row's trailing empty cells left out, as xlsxfile.SheetReader gives them."""

    def __init__(self, source: BinaryIO):
        # A library loaded only when an .xls file arrives.
        import xlrd

        try:
            # Ragged rows: xlrd otherwise pads every row to the widest one's width, so one cell written far to
            # the right (a column index BIFF8 does not allow) would make each of 65,536 rows that wide; ragged,
            # such a cell is refused. xlrd's warnings about a broken file go to a buffer, not the server's stdout.
            self.book = xlrd.open_workbook(
                file_contents=source.read(),
                formatting_info=True,
                on_demand=True,
                ragged_rows=True,
                logfile=io.StringIO(),
            )
            self.sheet = self.book.sheet_by_index(0)
        except Exception:  # xlrd raises XLRDError, CompDocError, struct, index, assertion and recursion errors
            raise _refused() from None
        if not self.sheet.nrows:
            raise ImportRejected(gettext("The XLS workbook's first sheet is empty."), code="INVALID_XLS")
        self.types, self.line_num = xlrd, 0

    def __iter__(self):
        return self

    def __next__(self) -> list[str]:
        if self.line_num >= self.sheet.nrows:
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
