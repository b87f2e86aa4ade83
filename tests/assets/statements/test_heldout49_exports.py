"""Table tests of the readers on Max's card workbook (Israel, formerly Leumi Card) found on heldout49 after its one
measurement: its Hebrew header (the purchase day `תאריך עסקה`, not the charge day `תאריך חיוב`; the shekel charge
`סכום חיוב`, not the purchase's own `סכום עסקה מקורי`), its `₪`, the card's last four digits making the unsigned
charges money out, and its lines split over two sheets under the same header (foreign purchases, then domestic
ones). Figures made up."""

import datetime as dt
import io
from decimal import Decimal

import pytest
import xlwt

from assets.statements import detect
from assets.statements.conventions import currency_code
from assets.statements.headers import auto_mapping, card_column
from assets.statements.read import statement_rows

HEADER = [
    "תאריך עסקה", "שם בית העסק", "קטגוריה", "4 ספרות אחרונות של כרטיס האשראי", "סוג עסקה", "סכום חיוב",
    "מטבע חיוב", "סכום עסקה מקורי", "מטבע עסקה מקורי", "תאריך חיוב", "הערות",
]  # fmt: skip
TITLES = [["כל המשתמשים (1)"], ["כל הכרטיסים (1)"], ["2024-03-01-2024-04-30"]]
ABROAD = [
    ["2024-03-04", "SHOP ONE LONDON GB", "שונות", 9876, "רגילה", 37.2, "₪", 10, "$", "2024-03-07", ""],
    ["2024-03-05", "SHOP TWO LONDON GB", "כלבו", 9876, "רגילה", 18.5, "₪", 5, "$", "2024-03-08", ""],
]
AT_HOME = [
    ["2024-03-02", "קפה אחד", "מזון וצריכה", 9876, "רגילה", 21, "₪", 21, "₪", "2024-04-02", ""],
    ["2024-03-03", "העברה", "שונות", 9876, "רגילה", -50, "₪", 50, "₪", "2024-04-02", ""],
    ["2024-03-06", "חנות שתיים", "שונות", 9876, "רגילה", 64.9, "₪", 64.9, "₪", "2024-04-02", ""],
]
READ_ABROAD = [
    (dt.date(2024, 3, 4), "expense", Decimal("37.2"), "ILS", "SHOP ONE LONDON GB"),
    (dt.date(2024, 3, 5), "expense", Decimal("18.5"), "ILS", "SHOP TWO LONDON GB"),
]
READ_AT_HOME = [
    (dt.date(2024, 3, 2), "expense", Decimal("21"), "ILS", "קפה אחד"),
    (dt.date(2024, 3, 3), "income", Decimal("50"), "ILS", "העברה"),
    (dt.date(2024, 3, 6), "expense", Decimal("64.9"), "ILS", "חנות שתיים"),
]


def workbook(*sheets: list[list], hidden: tuple[int, int] | None = None) -> bytes:
    """An XLSX of one sheet a list of rows; `hidden`: (sheet, row number) hidden by hand."""
    from openpyxl import Workbook

    book = Workbook()
    book.remove(book.active)
    for number, rows in enumerate(sheets):
        sheet = book.create_sheet(f"Sheet {number + 1}")
        for row in rows:
            sheet.append(row)
    if hidden:
        book.worksheets[hidden[0]].row_dimensions[hidden[1]].hidden = True
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def old_workbook(*sheets: list[list]) -> bytes:
    book = xlwt.Workbook()
    for number, rows in enumerate(sheets):
        sheet = book.add_sheet(f"Sheet {number + 1}")
        for row_number, row in enumerate(rows):
            for column, value in enumerate(row):
                if value is not None:
                    sheet.write(row_number, column, value)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def read(raw: bytes, kind: str = detect.XLSX) -> list[tuple]:
    rows, _ = statement_rows(io.BytesIO(raw), kind=kind, head=raw[: detect.HEAD_BYTES], currency="ILS")
    rows = list(rows)
    assert all(not r.problems for r in rows), [r.problems for r in rows]
    assert len({r.key for r in rows}) == len(rows)  # each line its own key, whichever sheet it is on
    return [(r.occurred_on, r.direction, r.amount, r.currency, r.description) for r in rows]


def test_max_names_its_purchase_day_its_charge_and_its_card_in_hebrew():
    assert auto_mapping(HEADER) == {
        "date": "תאריך עסקה",
        "description": "שם בית העסק",
        "amount": "סכום חיוב",
        "currency": "מטבע חיוב",
    }
    assert card_column(HEADER) == 3


@pytest.mark.parametrize(("written", "code"), [("₪", "ILS"), (" ₪ ", "ILS"), ("$", "$"), ("usd", "USD")])
def test_the_shekel_sign_is_ils_and_the_dollar_sign_stays_as_written(written, code):
    assert currency_code(written) == code


def test_a_max_sheet_reads_its_unsigned_charges_as_money_out_and_a_negative_one_as_money_in():
    assert read(workbook([*TITLES, HEADER, *AT_HOME])) == READ_AT_HOME


@pytest.mark.parametrize(("make", "kind"), [(workbook, detect.XLSX), (old_workbook, detect.XLS)], ids=["xlsx", "xls"])
def test_a_second_sheet_under_the_same_header_is_more_lines_of_the_same_statement(make, kind):
    raw = make([*TITLES, HEADER, *ABROAD], [*TITLES, HEADER, *AT_HOME])
    assert read(raw, kind) == READ_ABROAD + READ_AT_HOME


@pytest.mark.parametrize(("make", "kind"), [(workbook, detect.XLSX), (old_workbook, detect.XLS)], ids=["xlsx", "xls"])
def test_a_sheet_under_another_header_or_none_is_not_read(make, kind):
    other = [["Date", "Description", "Amount"], ["2024-03-09", "elsewhere", 99]]
    loose = [["2024-03-10", "no header", 77], ["2024-03-11", "none either", 66]]
    raw = make([*TITLES, HEADER, *ABROAD], other, loose, [*TITLES, HEADER, *AT_HOME])
    assert read(raw, kind) == READ_ABROAD + READ_AT_HOME


def test_a_row_hidden_on_the_second_sheet_is_not_read():
    raw = workbook([*TITLES, HEADER, *ABROAD], [*TITLES, HEADER, *AT_HOME], hidden=(1, 6))
    assert read(raw) == READ_ABROAD + READ_AT_HOME[:1] + READ_AT_HOME[2:]


@pytest.mark.parametrize(("make", "kind"), [(workbook, detect.XLSX), (old_workbook, detect.XLS)], ids=["xlsx", "xls"])
def test_a_line_an_earlier_sheet_holds_in_every_cell_is_not_read_twice(make, kind):
    # A workbook of the whole period followed by a copy of one month's sheet, or the same sheet twice: each line
    # is one payment however many sheets repeat it. Two like lines on one sheet stay two payments.
    twice = [*AT_HOME, AT_HOME[0]]
    raw = make([*TITLES, HEADER, *ABROAD, *twice], [*TITLES, HEADER, *AT_HOME[:2]], [HEADER, *ABROAD, AT_HOME[2]])
    assert read(raw, kind) == READ_ABROAD + READ_AT_HOME + READ_AT_HOME[:1]


def test_a_one_sheet_workbook_remembers_none_of_its_lines():
    from assets.statements.xlsxfile import SheetReader

    assert SheetReader(io.BytesIO(workbook([HEADER, *AT_HOME]))).more_sheets() is None
