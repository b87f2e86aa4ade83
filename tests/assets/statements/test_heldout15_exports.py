"""Table tests of the readers on the bank exports found on heldout15 after its one measurement: Swiss banks'
CSVs, their German, French, Italian and English header words (`Belastung`, `Gutschrift`, `Accredito in CHF`,
`Execution date`, `Booked At`, `Credit/Debit Amount`, `Data registrazione`), thousands grouped by an
apostrophe (`9'766.50`), and the booking date read before the value date as in every other file. Each case a
few lines as such a file has them (figures made up), and what it must give; and the guards the rules must
not catch."""

import datetime as dt
import io
from decimal import Decimal

import pytest

from assets.statements import figures
from assets.statements.cells import figure
from assets.statements.headers import auto_mapping
from assets.statements.read import statement_rows
from zeus.errors import ValidationFailed


def rows_of(raw: bytes, currency: str = "CHF"):
    rows, _ = statement_rows(io.BytesIO(raw), kind="csv", head=raw, currency=currency)
    return [(r.occurred_on, r.direction, r.amount, r.problems) for r in rows]


@pytest.mark.parametrize(
    ("header", "want"),
    [
        (
            ["Buchungsdatum", "Text", "Belastung", "Gutschrift"],
            {"date": "Buchungsdatum", "description": "Text", "debit": "Belastung", "credit": "Gutschrift"},
        ),
        (
            ["Buchungsdatum", "Valutadatum", "Auftragsart", "Text", "Belastungsbetrag (CHF)",
             "Gutschriftsbetrag (CHF)", "Saldo (CHF)"],
            {"date": "Buchungsdatum", "description": "Text", "debit": "Belastungsbetrag (CHF)",
             "credit": "Gutschriftsbetrag (CHF)"},
        ),
        # The day the order was carried out, not the value date beside it; the text under `Transactions`.
        (
            ["Execution date", "Transactions", "Debit", "Credit", "Value date", "Balance"],
            {"date": "Execution date", "description": "Transactions", "debit": "Debit", "credit": "Credit"},
        ),
        # A unit in words (`in CHF`); beside credit and debit columns the `Importo` total column is not read.
        (
            ["Data", "Denominazione", "Accredito in CHF", "Addebito in CHF", "Importo in CHF"],
            {"date": "Data", "description": "Denominazione", "credit": "Accredito in CHF",
             "debit": "Addebito in CHF"},
        ),
        # One signed column named for both ways: the amount, not the credit its first word names.
        (
            ["IBAN", "Booked At", "Text", "Credit/Debit Amount", "Balance", "Valuta Date"],
            {"date": "Booked At", "description": "Text", "amount": "Credit/Debit Amount"},
        ),
        # Italian's registration day is the booking, the `Data valuta` the interest's.
        (
            ["", "Data registrazione", "Descrizione", "Dettaglio", "Data valuta", "Importo", "Saldo"],
            {"date": "Data registrazione", "description": "Descrizione", "amount": "Importo"},
        ),
        # A card's day of the operation (`Data operazione`) after the day it was registered, the booking.
        (
            ["Data operazione", "Data registrazione", "Descrizione", "Importo"],
            {"date": "Data registrazione", "description": "Descrizione", "amount": "Importo"},
        ),
        (
            ["Date de comptabilisation", "Libellé", "Montant en EUR"],
            {"date": "Date de comptabilisation", "description": "Libellé", "amount": "Montant en EUR"},
        ),
    ],
    ids=["belastung", "belastungsbetrag", "execution-date", "in-chf", "credit-debit-amount", "registrazione",
         "registrazione-before-operazione", "en-eur"],
)  # fmt: skip
def test_swiss_header_words(header, want):
    assert auto_mapping(header) == want


@pytest.mark.parametrize(
    ("header", "want"),
    [
        # A column naming both sides says which way each line went in its own words: neither side's column.
        (
            ["Gutschrift / Belastung", "Datum", "Valuta", "Buchungstext", "Betrag", "Saldo"],
            {"date": "Datum", "description": "Buchungstext", "amount": "Betrag"},
        ),
        # `in` before no currency code is a word of the name (`Money in`), not a unit.
        (
            ["Date", "Details", "Money in", "Money out"],
            {"date": "Date", "description": "Details", "credit": "Money in", "debit": "Money out"},
        ),
        # `Credit/Debit` on its own is a direction column, as before.
        (
            ["Date", "Description", "Amount", "Credit/Debit"],
            {"date": "Date", "description": "Description", "amount": "Amount", "direction": "Credit/Debit"},
        ),
    ],
    ids=["both-sides", "money-in", "credit-debit-direction"],
)
def test_header_words_the_swiss_rules_leave_alone(header, want):
    assert auto_mapping(header) == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("9'766.50", "9766.50"),
        ("9\u2019766.50", "9766.50"),
        ("9\u02bc766.50", "9766.50"),
        ("1'234'567", "1234567"),
        ("62'067,87", "62067,87"),
        ("1'350.00 CHF", "1350.00"),
    ],
    ids=["ascii", "u2019", "u02bc", "two-groups", "decimal-comma", "with-currency"],
)
def test_apostrophe_thousands_are_written_without_them(text, want):
    assert figures.without_currency(text, "CHF") == want


@pytest.mark.parametrize(
    "text",
    # Groups not of three, two kinds of apostrophe in one figure, an apostrophe after the decimal mark.
    ["12'34.50", "1'000\u2019000", "1.234'567", "'1000"],
    ids=["not-three", "mixed", "after-mark", "leading"],
)
def test_apostrophes_that_group_nothing_are_left_as_written(text):
    assert figures.without_currency(text, "CHF") == text


@pytest.mark.parametrize(
    ("cells", "want"),
    # Figures grouped by U+2019 or U+02BC tell the mark after them, as those grouped by `'` do.
    [(["9\u2019766.50", "1'000"], "."), (["1\u02bc838,00", "2'000"], ","), (["1'000", "2'000"], None)],
    ids=["point", "comma", "whole-groups-tell-nothing"],
)
def test_the_decimal_mark_of_apostrophe_grouped_figures(cells, want):
    assert figures.decimal_mark(cells) == want


@pytest.mark.parametrize(
    ("text", "mark", "want"),
    [("9\u2019766.50", ".", Decimal("9766.50")), ("-1\u02bc838,00", ",", Decimal("-1838.00"))],
    ids=["u2019", "u02bc"],
)
def test_the_cell_reader_reads_every_apostrophe(text, mark, want):
    assert figure(text, mark) == want


CREDIT_SUISSE = (
    '\ufeffErstellt am 02.10.2025 16:27:47 CEST\r\nBuchungen suchen\r\nKonto,"Firmenkonto"\r\n'
    "Saldo,18'367.58 CHF\r\nBuchungen\r\nBuchungsdatum,Text,Belastung,Gutschrift\r\n"
    '29.01.2024,"Miete",1\'250.00,\r\n25.01.2024,"Zahlung",,341.25\r\nTOTAL SPALTE,,1\'250.00,341.25\r\n'
)
APOSTROPHES = (
    "Buchung;Buchungstext;Belastung;Gutschrift;Saldo CHF;\r\n"
    "11.10.2024;Lohn;;1\u2019838.00;62\u2019067.87;\r\n"
    "10.10.2024;Steuern;9\u02bc766.50;;60\u02bc229.87;\r\n"
    "09.10.2024;Miete;2'000.00;;69'996.37;\r\n"
)
POSTFINANCE_IT = (
    "Conto:;0000 0000\r\nPeriodo:;06.04.2022 - 05.05.2022\r\n"
    "Data;Denominazione;Accredito in CHF;Addebito in CHF;Importo in CHF\r\n"
    '2022-05-04;"NEGOZIO";;52.00;\r\n2022-05-02;"VERSAMENTO";300.00;;\r\n2023-03-08;Totale;;;248.00\r\n'
)
RAIFFEISEN = (
    "IBAN;Booked At;Text;Credit/Debit Amount;Balance;Valuta Date\r\n"
    "CH0000000000000000000;2025-03-26 00:00:00.0;Test;-971.32;57.36;2025-03-26 00:00:00.0\r\n"
    ";;Continued on next line;;;\r\n"
    "CH0000000000000000000;2025-03-28 00:00:00.0;Test;1000;1057.36;2025-03-28 00:00:00.0\r\n"
    "CH0000000000000000000;2025-03-31 00:00:00.0;Test;0;1057.36;2025-03-31 00:00:00.0\r\n"
)
# Booked on `Data registrazione`, two days before the `Data valuta`.
CORNER = (
    ";Conto No.;123456/01 CHF;;;;\r\n;;;;;;\r\n"
    ";Data registrazione;Descrizione;Dettaglio;Data valuta;Importo;Saldo\r\n"
    ";28/02/24;Carta;;01/03/24;-25.0;1000.0\r\n;;Acquisto;;;;\r\n;09/03/24;Bonifico;;10/03/24;2754.81;3754.81\r\n"
)
BCV = (
    "Transactions list;;;;;20.10.2025, 23:40\r\n;;;;;\r\nAccount No. : XXXX;;;;;\r\n;;;;;\r\n"
    "Execution date;Transactions;Debit;Credit;Value date;Balance\r\n"
    "27.09.2025;Achat;96.00;;25.09.2025;\r\n19.09.2025;Virement;;4'250.00;17.09.2025;\r\n"
)


@pytest.mark.parametrize(
    ("raw", "want"),
    [
        (
            CREDIT_SUISSE.encode(),
            [(dt.date(2024, 1, 29), "expense", Decimal("1250.00"), {}),
             (dt.date(2024, 1, 25), "income", Decimal("341.25"), {})],
        ),
        (
            APOSTROPHES.encode(),
            [(dt.date(2024, 10, 11), "income", Decimal("1838.00"), {}),
             (dt.date(2024, 10, 10), "expense", Decimal("9766.50"), {}),
             (dt.date(2024, 10, 9), "expense", Decimal("2000.00"), {})],
        ),
        (
            POSTFINANCE_IT.encode(),
            [(dt.date(2022, 5, 4), "expense", Decimal("52.00"), {}),
             (dt.date(2022, 5, 2), "income", Decimal("300.00"), {})],
        ),
        (
            RAIFFEISEN.encode(),
            [(dt.date(2025, 3, 26), "expense", Decimal("971.32"), {}),
             (dt.date(2025, 3, 28), "income", Decimal("1000.00"), {})],
        ),
        (
            CORNER.encode(),
            [(dt.date(2024, 2, 28), "expense", Decimal("25.00"), {}),
             (dt.date(2024, 3, 9), "income", Decimal("2754.81"), {})],
        ),
        (
            BCV.encode(),
            [(dt.date(2025, 9, 27), "expense", Decimal("96.00"), {}),
             (dt.date(2025, 9, 19), "income", Decimal("4250.00"), {})],
        ),
    ],
    ids=["credit-suisse", "apostrophes", "postfinance-it", "raiffeisen", "corner-booking-date", "bcv"],
)  # fmt: skip
def test_rows_of_swiss_exports(raw, want):
    assert rows_of(raw) == want


def order_and_value(order_day: str) -> bytes:
    return (
        "Auftragsdatum;Buchungstext;Belastungsbetrag (CHF);Gutschriftsbetrag (CHF);Valutadatum;Saldo (CHF)\r\n"
        f"{order_day};Zahlung;70.16;;31.01.2026;1000.00\r\n30.01.2026;Lohn;;384.40;30.01.2026;1070.16\r\n"
    ).encode()


def test_a_value_date_beside_another_day_in_an_unnamed_date_column_is_not_read_as_the_booking():
    # Which of the order day and the value date is the booking the header does not say: a mapping is asked for.
    with pytest.raises(ValidationFailed) as caught:
        rows_of(order_and_value("29.01.2026"))
    assert caught.value.code == "CSV_BAD_HEADER"


def test_a_value_date_the_other_date_column_agrees_with_reads_as_before():
    assert rows_of(order_and_value("31.01.2026")) == [
        (dt.date(2026, 1, 31), "expense", Decimal("70.16"), {}),
        (dt.date(2026, 1, 30), "income", Decimal("384.40"), {}),
    ]
