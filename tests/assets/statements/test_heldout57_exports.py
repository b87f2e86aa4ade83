"""Table tests of the readers on heldout57's files found after its one measurement: Bankwest's card hold listed among
its lines (`AUTHORISATION ONLY - …`), and Bank Mandiri's headerless cash-management layout, which writes a zero, not a
blank, on each line's other side. Figures made up."""

import datetime as dt
from decimal import Decimal

import pytest

from tests.assets.statements.test_heldout17_exports import rows_of

BANKWEST = (
    "Transaction Date,Narration,Cheque Number,Debit,Credit,Transaction Type\n"
    '02/04/2013,"AUTHORISATION ONLY - EFTPOS PURCHASE AT A CAFE   MELBOURNE   AUSAU",,-33.00,,DAU\n'
    '03/04/2013,"HARDWARE STORE 6310",,-14.98,,CHQ\n'
    '27/03/2013,"SALARY Job Pty Ltd",,,1242.34,PAY\n'
)
MANDIRI = (
    "1234567890123;IDR;1101;29/06/2011;Setor Tunai   ;A DEPOSITOR;;0000000000000.00;769780;769780.00\n"
    "1234567890123;IDR;0453;30/06/2011;Biaya Adm   ;;;25000;0000000000000.00;744780.00\n"
    "1234567890123;IDR;0160;30/06/2011;Bunga   ;;;0000000000000.00;1000.00;745780.00\n"
    "1234567890123;IDR;0198;30/06/2011;Pajak   ;;;200.00;0000000000000.00;745580.00\n"
)


def test_a_card_hold_listed_among_the_lines_is_not_booked():
    assert rows_of(BANKWEST.encode(), "AUD") == [
        (dt.date(2013, 4, 3), "expense", Decimal("14.98"), {}),
        (dt.date(2013, 3, 27), "income", Decimal("1242.34"), {}),
    ]


def test_a_zero_on_a_lines_other_side_is_blank_and_the_balance_tells_debit_from_credit():
    assert rows_of(MANDIRI.encode(), "IDR") == [
        (dt.date(2011, 6, 29), "income", Decimal("769780"), {}),
        (dt.date(2011, 6, 30), "expense", Decimal("25000"), {}),
        (dt.date(2011, 6, 30), "income", Decimal("1000.00"), {}),
        (dt.date(2011, 6, 30), "expense", Decimal("200.00"), {}),
    ]


@pytest.mark.parametrize(
    ("written", "currency", "read"),
    [
        ("25000DR", "IDR", ("expense", Decimal("25000"))),
        ("0.31DR", "IDR", ("expense", Decimal("0.31"))),
        ('"1,000.00 CR"', "INR", ("income", Decimal("1000.00"))),
        ('"25,000.00 Dr"', "INR", ("expense", Decimal("25000.00"))),
        ("1.234,56 Db", "EUR", ("expense", Decimal("1234.56"))),
        ("12.00 Cr.", "USD", ("income", Decimal("12.00"))),
    ],
)
def test_a_figure_written_with_its_side_after_it_reads_as_that_side(written, currency, read):
    # Mandiri's 2010 layout writes its debits `25000DR`, as Indian and Malaysian banks write `Dr` and `Cr`; the
    # column's bare figures beside them are money in. Beside money in marked alone (`1,000.00 CR`), the bare
    # figures are the money out, as beside a `+` (signs.credits_marked).
    sep, bare = (";", "1,55") if currency == "EUR" else (",", "1.55")
    lines = [["Date", "Description", "Amount"], ["31/08/2010", "A bare line", bare], ["01/09/2010", "A line", written]]
    raw = "".join(sep.join(line) + "\n" for line in lines)
    rows = rows_of(raw.encode(), currency)
    bare_way = "expense" if read[0] == "income" else "income"
    assert [(r[1], r[2]) for r in rows] == [(bare_way, Decimal("1.55")), read]
