"""A bank's "Excel" download that is an HTML table under an `.xls` name (Openbank's, found on heldout54 after its one
measurement): detected from its first bytes, read row by row through the same header search and mapping as CSV and
XLSX, and bad pages refused as a whole. Figures made up."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.models import Transaction
from assets.statements import detect
from assets.statements.rows import ImportRejected
from tests.assets.statements.test_bank_standards import CORPUS, imports_once_and_refuses_it_broken, refused_code, table

SEP = '<td id="TDSeparadorInicial" />'


def row(*cells: str) -> str:
    return "<tr>" + "".join(f"{SEP}<td>{cell}</td>" for cell in cells) + "</tr>"


PAGE = (
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n'
    '<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1" /></head><body><table>'
    + '<tr><td colspan="4"><b>Cuentas - Movimientos</b></td></tr>'
    + row("Número de Cuenta:", "0073 0100 50 0000000000")
    + row("Saldo:", "2.150,50 EUR")
    + row("Fecha Operación", "Fecha Valor", "Concepto", "Importe", "Saldo")
    + row("12/11/2025", "12/11/2025", "Compra en comercio &amp; más", "-30,00", "2.150,50")
    + row("10/11/2025", "10/11/2025", "Transferencia<br/>recibida", "1.500,00", "2.180,50")
    + "</table></body></html>"
)
READ = [
    (dt.date(2025, 11, 12), "expense", Decimal("30.00"), "EUR", "Compra en comercio & más"),
    (dt.date(2025, 11, 10), "income", Decimal("1500.00"), "EUR", "Transferencia recibida"),
]


@pytest.mark.parametrize(
    "start",
    [
        b"<!DOCTYPE html>\n<html>",
        b"<html xmlns:x='urn:schemas-microsoft-com:office:excel'>",
        b'<?xml version="1.0"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x">',
        b"\xef\xbb\xbf  <!-- saved by the bank -->\n<TABLE border=1>",
        b"<meta charset='utf-8'><table>",
    ],
)
def test_a_web_page_is_detected_as_html_before_any_xml(start):
    assert detect.detect(start + b"<tr><td>x</td></tr></table>") == detect.HTML


def test_xml_that_is_no_page_stays_xml():
    assert detect.detect(b'<?xml version="1.0"?><Document><BkToCstmrStmt>') == detect.CAMT053
    with pytest.raises(ImportRejected) as caught:
        detect.detect(b"<htmlish/>")  # neither a page nor a CAMT statement
    assert caught.value.code == "UNSUPPORTED_FORMAT"


def test_the_table_is_read_under_its_header_whatever_charset_the_page_declares():
    assert table(PAGE.encode("utf-8")) == READ  # declared Latin-1, written UTF-8, as Openbank's page is
    assert table(PAGE.encode("latin-1")) == READ  # written as declared


def test_a_page_declaring_windows_1251_is_read_in_it():
    page = (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1251"></head><table>'
        + row("Дата операции", "Описание", "Сумма")
        + row("01.04.2025", "Кафе", "-150,00")
        + "</table></html>"
    )
    assert table(page.encode("cp1251"), "RUB") == [(dt.date(2025, 4, 1), "expense", Decimal("150.00"), "RUB", "Кафе")]


def test_a_cell_spanning_columns_keeps_the_row_under_its_header_and_a_layout_table_is_not_read():
    page = (
        "<html><body><table><tr><td><table><tr><td>Logo</td><td>Banco</td></tr></table></td></tr></table>"
        "<table><tr><th>Date</th><th>Description</th><th>Debit</th><th>Credit</th></tr>"
        '<tr><td>2025-11-03</td><td colspan="2">Salary</td><td>900.00</td></tr>'
        "<tr><td>2025-11-04</td><td>Coffee</td><td>4.50</td><td></td></tr></table>"
    )
    assert table(page.encode()) == [
        (dt.date(2025, 11, 3), "income", Decimal("900.00"), "EUR", "Salary"),
        (dt.date(2025, 11, 4), "expense", Decimal("4.50"), "EUR", "Coffee"),
    ]


def test_openbanks_page_is_read_exactly():
    rows = table((CORPUS / "heldout54/asensionacher__openbank_ejemplo.xls").read_bytes())
    assert len(rows) == 8 and sum(r[2] if r[1] == "income" else -r[2] for r in rows) == Decimal("1109.50")


@pytest.mark.parametrize(
    "page",
    [
        b"<!DOCTYPE html><html><body><p>Session expired. Please sign in again.</p></body></html>",
        # An entity bomb: the HTML parser expands no entity a page declares, and there is no table to read.
        b'<!DOCTYPE html [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
        b'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><html><body>&c;&c;&c;</body></html>',
        # Broken markup is recovered from, as a browser would, not raised: NUL bytes, tags never closed.
        b"<html><body>\x00<p>unclosed <b>bold" + b"<div>" * 10_000,
    ],
    ids=["no-table", "entity-bomb", "broken-markup"],
)
def test_a_page_with_no_table_is_refused_naming_the_formats_zeus_reads(page):
    assert refused_code(page) == "UNSUPPORTED_FORMAT"


@pytest.mark.django_db
def test_an_html_table_imports_through_the_api(alice_api):
    no_table = b"<html><body><p>Nothing here</p></body></html>"
    imports_once_and_refuses_it_broken(
        alice_api, "movimientos.xls", PAGE.encode(), no_table, count=2, code="UNSUPPORTED_FORMAT"
    )
    assert set(Transaction.objects.values_list("amount", flat=True)) == {Decimal("30.00"), Decimal("1500.00")}
