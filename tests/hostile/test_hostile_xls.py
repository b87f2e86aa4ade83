"""Old Excel (.xls) files a red team crafted, each posted to the real import endpoint: a 400 with INVALID_XLS
(or UNSUPPORTED_FORMAT), a translated message, nothing imported, and xlrd's complaints kept off stdout."""

import io
import struct

import pytest
import xlwt
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.hostile.test_import_edges import refused, upload

HEADER = ["Date", "Description", "Amount"]


def book(fill=None) -> bytes:
    workbook = xlwt.Workbook()
    sheet = workbook.add_sheet("Statement")
    if fill is not None:
        fill(sheet)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def lines(sheet, figures=(-10.5, -21, 31.5)):
    for column, name in enumerate(HEADER):
        sheet.write(0, column, name)
    for row, figure in enumerate(figures, start=1):
        sheet.write(row, 0, f"0{row}/01/2025")
        sheet.write(row, 1, f"line {row}")
        if figure is not None:
            sheet.write(row, 2, figure)


GOOD = book(lines)
# The directory entry of the workbook stream, found by its UTF-16 name.
ENTRY = GOOD.find("Workbook".encode("utf-16-le"))
# A workbook stream past 4 KB, so that its sectors are chained in the file's main allocation table.
LONG = book(lambda sheet: lines(sheet, figures=range(1, 400)))
LONG_ENTRY = LONG.find("Workbook".encode("utf-16-le"))


def patched(raw: bytes, at: int, value: bytes) -> bytes:
    return raw[:at] + value + raw[at + len(value) :]


def far_cell(row: int, column: int) -> bytes:
    """A NUMBER record (0x0203) moved to a cell BIFF8 has no room for (256 columns at most)."""
    raw = book(lambda sheet: (lines(sheet), sheet.write(1, 200, 0.1234567891)))
    record = b"\x03\x02\x0e\x00" + struct.pack("<HH", 1, 200)
    assert raw.count(record) == 1
    return raw.replace(record, b"\x03\x02\x0e\x00" + struct.pack("<HH", row, column))


def sector_loop() -> bytes:
    """The workbook stream's first sector chained back to itself (a reader that follows chains blindly spins)."""
    start = struct.unpack("<i", LONG[LONG_ENTRY + 116 : LONG_ENTRY + 120])[0]
    table = 512 + 512 * struct.unpack("<i", LONG[76:80])[0]
    return patched(LONG, table + 4 * start, struct.pack("<i", start))


def huge_sst() -> bytes:
    """The shared-string table (record 0x00FC) declaring 2**31 - 1 strings."""
    at = LONG.find(b"\xfc\x00")
    total, unique = struct.unpack("<II", LONG[at + 4 : at + 12])
    assert 400 <= unique <= total < 1000  # the record found is the table of this sheet's 400-odd texts
    return patched(LONG, at + 4, struct.pack("<II", 0x7FFFFFFF, 0x7FFFFFFF))


def error_and_boolean(sheet):
    lines(sheet, figures=(None, None, 5))
    sheet.row(1).set_cell_error(2, "#DIV/0!")
    sheet.write(2, 2, True)


HOSTILE = {
    "truncated": lambda: GOOD[: len(GOOD) // 2],
    "header-only": lambda: GOOD[:512],
    "no-workbook-stream": lambda: GOOD.replace("Workbook".encode("utf-16-le"), "Wxrkbook".encode("utf-16-le")),
    # The workbook's directory entry its own left sibling: a red-black tree with a loop in it.
    "directory-loop": lambda: patched(GOOD, ENTRY + 68, struct.pack("<ii", 1, 0)),
    "sector-chain-loop": sector_loop,
    "huge-declared-stream-size": lambda: patched(LONG, LONG_ENTRY + 120, struct.pack("<I", 0x7FFFFFF0)),
    "huge-string-count": huge_sst,
    "empty-first-sheet": lambda: book(),
    "cell-in-column-1000": lambda: far_cell(1, 999),
    "error-and-boolean-figures": lambda: book(error_and_boolean),
}


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize("filename", ["statement.xls", "statement.csv"])
def test_a_hostile_xls_is_a_400_with_nothing_imported(alice_api, capfd, name, filename):
    """Detection is by content: the same bytes named .csv are read, and refused, as the workbook they are."""
    response = upload(alice_api, HOSTILE[name](), filename)
    refused(response, "INVALID_XLS", "UNSUPPORTED_FORMAT")
    assert "array index" not in response.json()["error"]["message"]
    assert "WARNING" not in capfd.readouterr().out


@pytest.mark.django_db
def test_the_refusal_is_in_the_readers_language(alice_api):
    data = {"file": SimpleUploadedFile("statement.xls", GOOD[:600], content_type="application/vnd.ms-excel")}
    response = alice_api.post("/api/v1/transactions/import", data, format="multipart", HTTP_ACCEPT_LANGUAGE="vi")
    refused(response, "INVALID_XLS")
    assert "XLS" in response.json()["error"]["message"] and "không" in response.json()["error"]["message"].lower()


@pytest.mark.django_db
def test_the_well_formed_workbook_these_are_made_from_imports(alice_api):
    response = upload(alice_api, GOOD, "statement.xls")
    assert response.status_code == 200, response.content[:300]
    assert response.json() == {"imported": 3, "skipped": 0}
