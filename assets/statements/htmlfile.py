"""A bank's "Excel" download that is an HTML table under an `.xls` name (Openbank's `Cuentas - Movimientos`, and
many web banks' exports), read by lxml's HTML parser row by row through the same header search and column mapping
as CSV and XLSX. The parser recovers from broken markup as a browser does, so a page is refused only for holding no
table. It streams: each row is let go once read, so a long table costs no more than its file, which the importer caps
as it does every file read whole."""

import io
from collections.abc import Iterator
from typing import BinaryIO

from django.utils.translation import gettext

from assets.statements.detect import unsupported

# A cell spanning columns stands for that many cells, so that a row lines up under its header; a hostile span is
# cut to a table's usual width.
MAX_SPAN = 100


class TableReader:
    """The rows of every table in the page (a table holding another table is layout, not data: its own rows are
    left out), as lists of each cell's text with its blanks collapsed, shaped like a csv.reader (with
    `line_num`); each row's trailing empty cells left out, as xlsxfile.SheetReader gives them."""

    def __init__(self, source: BinaryIO):
        from lxml import etree

        raw = source.read()
        try:
            raw.decode("utf-8")
            encoding = "utf-8"  # a page re-saved as UTF-8 may still declare the charset it had (Openbank's)
        except UnicodeDecodeError:
            encoding = None  # the page's own `<meta charset>`, else Latin-1
        self.rows = etree.iterparse(
            io.BytesIO(raw), events=("end",), tag="tr", html=True, encoding=encoding, no_network=True
        )
        self.etree, self.line_num, self.found = etree, 0, False

    def __iter__(self) -> Iterator[list[str]]:
        return self

    def __next__(self) -> list[str]:
        while True:
            try:
                _, row = next(self.rows)
            except StopIteration:
                if not self.found:
                    raise unsupported(gettext("a web page with no table")) from None
                raise
            nested = row.find(".//table") is not None
            cells = [] if nested else self._cells(row)
            row.clear()
            while row.getprevious() is not None:
                del row.getparent()[0]
            if nested:
                continue
            self.found, self.line_num = True, self.line_num + 1
            while cells and not cells[-1]:
                cells.pop()
            return cells

    def _cells(self, row) -> list[str]:
        cells = []
        for cell in row:
            if not isinstance(cell.tag, str) or cell.tag.lower() not in ("td", "th"):
                continue  # a comment, or markup a sloppy page puts between cells
            try:
                span = min(max(int(cell.get("colspan", 1)), 1), MAX_SPAN)
            except ValueError:
                span = 1
            for br in cell.iter("br"):
                br.tail = " " + (br.tail or "")  # a line break inside a cell parts its words
            text = self.etree.tostring(cell, method="text", encoding="unicode", with_tail=False)
            cells += [" ".join(text.split())] + [""] * (span - 1)
        return cells
