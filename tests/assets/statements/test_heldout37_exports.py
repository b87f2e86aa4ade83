"""Table tests of the readers on the Indian exports found on heldout37 after its one measurement: HDFC's line text
under `Narration`, and ICICI's card statement, whose `BillingAmountSign` writes `CR` on a refund or payment and
nothing on a charge beside unsigned figures; HDFC's card statement separated by `~`, its `Debit / Credit` blank on
every charge; HDFC's savings line whose narration holds an unquoted comma. Figures made up; and the guards that a
side column naming both ways reads as before, and that a line too long for any other reason stays a bad row; Bank of
Baroda's `TRAN DATE`, and its line short of a cell whose money stands in no money column; ICICI's old Excel (.xls)
workbook."""

import datetime as dt
import io
from decimal import Decimal

import pytest

from assets.statements import detect
from assets.statements.headers import auto_mapping
from assets.statements.read import statement_rows
from tests.assets.statements.test_heldout17_exports import rows_of
from zeus.errors import ValidationFailed

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


HDFC_CARD = (
    "Name~A N Other \nStatement Date~13/01/2025 \nTotal Amount Due~1,234.00 \n\n"
    "Opening Bal~-~Payment / Credit~+~Purchases / Debits~=~Total Dues \n0.00~-~0.00~+~1,234.50~=~1,234.00 \n\n"
    "Card No: 4321 12XX XXXX 9876 \n\n"
    "Transaction type~Primary / Addon Customer Name~DATE~Description~Base NeuCoins~AMT~Debit / Credit \n"
    "Domestic~A N OTHER~09/01/2025 19:09:21~CORNER GROCER~~734.50~ \n"
    "Domestic~A N OTHER~11/01/2025 10:43:59~UPI-TEA STALL~~500.00~ \n\n"
    "Loan Type~Loan Number~Loan Booked Date~Loan Amount~Loan Tenure~Rate of Interest~Balance Principal \n"
)


def test_a_debit_credit_column_is_the_side_before_a_transaction_type_and_amt_the_amount():
    header = ["Transaction type", "DATE", "Description", "AMT", "Debit / Credit"]
    assert auto_mapping(header) == {
        "direction": "Debit / Credit",
        "date": "DATE",
        "description": "Description",
        "amount": "AMT",
    }


def test_hdfcs_card_statement_separated_by_tildes_reads_its_blank_sided_lines_as_charges():
    assert rows_of(HDFC_CARD.encode(), "INR") == [
        (dt.date(2025, 1, 9), "expense", Decimal("734.50"), {}),
        (dt.date(2025, 1, 11), "expense", Decimal("500.00"), {}),
    ]


HDFC_SAVINGS = (
    "\r\n  Date     ,Narration          ,Value Dat,Debit Amount  ,Credit Amount ,Chq/Ref Number ,Closing Balance\r\n"
    " 01/02/25  ,UPI-TEA STALL      ,01/02/25 ,     120.00   ,       0.00   ,000050320001   ,   5880.00  \r\n"
    " 01/02/25  ,NEFT DR-ABCD0123, MUMBAI-FEB 2025 ,01/02/25 ,    2000.00   ,       0.00   ,N5202502010001 ,"
    "   3880.00  \r\n"
    " 02/02/25  ,SALARY             ,02/02/25 ,       0.00   ,    9000.00   ,000000000002   ,  12880.00  \r\n"
)


def test_a_narration_holding_an_unquoted_comma_is_joined_back_where_the_balance_follows():
    assert rows_of(HDFC_SAVINGS.encode(), "INR") == [
        (dt.date(2025, 2, 1), "expense", Decimal("120.00"), {}),
        (dt.date(2025, 2, 1), "expense", Decimal("2000.00"), {}),
        (dt.date(2025, 2, 2), "income", Decimal("9000.00"), {}),
    ]


def test_a_line_too_long_whose_balance_does_not_follow_stays_a_bad_row():
    raw = HDFC_SAVINGS.replace("   3880.00", "   3870.00").encode()
    assert [bool(problems) for *_, problems in rows_of(raw, "INR")] == [False, True, False]


def test_a_line_too_long_where_another_column_holds_words_too_stays_a_bad_row():
    raw = HDFC_SAVINGS.replace("N5202502010001", "NEFT REF 1").encode()
    assert [bool(problems) for *_, problems in rows_of(raw, "INR")] == [False, True, False]


BARODA = (
    ",Main Account  Holder Name  :A N OTHER,,,,,,,,Address : ,,,,,,\n"
    ',,,,,,,,,"1 MAIN ROAD,\nSOMEWHERE,\nINDIA",,,,,,\n'
    "Customer Id:,,,C1234,,,,,,,Account No:,,,12XXXX34,,\n"
    "Statement of transactions in Savings Account 12XXXX34 in INR for the period 01/01/2025 - 12/02/2025"
    ",,,,,,,,,,,,,,,\n"
    "TRAN DATE,,VALUE DATE,,NARRATION,,,CHQ.NO.,WITHDRAWAL(DR),,,,DEPOSIT(CR),,BALANCE(INR),\n"
    "10/02/2025,,10/02/2025,,UPI/SHOP/ONE,,,,150.00,,,,,, 1850.00Cr,\n"
    "02/02/2025,,31/01/2025,,123:Int.Pd:01-11-2024 to 31-01-2025,,,,,,,,20.00,, 2000.00Cr,\n"
)


def test_baroda_books_each_line_on_its_tran_date_not_its_value_date():
    assert rows_of(BARODA.encode(), "INR") == [
        (dt.date(2025, 2, 10), "expense", Decimal("150.00"), {}),
        (dt.date(2025, 2, 2), "income", Decimal("20.00"), {}),
    ]


# The anonymisation lost a cell before CHQ.NO., so the line's withdrawal stands under CHQ.NO. and its balance one
# column left of BALANCE(INR): 15 cells under a header of 16.
SHIFTED = "09/02/2025,,09/02/2025,,UPI/SHOP/TWO,,,200.00,,,,,, 1650.00Cr,\n"


def test_a_line_short_of_the_tables_cells_with_its_money_outside_the_money_columns_is_a_bad_row():
    rows = rows_of((BARODA + SHIFTED).encode(), "INR")
    assert [problems for *_, problems in rows[:2]] == [{}, {}]
    assert list(rows[2][3]) == ["row"]


def test_a_short_line_with_no_figure_moves_no_money_as_before():
    notice = "09/02/2025,,09/02/2025,,Nomination registered,,,,,,,,, 1650.00Cr,\n"
    assert len(rows_of((BARODA + notice).encode(), "INR")) == 2


def test_a_short_line_holding_only_a_cheques_number_moves_no_money_as_before():
    issued = "09/02/2025,,09/02/2025,,Cheque book issued,,,123456,,,,,, 1650.00Cr,\n"
    assert len(rows_of((BARODA + issued).encode(), "INR")) == 2


def icici_book(*, hidden: int | None = None) -> bytes:
    """ICICI's `DETAILED STATEMENT` in miniature, as BIFF8: label rows, the header in row 13 from column B, each
    line's cells text (`'0.0'`, `'01/01/2025'`) but one written as a real date and number, then the legends."""
    import xlwt

    book = xlwt.Workbook()
    sheet = book.add_sheet("OpTransactionHistory")
    sheet.write(1, 1, "DETAILED STATEMENT")
    sheet.write(3, 1, "Account Number")
    sheet.write(3, 3, "0000000001(INR)  - A N OTHER")
    sheet.write(4, 1, "Transaction Date from")
    sheet.write(4, 3, dt.date(2025, 1, 1), xlwt.easyxf(num_format_str="DD/MM/YYYY"))
    sheet.write(11, 1, "Transactions List -  A N OTHER - 0000000001")
    header = ["S No.", "Value Date", "Transaction Date", "Cheque Number", "Transaction Remarks"]
    header += ["Withdrawal Amount (INR )", "Deposit Amount (INR )", "Balance (INR )"]
    lines = [
        ["1", "01/01/2025", "01/01/2025", "-", "NEFT-SALARY", "0.0", "175.20", "1175.20"],
        ["2", "03/01/2025", "03/01/2025", "-", "BIL/NEFT/SHOP", "45.00", "0.0", "1130.20"],
        ["3", dt.date(2025, 1, 6), dt.date(2025, 1, 6), "-", "INT PAID", 0.0, 8.5, 1138.7],
    ]
    for row, cells in enumerate([header, *lines], start=12):
        for column, value in enumerate(cells, start=1):
            style = xlwt.easyxf(num_format_str="DD/MM/YYYY") if isinstance(value, dt.date) else xlwt.Style.default_style
            sheet.write(row, column, value, style)
    sheet.write(17, 1, "Legends Used in Account Statement")
    sheet.write(18, 1, "BIL - Internet Bill Payment")
    if hidden is not None:
        sheet.row(hidden).hidden = True
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def workbook_rows(raw: bytes):
    kind = detect.detect(raw[: detect.HEAD_BYTES])
    rows, _ = statement_rows(io.BytesIO(raw), kind=kind, head=raw[: detect.HEAD_BYTES], currency="INR")
    return [(r.occurred_on, r.direction, r.amount, r.problems) for r in rows]


def test_an_old_excel_workbook_is_read_as_its_sheet_shows():
    assert workbook_rows(icici_book()) == [
        (dt.date(2025, 1, 1), "income", Decimal("175.20"), {}),
        (dt.date(2025, 1, 3), "expense", Decimal("45.00"), {}),
        (dt.date(2025, 1, 6), "income", Decimal("8.50"), {}),
    ]


def test_a_row_hidden_in_an_old_excel_sheet_is_not_read():
    assert [amount for _, _, amount, _ in workbook_rows(icici_book(hidden=14))] == [Decimal("175.20"), Decimal("8.50")]


def test_an_old_office_file_holding_no_workbook_is_refused():
    raw = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(1024)
    with pytest.raises(ValidationFailed) as caught:
        workbook_rows(raw)
    assert caught.value.code == "INVALID_XLS"
