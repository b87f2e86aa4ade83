"""Table tests of the readers on the bank exports found on heldout27 after its one measurement: Axis Bank's CSV,
its line text under `Particulars`, its figures grouped as India groups them (lakh and crore: `3,11,760.00`), and a
`TRANSACTION TOTAL DR/CR` line of the columns' sums under the table. Figures made up; and the guards the rules
must not catch."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.statements.headers import auto_mapping
from tests.assets.statements.test_heldout17_exports import rows_of
from zeus.money import InvalidAmount, parse_amount

AXIS_HEADER = (
    "S.No,Transaction Date (dd/mm/yyyy),Value Date (dd/mm/yyyy),Particulars,Amount(INR),Debit/Credit,Balance(INR),"
    "Cheque Number,Branch Name(SOL)\r\n"
)


def test_particulars_is_the_line_text():
    assert auto_mapping(AXIS_HEADER.strip().split(","))["description"] == "Particulars"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("3,11,760.00", Decimal("311760.00")),
        ("1,20,04,500", Decimal("12004500")),
        ("43,99,396.21", Decimal("4399396.21")),
        ("12,345", Decimal("12345")),  # thousands as before
        ("1,234,567.89", Decimal("1234567.89")),
        ("1,23", Decimal("1.23")),  # a decimal comma as before
    ],
)
def test_figures_grouped_in_lakhs_and_crores(text, want):
    assert parse_amount(text).amount == want


@pytest.mark.parametrize("text", ["1,2,345", "3,11,76", "03,11,760", "3.11,760", "3,11.760,00"])
def test_groups_of_no_known_shape_stay_no_amount(text):
    with pytest.raises(InvalidAmount):
        parse_amount(text)


def test_an_axis_statement_with_its_totals_line():
    raw = (
        "Name :- A COMPANY\r\nCurrency :-    INR\r\n"
        "Statement of Account No - 900000000000 for the period (From : 19/08/2025 To : 19/08/2025)\r\n"
        + AXIS_HEADER
        + '1,,,OPENING BALANCE,,,"-,93,43,827.31",,BRANCH\r\n'
        '2,19/08/2025,19/08/2025,NEFT/HDFC/A SUPPLIER,"\t1,20,104.84",CR,"-,92,23,722.47",,"BRANCH (248) "\r\n'
        '3,19/08/2025,19/08/2025,INB/NEFT/A WORKER,"\t8,642.00",DR,"-,92,32,364.47",,"BRANCH (3202) "\r\n'
        '4,,,TRANSACTION TOTAL DR/CR,"\t8,642.00/\t1,20,104.84",,,,BRANCH\r\n'
        '5,,,CLOSING BALANCE,,,"-,92,32,364.47",,BRANCH\r\n'
    ).encode()
    assert rows_of(raw, "INR") == [
        (dt.date(2025, 8, 19), "income", Decimal("120104.84"), {}),
        (dt.date(2025, 8, 19), "expense", Decimal("8642.00"), {}),
    ]


@pytest.mark.parametrize("label", ["TRANSACTIONS", "TRANSACTION FEES"])
def test_a_line_naming_transactions_without_a_total_is_not_a_sums_line(label):
    # Undated, with a text and a figure: a bad row named in the 400, not skipped as the columns' sums.
    raw = ("Date,Description,Amount\r\n19/08/2025,Shop,-10.00\r\n" + f",{label},-5.00\r\n").encode()
    (_, second) = rows_of(raw, "INR")
    assert second[0] is None and "date" in second[3]
