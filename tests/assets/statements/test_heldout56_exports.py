"""Table tests of the readers on Cornèrcard's card CSV found on heldout56 after its one measurement: its balances
written as lines with no date, the one brought forward (`Saldovortrag:`) and the one the card will collect (`Saldo
welchen wir am … einfordern`), which are no transactions. Figures made up."""

import datetime as dt
from decimal import Decimal

import pytest

from tests.assets.statements.test_heldout17_exports import rows_of

HEADER = "Datum,Beschreibung,Belastung CHF,Gutschrift CHF,Kartennummer,Name Karteninhaber\n"
LINES = (
    ",Saldovortrag:,20.00,,,\n"
    "25/01/2018,IHRE ZAHLUNG,,20.00,,\n"
    '24/01/2018,"SHOP ONE,Bern",12.50,,xxxx-xxxx-xxxx-1234,A HOLDER\n'
)


@pytest.mark.parametrize(
    "closing",
    [",Saldo welchen wir am 27.02.2018 bei Ihrer Bank einfordern ,12.50,,,\n", ",SOLDE à payer,12.50,,,\n"],
    ids=["saldo", "solde"],
)
def test_an_undated_balance_line_is_no_transaction(closing):
    assert rows_of((HEADER + LINES + closing).encode(), "CHF") == [
        (dt.date(2018, 1, 25), "income", Decimal("20.00"), {}),
        (dt.date(2018, 1, 24), "expense", Decimal("12.50"), {}),
    ]


def test_an_undated_payment_is_still_a_bad_row_not_dropped():
    rows = rows_of((HEADER + LINES + ",Balance transfer,12.50,,,\n").encode(), "CHF")
    assert rows[-1][3] and "date" in rows[-1][3]
