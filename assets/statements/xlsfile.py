"""Old Excel (.xls, BIFF8) statements, as some banks still export them (ICICI's `DETAILED STATEMENT`), read by
xlrd through the same header search and column mapping as CSV and XLSX. xlrd reads the whole file (there is no
compression to inflate: the importer's cap on files read whole bounds it); an OLE2 file holding no workbook (an
old Word document) is refused, as a broken one is."""

import datetime as dt
from decimal import Decimal
from typing import BinaryIO

from django.utils.translation import gettext

from assets.statements.rows import ImportRejected


def _refused(exc: Exception) -> ImportRejected:
    return ImportRejected(
        gettext("The XLS file could not be read: %(value)s") % {"value": str(exc)[:200]}, code="INVALID_XLS"
    )


class BookReader:
    """The first worksheet's rows as lists of text, shaped like a csv.reader (with `line_num`): dates as ISO
    days, whole numbers without a decimal part, rows hidden by hand left empty (a person reading the sheet does
    not see them) and each row's trailing empty cells left out, as xlsxfile.SheetReader gives them."""

    def __init__(self, source: BinaryIO):
        # A library loaded only when an .xls file arrives.
        import xlrd

        try:
            self.book = xlrd.open_workbook(file_contents=source.read(), formatting_info=True, on_demand=True)
            self.sheet = self.book.sheet_by_index(0)
        except Exception as exc:  # xlrd raises XLRDError, CompDocError, struct and index errors on broken files
            raise _refused(exc) from None
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
        except Exception as exc:
            raise _refused(exc) from None
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
        return ""  # empty, blank, a boolean or an error cell: no statement's figure or text
