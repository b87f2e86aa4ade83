"""Tables as banks write them, for the statement readers' tests: an XLSX made from rows (its stated size and
streaming chosen), a sheet's rows read back, a CSV's rows read through the reader."""

import io
import re
import zipfile

from assets.statements import detect
from assets.statements.read import statement_rows


def xlsx(rows: list[list], *, dimension: str | None = None, streamed: bool = False) -> bytes:
    """A workbook of `rows`; `dimension` overwrites the size its sheet states (`A1` as a writer that never
    updated it leaves), `streamed` writes it as streaming writers do, stating none."""
    from openpyxl import Workbook

    book = Workbook(write_only=streamed)
    sheet = book.create_sheet() if streamed else book.active
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    if dimension is None:
        return out.getvalue()
    written, edited = zipfile.ZipFile(out), io.BytesIO()
    with zipfile.ZipFile(edited, "w", zipfile.ZIP_DEFLATED) as archive:
        for member in written.infolist():
            data = written.read(member.filename)
            if member.filename.startswith("xl/worksheets/"):
                data, count = re.subn(rb'<dimension ref="[^"]*"', f'<dimension ref="{dimension}"'.encode(), data)
                assert count == 1
            archive.writestr(member, data)
    return edited.getvalue()


def sheet_rows(raw: bytes):
    rows, _ = statement_rows(io.BytesIO(raw), kind=detect.XLSX, head=raw[: detect.HEAD_BYTES], currency="VND")
    return [(r.occurred_on, r.direction, r.amount, r.description, r.problems) for r in rows]


def csv_rows(text: str, currency: str = "EUR", **options):
    """`options`: what else the importer tells the readers (read.statement_rows: `today`, `card_account`)."""
    raw = text.encode("cp1252" if all(ord(c) < 256 for c in text) else "utf-8")
    rows, _ = statement_rows(io.BytesIO(raw), kind=detect.detect(raw), head=raw, currency=currency, **options)
    return [(r.occurred_on, r.direction, r.amount, r.currency, r.description, r.problems) for r in rows]
