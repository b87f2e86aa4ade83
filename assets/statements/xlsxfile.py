"""XLSX statements (how Vietnamese banks export from internet banking), read by openpyxl in read-only mode,
one row at a time, through the same header search and column mapping as CSV. Before openpyxl sees the file
its zip directory is checked: a sheet that would inflate past MAX_INFLATED bytes, or far past its packed
size, is a zip bomb and is refused unread. The first worksheet is the table; a further one is read after it where
it is under the same header (sheets.Sheets)."""

import datetime as dt
import posixpath
import zipfile
from collections.abc import Iterator
from decimal import Decimal
from typing import BinaryIO

from django.utils.translation import gettext

from assets.statements.rows import ImportRejected

MAX_INFLATED = 128 * 1024 * 1024
MAX_RATIO = 200
MAX_MEMBERS = 2_000
_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"


def check_zip(source: BinaryIO) -> None:
    try:
        with zipfile.ZipFile(source) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        raise ImportRejected(gettext("The XLSX file is not a readable workbook."), code="INVALID_XLSX") from None
    finally:
        source.seek(0)
    if len(members) > MAX_MEMBERS:
        raise ImportRejected(gettext("The XLSX file has too many parts."), code="INVALID_XLSX")
    inflated = sum(m.file_size for m in members)
    packed = sum(m.compress_size for m in members) or 1
    if inflated > MAX_INFLATED or (inflated > 10 * 1024 * 1024 and inflated / packed > MAX_RATIO):
        raise ImportRejected(
            gettext("This workbook unpacks to far more than a statement holds, so it was not opened."),
            code="XLSX_TOO_LARGE",
        )
    if not any(m.filename.startswith("xl/") for m in members):
        raise ImportRejected(gettext("The file is a zip archive, not an XLSX workbook."), code="UNSUPPORTED_FORMAT")


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(sep=" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float):
        return format(Decimal(repr(value)), "f")
    return str(value)


def _workbook(source: BinaryIO):
    # A heavy library, loaded only when an XLSX file arrives.
    from openpyxl import load_workbook

    return load_workbook(source, read_only=True, data_only=True, keep_links=False)


def _mentions(archive: zipfile.ZipFile, path: str, needle: bytes) -> bool:
    tail = b""
    with archive.open(path) as member:
        while chunk := member.read(1 << 20):
            if needle in tail + chunk:
                return True
            tail = chunk[-len(needle) :]
    return False


def _hidden_rows(source: BinaryIO, title: str) -> set[int]:
    """The numbers of the rows hidden by hand in the sheet named `title` (OTP Bank's sample hides a row): a
    person reading the sheet does not see them, so they are not read. Rows a filter hides are read: a filter is
    the last reader's view of the table (a Techcombank statement saved with one showing a single payee), not
    the bank's. The read-only sheet does not say which rows are hidden, so its XML is streamed once."""
    from lxml import etree

    safe = etree.XMLParser(resolve_entities=False, no_network=True)
    with zipfile.ZipFile(source) as archive:
        workbook = etree.fromstring(archive.read("xl/workbook.xml"), safe)
        rid = next((s.get(f"{_REL}id") for s in workbook.iter(f"{_MAIN}sheet") if s.get("name") == title), None)
        rels = etree.fromstring(archive.read("xl/_rels/workbook.xml.rels"), safe)
        target = next((r.get("Target") for r in rels if r.get("Id") == rid), None)
        if not target:
            return set()
        path = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join("xl", target))
        if not _mentions(archive, path, b"hidden="):
            return set()  # most sheets hide nothing: a byte scan spares them the XML parse
        hidden, number = set(), 0
        with archive.open(path) as sheet:
            marks = etree.iterparse(
                sheet, tag=(f"{_MAIN}row", f"{_MAIN}filterColumn"), resolve_entities=False, no_network=True
            )
            for _, row in marks:
                if row.tag == f"{_MAIN}filterColumn":
                    return set()
                number = int(row.get("r") or number + 1)
                if row.get("hidden") in ("1", "true"):
                    hidden.add(number)
                row.clear()
                while row.getprevious() is not None:
                    del row.getparent()[0]
    return hidden


def _unreadable(exc: Exception) -> ImportRejected:
    return ImportRejected(
        gettext("The XLSX file could not be read: %(value)s") % {"value": str(exc)[:200]}, code="INVALID_XLSX"
    )


class SheetReader:
    """A worksheet's rows (the first's, or `sheet` of the `workbook` already opened) as lists of text, shaped
    like a csv.reader (with `line_num`). The sheet is read unsized: a read-only sheet trusts the `<dimension>` its
    file states, and with a stale one (`A1` on a full sheet) openpyxl stops reading at that row and column;
    unsized (`reset_dimensions`, openpyxl's own remedy), the rows are read as they are, each as wide as its last
    cell."""

    def __init__(self, source: BinaryIO, workbook=None, sheet=None):
        if workbook is None:
            check_zip(source)
        try:
            if workbook is None:
                workbook = _workbook(source)
                sheet = workbook.worksheets[0]
            sheet.reset_dimensions()
            self.hidden = _hidden_rows(source, sheet.title)
        except Exception as exc:  # openpyxl raises KeyError, InvalidFileException, XML errors, IndexError
            raise _unreadable(exc) from None
        self.source, self.workbook, self.rows, self.line_num = source, workbook, sheet.iter_rows(values_only=True), 0
        # The first sheet's reader closes the workbook at its end, unless further sheets are read after it.
        self.closes = sheet is workbook.worksheets[0]

    def more_sheets(self) -> Iterator["SheetReader"] | None:
        """A reader of each worksheet after the first, in order (sheets.Sheets); the workbook is closed after them.
        None where the workbook has one sheet."""
        if len(self.workbook.worksheets) < 2:
            return None
        self.closes = False
        return self._further()

    def _further(self) -> Iterator["SheetReader"]:
        try:
            for sheet in self.workbook.worksheets[1:]:
                yield SheetReader(self.source, self.workbook, sheet)
        finally:
            self.workbook.close()

    def __iter__(self):
        return self

    def __next__(self) -> list[str]:
        try:
            values = next(self.rows)
        except StopIteration:
            if self.closes:
                self.workbook.close()
            raise
        except Exception as exc:
            raise _unreadable(exc) from None
        self.line_num += 1
        if self.line_num in self.hidden:
            return []
        cells = [_cell(v) for v in values]
        while cells and not cells[-1]:
            cells.pop()
        return cells
