"""Table tests of the QIF reader on the Venezuelan download found on heldout40 after its one measurement:
Banesco's QIF, whose section header is Microsoft Money's Spanish `!Tipo:Banco` and whose amounts group thousands
with points and mark decimals with a comma (`T+13.000.000,00`). Figures made up; and the guards that a file whose
figures prove a decimal point, or prove nothing, reads as before."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.statements.detect import QIF, detect
from assets.statements.qiffile import qif_rows

BANESCO = (
    "!Tipo:Banco\r\nD01/10/2019\r\nT+13.000.000,00\r\nN00000559762\r\nPTRF.OB 0174 J000000000  \r\n"
    "LCategoria1Abono1\r\n^\r\nD02/10/2019\r\nT-23.000,00\r\nPCOMISION\r\nLCategoria1Cargo1\r\n^\r\n"
    "D31/10/2019\r\nT-0,10\r\nPABO TRASP\r\n^\r\n"
)


def rows_of(text: str, currency: str = "VES"):
    return [(r.occurred_on, r.direction, r.amount) for r in qif_rows(text, currency=currency, default_day_first=False)]


def test_a_spanish_qif_header_is_told_as_qif():
    assert detect(BANESCO.encode("cp1252")) == QIF


def test_a_spanish_qif_with_decimal_commas_reads_its_amounts():
    assert rows_of(BANESCO) == [
        (dt.date(2019, 10, 1), "income", Decimal("13000000.00")),
        (dt.date(2019, 10, 2), "expense", Decimal("23000.00")),
        (dt.date(2019, 10, 31), "expense", Decimal("0.10")),
    ]


@pytest.mark.parametrize(
    ("amounts", "read"),
    [
        (("T-1,234.56", "T250.00"), (Decimal("1234.56"), Decimal("250.00"))),  # a point proved: commas group
        (("T-1,234", "T250"), (Decimal("1234"), Decimal("250"))),  # nothing proved: as quiffen reads it
    ],
    ids=["decimal-point", "unproved"],
)
def test_a_qif_whose_figures_prove_no_decimal_comma_reads_as_before(amounts, read):
    text = "!Type:Bank\n" + "".join(f"D01/02/2024\n{amount}\nPX\n^\n" for amount in amounts)
    assert tuple(amount for _, _, amount in rows_of(text, "USD")) == read
