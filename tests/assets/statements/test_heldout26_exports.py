"""Table tests of the readers on the bank export found on heldout26 after its one measurement: Bank Norwegian's
card sheet, whose header writes its names as one word (`TransactionDate`, `BookDate`, `ValueDate`): the booking
day is the line's date, as with every card file naming two dates. Figures made up."""

import datetime as dt
import io
from decimal import Decimal

import openpyxl
import pytest

from assets.statements import detect
from assets.statements.headers import auto_mapping
from assets.statements.read import statement_rows

NORWEGIAN = [
    "TransactionDate", "Text", "Type", "Currency Amount", "Currency Rate", "Currency", "Amount", "Merchant Area",
    "Merchant Category", "BookDate", "ValueDate",
]  # fmt: skip


def test_names_written_as_one_word_are_known():
    assert auto_mapping(NORWEGIAN) == {
        "date": "BookDate",
        "description": "Text",
        "amount": "Amount",
        "currency": "Currency",
    }


@pytest.mark.parametrize(
    ("header", "date"),
    [
        (["TransactionDate", "Text", "Amount"], "TransactionDate"),
        # A value date is the interest's: taken only where nothing else names a date.
        (["ValueDate", "TransactionDate", "Text", "Amount"], "TransactionDate"),
        (["ValueDate", "Text", "Amount"], "ValueDate"),
    ],
)
def test_which_one_word_date_is_the_lines(header, date):
    assert auto_mapping(header)["date"] == date


def test_a_card_sheet_is_booked_on_its_book_date():
    book = openpyxl.Workbook()
    book.active.append(NORWEGIAN)
    book.active.append([
        dt.datetime(2018, 12, 31), "K supermarket", "Osto", -64.1, 1, "EUR", -64.1, "Helsinki", "Grocery Stores",
        dt.datetime(2019, 1, 2), dt.datetime(2019, 2, 15),
    ])  # fmt: skip
    book.active.append([
        dt.datetime(2019, 1, 5), "Refund", "Hyvitys", 10, 1, "EUR", 10, "Helsinki", "Grocery Stores",
        dt.datetime(2019, 1, 7), dt.datetime(2019, 2, 15),
    ])  # fmt: skip
    out = io.BytesIO()
    book.save(out)
    raw = out.getvalue()
    rows, _ = statement_rows(io.BytesIO(raw), kind="xlsx", head=raw[: detect.HEAD_BYTES], currency="EUR")
    assert [(r.occurred_on, r.direction, r.amount, r.currency) for r in rows] == [
        (dt.date(2019, 1, 2), "expense", Decimal("64.10"), "EUR"),
        (dt.date(2019, 1, 7), "income", Decimal("10.00"), "EUR"),
    ]
