"""Table tests of the readers on the Indian exports found on heldout37 after its one measurement: HDFC's line text
under `Narration`, and ICICI's card statement, whose `BillingAmountSign` writes `CR` on a refund or payment and
nothing on a charge beside unsigned figures. Figures made up; and the guard that a side column naming both ways
reads as before."""

import datetime as dt
from decimal import Decimal

from assets.statements.headers import auto_mapping
from tests.assets.statements.test_heldout17_exports import rows_of

ICICI = (
    '"Accountno:","000000001234567"\n\n"Transaction Details:"\n'
    '"Date","Sr.No.","Transaction Details","Reward Point Header","Intl.Amount","Amount(in Rs)","BillingAmountSign"\n'
    '"29/12/2024","1","DMART AVENUE SUPERMART","26","0","2645.88",""\n'
    '"31/12/2024","3","Reversal of fuel Surcharge","0","0","6.00","CR"\n'
    '"09/01/2025","5","NETFLIX NETFLIX IN","4","0","499.00",""\n'
)


def test_hdfc_names_its_line_text_narration():
    header = ["Date", "Narration", "Value Dat", "Debit Amount", "Credit Amount", "Chq/Ref Number", "Closing Balance"]
    assert auto_mapping(header) == {
        "date": "Date",
        "description": "Narration",
        "debit": "Debit Amount",
        "credit": "Credit Amount",
    }


def test_icicis_card_lines_without_cr_are_charges():
    assert rows_of(ICICI.encode(), "INR") == [
        (dt.date(2024, 12, 29), "expense", Decimal("2645.88"), {}),
        (dt.date(2024, 12, 31), "income", Decimal("6.00"), {}),
        (dt.date(2025, 1, 9), "expense", Decimal("499.00"), {}),
    ]


def test_a_side_column_naming_both_ways_reads_each_line_by_its_word():
    raw = ICICI.replace('"2645.88",""', '"2645.88","DR"').replace('"499.00",""', '"499.00","CR"')
    assert [(w, a) for _, w, a, _ in rows_of(raw.encode(), "INR")] == [
        ("expense", Decimal("2645.88")),
        ("income", Decimal("6.00")),
        ("income", Decimal("499.00")),
    ]
