"""Table tests of the readers on the bank exports found on heldout16 after its one measurement: card exports'
header words (`Data Op.`, `Verbucht am`, `Gutschrift CHF`, `Billing Amount`, `Debit/Credit Flag`,
`Debit/Kredit`, `Transaktionsdatum`, `Belegdatum`, `Umsatzbeschreibung`), a card statement in sections each
under its own header, a balance carried from the last bill (`Saldovortrag`), a headless export whose amount
is blank on a line that moves no money, a card named with its number above the header, whose unsigned
charges are money out, and a booking day written without its year (Swedish `Bokfört` `07-08`), which takes the
year of the line's other date. Each case a few lines as such a file has them (figures made up), and what it must
give; and the guards the rules must not catch."""

import datetime as dt
import io
from decimal import Decimal

import pytest

from assets.statements import detect, signs
from assets.statements.headers import auto_mapping
from assets.statements.read import statement_rows
from tests.assets.statements.tables import xlsx


def rows_of(raw: bytes, currency: str = "CHF", kind: str = "csv"):
    rows, _ = statement_rows(io.BytesIO(raw), kind=kind, head=raw[: detect.HEAD_BYTES], currency=currency)
    return [(r.occurred_on, r.direction, r.amount, r.problems) for r in rows]


@pytest.mark.parametrize(
    ("header", "want"),
    [
        # Italian's abbreviated operation day (`Data Op.`), its value date (`Data Val.`) beside it.
        (
            ["Data Op.", "Data Val.", "Causale", "Descrizione", "Importo", "Div."],
            {"date": "Data Op.", "description": "Descrizione", "amount": "Importo"},
        ),
        # Swiss German's booked-on day, and a currency code after the column's name.
        (
            ["Verbucht am", "Beschreibung", "Gutschrift CHF", "Belastung CHF"],
            {"date": "Verbucht am", "description": "Beschreibung", "credit": "Gutschrift CHF",
             "debit": "Belastung CHF"},
        ),
        (
            ["Einkaufs-Datum", "Verbucht am", "Beschreibung", "Gutschrift CHF", "Belastung CHF"],
            {"date": "Verbucht am", "description": "Beschreibung", "credit": "Gutschrift CHF",
             "debit": "Belastung CHF"},
        ),
        # A card's billed figure, and its flag (D or C) the way: not a debit column.
        (
            ["Transaction Date", "Posting Date", "Card Number", "Billing Amount", "Description",
             "Reference Number", "Debit/Credit Flag"],
            {"date": "Posting Date", "amount": "Billing Amount", "description": "Description",
             "external_id": "Reference Number", "direction": "Debit/Credit Flag"},
        ),
        (
            ["Transaktionsdatum", "Beschreibung", "Händler", "Kartennummer", "Währung", "Betrag",
             "Debit/Kredit", "Status"],
            {"date": "Transaktionsdatum", "description": "Beschreibung", "currency": "Währung",
             "amount": "Betrag", "direction": "Debit/Kredit", "status": "Status"},
        ),
        # A card's receipt day (the purchase) before its value date: a value date only where there is no other.
        (
            ["Umsatz abgerechnet", "Wertstellung", "Belegdatum", "Umsatzbeschreibung", "Betrag (EUR)",
             "Ursprünglicher Betrag"],
            {"date": "Belegdatum", "description": "Umsatzbeschreibung", "amount": "Betrag (EUR)"},
        ),
    ],
    ids=["data-op", "verbucht-am", "einkaufs-datum-beside", "billing-amount-flag", "debit-kredit",
         "belegdatum-before-wertstellung"],
)  # fmt: skip
def test_card_export_header_words(header, want):
    assert auto_mapping(header) == want


@pytest.mark.parametrize(
    ("header", "want"),
    [
        # The booking before the card's receipt day or its day of use.
        (
            ["Belegdatum", "Buchungsdatum", "Text", "Betrag"],
            {"date": "Buchungsdatum", "description": "Text", "amount": "Betrag"},
        ),
        (
            ["Transaktionsdatum", "Buchungsdatum", "Text", "Betrag"],
            {"date": "Buchungsdatum", "description": "Text", "amount": "Betrag"},
        ),
        # A unit in words still reads as before; a last word that is no currency is part of the name.
        (
            ["Date", "Description", "Montant en EUR"],
            {"date": "Date", "description": "Description", "amount": "Montant en EUR"},
        ),
        (["Date", "Description", "Amount due"], None),
    ],
    ids=["buchungsdatum-before-belegdatum", "buchungsdatum-before-transaktionsdatum", "en-eur", "amount-due"],
)  # fmt: skip
def test_header_words_the_card_rules_leave_alone(header, want):
    assert auto_mapping(header) == want


# A card's bill in sections, each under its own header: the last bill's payment, then the purchases with their
# purchase day before the booking, then a correction; a balance carried forward and a comment row between.
SECTIONS = (
    "Verbucht am,Beschreibung,Gutschrift CHF,Belastung CHF\n"
    '"",Saldovortrag letzte Rechnung,,1\'234.56\n'
    "04.09.2020,Ihre LSV-Zahlung - Besten Dank,1'234.56,\n"
    "Einkaufs-Datum,Verbucht am,Beschreibung,Gutschrift CHF,Belastung CHF\n"
    "22.08.2020,24.08.2020,Kiosk,,12.34\n"
    "09.09.2020,10.09.2020,Velo,,1'233.45\n"
    '"",,"Kurs EUR 1.07",,\n'
    "Verbucht am,Beschreibung,Gutschrift CHF,Belastung CHF\n"
    "23.09.2020,Rundungskorrektur,0.02,"
)
SWISSCARD = (
    "Transaction Date, Posting Date, Card Number ,Billing Amount, Description, Reference Number , "
    "Debit/Credit Flag \n"
    '14.02.2020,14.02.2020,1234,CHF0.50,"Gebuehr", "",D\n'
    '12.02.2020,13.02.2020,1234,CHF34.65,"Laden", "42",D\n'
    '06.02.2020,06.02.2020,1234,-CHF2\'000.50,"IHRE ZAHLUNG", "43",C\n'
)
SWISSCARD_DE = (
    "Transaktionsdatum,Beschreibung,Kartennummer,Währung,Betrag,Debit/Kredit,Status\n"
    '"06.07.2024","Kleider","11","CHF","72.60","Belastung","Gebucht"\n'
    '"05.07.2024","Rückerstattung","11","CHF","6.00","Gutschrift","Gebucht"\n'
)
# Title, account and period above the header, totals in the column beside the amounts under it.
OPERATIONS = (
    ",,,,,Lista Movimenti Conto,\n"
    "Numero Conto,0000012345678,,Data Aggiornamento,,29/12/2024,\n"
    'Saldo Iniziale,"627,89 EUR",,Saldo Finale,,"627,10 EUR",\n'
    "Data dal,01/10/2024,,Data al,,29/12/2024,\n"
    ",,,,,,\n"
    "Data Op.,Data Val.,Causale,Descrizione,Importo,Div.,\n"
    "16/12/2024,17/12/2024,PAGAMENTO,Cartoleria,-75.00,EUR,\n"
    "29/11/2024,29/11/2024,BONIFICO,Stipendio,750.00,EUR,\n"
    ",,,,,,\n"
    ",,,Totale Entrate,,750.00,,\n"
    ",,,Totale Uscite,,75.00,,\n"
)
RECEIPTS = (
    '"Kreditkarte:";"1234********1234 Kreditkarte";\n\n"Von:";"07.02.2012";\n"Saldo:";"-76.77 EUR";\n\n'
    '"Umsatz abgerechnet";"Wertstellung";"Belegdatum";"Umsatzbeschreibung";"Betrag (EUR)";'
    '"Ursprünglicher Betrag";\n'
    '"Nein";"04.02.2013";"02.02.2013";"AUTOMAT";"-95,00";"";\n'
    '"Ja";"23.01.2013";"22.01.2013";"Habenzinsen";"0,21";"";\n'
)
# No header: card, booking day, receipt day, text, three empty cells, the signed amount; a bonus line has none.
HEADLESS = (
    "\r\n1111222233330000;28.12.2012;28.12.2012;STEUER;;;-0,17\r\n"
    "1111222233334444;07.01.2013;06.01.2013;SHOP;;;-30,00\r\n"
    "1111222233334444;07.01.2013;07.01.2013;+ 15.0 PUNKTE;;;\r\n"
    "1111222233330000;25.01.2013;25.01.2013;ZINSEN;;;0,67\r\n"
)


@pytest.mark.parametrize(
    ("raw", "currency", "want"),
    [
        (
            SECTIONS.encode(),
            "CHF",
            [(dt.date(2020, 9, 4), "income", Decimal("1234.56"), {}),
             (dt.date(2020, 8, 24), "expense", Decimal("12.34"), {}),
             (dt.date(2020, 9, 10), "expense", Decimal("1233.45"), {}),
             (dt.date(2020, 9, 23), "income", Decimal("0.02"), {})],
        ),
        (
            SWISSCARD.encode(),
            "CHF",
            [(dt.date(2020, 2, 14), "expense", Decimal("0.50"), {}),
             (dt.date(2020, 2, 13), "expense", Decimal("34.65"), {}),
             (dt.date(2020, 2, 6), "income", Decimal("2000.50"), {})],
        ),
        (
            SWISSCARD_DE.encode(),
            "CHF",
            [(dt.date(2024, 7, 6), "expense", Decimal("72.60"), {}),
             (dt.date(2024, 7, 5), "income", Decimal("6.00"), {})],
        ),
        (
            ("\ufeff" + OPERATIONS).encode(),
            "EUR",
            [(dt.date(2024, 12, 16), "expense", Decimal("75.00"), {}),
             (dt.date(2024, 11, 29), "income", Decimal("750.00"), {})],
        ),
        (
            RECEIPTS.encode("cp1252"),
            "EUR",
            [(dt.date(2013, 2, 2), "expense", Decimal("95.00"), {}),
             (dt.date(2013, 1, 22), "income", Decimal("0.21"), {})],
        ),
        (
            HEADLESS.encode(),
            "EUR",
            [(dt.date(2012, 12, 28), "expense", Decimal("0.17"), {}),
             (dt.date(2013, 1, 7), "expense", Decimal("30.00"), {}),
             (dt.date(2013, 1, 25), "income", Decimal("0.67"), {})],
        ),
    ],
    ids=["sections", "swisscard-flag", "debit-kredit-words", "data-op-under-a-letterhead", "belegdatum-latin-1",
         "headless-line-without-amount"],
)  # fmt: skip
def test_rows_of_card_exports(raw, currency, want):
    assert rows_of(raw, currency) == want


def test_a_balance_carried_from_the_last_bill_is_no_transaction():
    raw = (
        b"Buchungsdatum,Text,Gutschrift,Belastung\n"
        b'"",Saldovortrag letzte Rechnung,,1\'234.56\n'
        b"04.09.2020,Zahlung,1'234.56,\n"
    )
    assert rows_of(raw) == [(dt.date(2020, 9, 4), "income", Decimal("1234.56"), {})]


def test_the_same_header_again_over_a_second_table_is_still_skipped():
    raw = b"Buchungsdatum,Text,Betrag\n01.02.2024,Miete,-1200.00\nBuchungsdatum,Text,Betrag\n02.02.2024,Lohn,5000.00\n"
    assert rows_of(raw) == [
        (dt.date(2024, 2, 1), "expense", Decimal("1200.00"), {}),
        (dt.date(2024, 2, 2), "income", Decimal("5000.00"), {}),
    ]


def test_a_headless_column_blank_on_most_lines_is_no_amount():
    raw = (
        b"1111222233330000;28.12.2012;STEUER;-0,17;\r\n"
        b"1111222233334444;07.01.2013;SHOP;-30,00;\r\n"
        b"1111222233334444;08.01.2013;SHOP;-2,00;1,50\r\n"
    )
    assert [r[:3] for r in rows_of(raw, "EUR")] == [
        (dt.date(2012, 12, 28), "expense", Decimal("0.17")),
        (dt.date(2013, 1, 7), "expense", Decimal("30.00")),
        (dt.date(2013, 1, 8), "expense", Decimal("2.00")),
    ]


def card_sheet(*, above: list[list], figures: list) -> bytes:
    return xlsx([
        *above,
        ["Datum", "Specifikation", "Ort", "Belopp"],
        *[["2020-07-0" + str(i + 1), "Butik", "Stad", f] for i, f in enumerate(figures)],
    ])  # fmt: skip


@pytest.mark.parametrize(
    ("above", "figures", "want"),
    [
        # A card named with its number above the header: its unsigned purchase is money out.
        ([["Kortnummer 123456******1337", None, "John Doe"]], ["125.42"], [("expense", Decimal("125.42"))]),
        (
            [["Kreditkarte:", "1234********1234 Kreditkarte"]],
            ["50.00", "20.00", "-70.00"],
            [("expense", Decimal("50.00")), ("expense", Decimal("20.00")), ("income", Decimal("70.00"))],
        ),
        # Guards: no card named, or no number beside the word, or a bank's figures (mostly negative): as signed.
        ([["Resultat denna sökning"]], ["125.42"], [("income", Decimal("125.42"))]),
        ([["Kortnummer"]], ["125.42"], [("income", Decimal("125.42"))]),
        (
            [["Kortnummer 123456******1337"]],
            ["-50.00", "-20.00", "70.00"],
            [("expense", Decimal("50.00")), ("expense", Decimal("20.00")), ("income", Decimal("70.00"))],
        ),
        # A `+` marks the money in: the file writes its own signs.
        (
            [["Kortnummer 123456******1337"]],
            ["50.00", "+20.00"],
            [("expense", Decimal("50.00")), ("income", Decimal("20.00"))],
        ),
    ],
    ids=["card-number-above", "card-number-in-the-next-cell", "no-card", "no-number", "mostly-negative",
         "plus-marked"],
)  # fmt: skip
def test_a_card_named_above_the_header_reads_its_charges_out(above, figures, want):
    rows = rows_of(card_sheet(above=above, figures=figures), "SEK", kind=detect.XLSX)
    assert [(direction, amount) for _, direction, amount, _ in rows] == want


@pytest.mark.parametrize(
    ("letterhead", "want"),
    [
        ([["Card number: **** 1234"]], True),
        ([["Kartennummer", "5490 **** **** 4932"]], True),
        ([["Kontonummer 123456789"]], False),
        ([["Card", "Visa Gold"]], False),
        ([["Kreditkarte: bitte begleichen Sie die Rechnung bis 30.11."]], False),
    ],
    ids=["card-number", "kartennummer-next-cell", "account-number", "card-without-number", "card-word-in-text"],
)
def test_card_above(letterhead, want):
    assert signs.card_above(letterhead) is want


@pytest.mark.parametrize(
    ("header", "want"),
    [
        # Swedish's booked day (`Bokfört`) before the purchase `Datum` and a `Valuta` (a currency in Swedish).
        (
            ["Datum", "Bokfört", "Specifikation", "Ort", "Valuta", "Utl.belopp/moms", "Belopp"],
            {"date": "Bokfört", "description": "Specifikation", "amount": "Belopp"},
        ),
        # The ledger day before the transaction day.
        (
            ["Reskontradatum", "Transaktionsdatum", "Text", "Belopp", "Saldo"],
            {"date": "Reskontradatum", "description": "Text", "amount": "Belopp"},
        ),
    ],
    ids=["bokfort", "reskontradatum"],
)  # fmt: skip
def test_swedish_booking_words(header, want):
    assert auto_mapping(header) == want


def booked_without_year(purchase: str, booked: str) -> bytes:
    return xlsx([
        ["Kortnummer 123456******1337"],
        ["Datum", "Bokfört", "Specifikation", "Belopp"],
        [purchase, booked, "ICA", "125.42"],
        ["Totalt belopp", None, None, "125.42"],
    ])  # fmt: skip


@pytest.mark.parametrize(
    ("purchase", "booked", "want"),
    [
        # Year-month-day without its year is month-day, in the purchase's year.
        ("2020-07-06", "07-08", dt.date(2020, 7, 8)),
        # Booked in the new year for a purchase at the old one's end.
        ("2020-12-30", "01-02", dt.date(2021, 1, 2)),
        # Day-first dates leave the day first.
        ("06.07.2020", "08.07.", dt.date(2020, 7, 8)),
    ],
    ids=["month-day", "across-the-new-year", "day-month"],
)
def test_a_booking_day_without_its_year_takes_the_year_of_the_line_s_other_date(purchase, booked, want):
    assert rows_of(booked_without_year(purchase, booked), "SEK", kind=detect.XLSX) == [
        (want, "expense", Decimal("125.42"), {})
    ]


def test_a_day_without_a_year_and_no_full_date_beside_it_is_no_date():
    # Nothing says its year: a bad row, named, nothing guessed.
    rows = rows_of(b"Bokf\xc3\xb6rt,Specifikation,Belopp\n07-08,ICA,-125.42\n", "SEK")
    assert [set(problems) for *_, problems in rows] == [{"date"}]


def test_a_day_without_a_year_between_two_full_dates_is_no_date():
    # Two full dates beside it: which one's year it shares is not said.
    raw = b"Datum,Bokf\xc3\xb6rt,Valutadatum,Specifikation,Belopp\n2020-12-30,01-02,2021-01-04,ICA,-125.42\n"
    assert [set(problems) for *_, problems in rows_of(raw, "SEK")] == [{"date"}]
