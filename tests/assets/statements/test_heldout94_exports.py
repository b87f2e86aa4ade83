"""Table tests of the readers on heldout94's files found after their one measurement: BBVA Spain's card list, whose
currency column writes the euro's sign, and a French bank's Microsoft Money (OFC) download. Figures made up."""

import datetime as dt
import io
from decimal import Decimal

import pytest

from assets.statements import detect
from assets.statements.conventions import currency_code
from assets.statements.read import statement_rows
from assets.statements.rows import ImportRejected
from tests.assets.statements.test_heldout17_exports import rows_of


def test_a_currency_column_of_euro_signs_is_in_euros():
    raw = (
        ",Fecha,Tarjeta,Concepto,Importe,Divisa\n"
        ",11/07/2025,4940121100360000,Netflix.com,-19.99,€\n"
        ",05/07/2025,4940121100360000,Recibo mes anterior,270.74,€\n"
    )
    assert rows_of(raw.encode()) == [
        (dt.date(2025, 7, 11), "expense", Decimal("19.99"), {}),
        (dt.date(2025, 7, 5), "income", Decimal("270.74"), {}),
    ]


@pytest.mark.parametrize(
    ("sign", "code"), [("€", "EUR"), ("₫", "VND"), ("₹", "INR"), ("₩", "KRW"), ("₪", "ILS"), ("$", "$"), ("¥", "¥")]
)
def test_a_currency_sign_names_its_currency_only_where_it_names_one(sign, code):
    assert currency_code(f" {sign} ") == code


OFC = """<OFC>
  <DTD>2
  <CPAGE>1252
  <ACCTSTMT>
   <ACCTFROM>
     <BANKID>30000
     <ACCTID>0400000
   </ACCTFROM>
   <STMTRS>
     <DTSTART>20111227
     <DTEND>20120203
     <LEDGER>0
       <STMTTRN>
         <TRNTYPE>1
         <DTPOSTED>20111227
         <TRNAMT>-150.00
         <FITID>92D01EF 7EFA0D55 00000000 20111227 -15000
         <NAME>BANQUE
         <MEMO> CB  RETRAIT DU  27/12
       </STMTTRN>
       <STMTTRN>
         <TRNTYPE>0
         <DTPOSTED>20111228
         <TRNAMT>300.00
         <FITID>82001B5 5E200641 00000000 20111228 30000
       </STMTTRN>
   </STMTRS>
  </ACCTSTMT>
</OFC>
"""


def test_microsoft_moneys_ofc_is_read_as_the_ofx_it_came_before():
    """A French bank's Money download (heldout94): OFX's transactions under an `<OFC>` envelope, no currency named."""
    raw = OFC.encode("cp1252")
    head = raw[: detect.HEAD_BYTES]
    rows, _ = statement_rows(io.BytesIO(raw), kind=detect.detect(head), head=head, currency="EUR")
    assert [(r.occurred_on, r.direction, r.amount, r.currency, r.description) for r in rows] == [
        (dt.date(2011, 12, 27), "expense", Decimal("150.00"), "EUR", "BANQUE CB RETRAIT DU 27/12"),
        (dt.date(2011, 12, 28), "income", Decimal("300.00"), "EUR", ""),
    ]


def test_an_ofc_file_cut_short_is_refused():
    raw = OFC.replace("</OFC>", "").replace("</STMTRS>", "").replace("</ACCTSTMT>", "").encode()
    head = raw[: detect.HEAD_BYTES]
    with pytest.raises(ImportRejected) as caught:
        list(statement_rows(io.BytesIO(raw), kind=detect.detect(head), head=head, currency="EUR")[0])
    assert caught.value.code == "INVALID_OFX"
