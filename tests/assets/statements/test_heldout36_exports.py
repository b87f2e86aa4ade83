"""Table tests of the readers on the Czech exports found on heldout36 after its one measurement: Komerční banka's
CSV in Windows-1250, whose `ě` after a letter looked like a Vietnamese tone in Windows-1258 (and `š`, `ž` are bytes
Windows-1258 does not have), and ČSOB's Czech column names; ČSOB's Windows-1250 with no `š`, `ž` or `ť`, told by
its `č` beside an accented vowel, its `ě` between a consonant and a letter, its `ř` before `í`. Figures and names
made up; and the guards that a Vietnamese Windows-1258 file still reads as one, and Western Windows-1252 text with
`è`, `ì`, `ù`, `ø` as that. Česká spořitelna's English export: its `Value date` booked where the statement's period
above the table holds it and not its `Processing date`, and its `Counteraccount name` the line's text."""

import datetime as dt
import io
from decimal import Decimal

import pytest

from assets.statements.headers import auto_mapping
from assets.statements.textfile import encoding_of
from tests.assets.statements.test_corpus import cp1258
from tests.assets.statements.test_heldout17_exports import rows_of
from zeus.errors import ValidationFailed

CZECH = "Datum;Částka;Poznámka\n01.06.2022;-323,00;Předchozí výpis ze dne, poštovné, Plzeň\n"


def test_czech_text_in_windows_1250_is_read_as_such():
    raw = CZECH.encode("cp1250")
    assert encoding_of(io.BytesIO(raw), raw) == "cp1250"
    assert raw.decode("cp1250") == CZECH


def test_vietnamese_in_windows_1258_is_still_read_as_vietnamese():
    raw = cp1258("Ngày;Số tiền;Nội dung\n01/06/2022;-50.000;Chuyển tiền mua cà phê\n")
    assert encoding_of(io.BytesIO(raw), raw) == "cp1258"


def test_csob_names_its_columns_in_czech():
    header = ["číslo účtu", "datum zaúčtování", "částka", "měna", "zůstatek", "název účtu protiúčtu", "poznámka"]
    assert auto_mapping(header) == {
        "date": "datum zaúčtování",
        "amount": "částka",
        "currency": "měna",
        "description": "název účtu protiúčtu",
    }


CSOB = (
    "Pohyby na účtu na účtu 12345678/0300 ze dne 05.07.2022 10:06:21;;;;\n;;;;\n"
    "číslo účtu;datum zaúčtování;částka;měna;zůstatek;název účtu protiúčtu;označení operace\n"
    "12345678/0300;10.06.2022;1500;CZK;2500.50;Pan Novák;Příchozí úhrada\n"
    "12345678/0300;04.06.2022;-100.55;CZK;1000.50;Paní Nováková;Odchozí úhrada\n"
)


def test_czech_text_without_s_z_or_t_carons_is_read_as_windows_1250():
    raw = CSOB.encode("cp1250")
    assert not set(raw) & set("šžťŠŽŤ".encode("cp1250"))
    assert encoding_of(io.BytesIO(raw), raw) == "cp1250"
    assert rows_of(raw, "CZK") == [
        (dt.date(2022, 6, 10), "income", Decimal("1500.00"), {}),
        (dt.date(2022, 6, 4), "expense", Decimal("100.55"), {}),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Date;Libellé;Montant\n01/06/2022;Crédit Agricole, crème brûlée, dernière échéance, Hélène;-12,50\n",
        "Data;Descrizione;Importo\n01/06/2022;Più caffè, lunedì, così, città, perché, Niccolò;-3,20\n",
        "Fecha;Concepto;Importe\n01/06/2022;Cafè Pirineus, època, èxit, Ramón Martí, Muñoz;-4,10\n",
        "Dato;Tekst;Beløb\n01.06.2022;Søren Sørensen, Københavns Kommune, Frøken Jørgensen;-250,00\n",
        "Date;Description;Amount\n01/06/2022;Où est Zoë, Dubè & Frères, Bibliothèque;-7.00\n",
    ],
)
def test_western_text_with_grave_accents_stays_windows_1252(text):
    raw = text.encode("cp1252")
    assert encoding_of(io.BytesIO(raw), raw) == "cp1252"


CESKA = (
    "Prefix;;;;;;\nAccount number;12345678;;;;;\nStart date of the period;2022/06/01;;;;;\n"
    "End date of the period;2022/06/30;;;;;\nOpening balance;1000.00;;;;;\nFinal balance;651.00;;;;;\n;;;;;;\n"
    "Amount (Transaction);Incoming/outgoing (credit-debit item);Item;Counteraccount name;Value date;Processing date;"
    "Variable symbol 1\n"
    "-200;Outgoing;Cena za vedení účtu;;2022/06/30;2022/07/01;\n"
    "51;Incoming;Příchozí úhrada;Pan Novák;2022/06/24;2022/06/24;2745428\n"
    "-200;Outgoing;Tuzemská odchozí úhrada;;2022/06/07;2022/06/07;20210099\n"
)


def test_a_value_date_the_statements_period_holds_is_the_booking_where_the_processing_date_falls_outside():
    assert rows_of(CESKA.encode("cp1250"), "CZK") == [
        (dt.date(2022, 6, 30), "expense", Decimal("200.00"), {}),
        (dt.date(2022, 6, 24), "income", Decimal("51.00"), {}),
        (dt.date(2022, 6, 7), "expense", Decimal("200.00"), {}),
    ]


@pytest.mark.parametrize(
    "change",
    [
        ("End date of the period;2022/06/30", "End date of the period;2022/07/31"),  # both dates within it
        ("Start date of the period;2022/06/01", "Start date of the period;"),  # no period: one day above
    ],
)
def test_without_a_period_telling_the_two_dates_apart_the_value_date_is_not_taken(change):
    with pytest.raises(ValidationFailed) as caught:
        rows_of(CESKA.replace(*change).encode("cp1250"), "CZK")
    assert caught.value.code == "CSV_BAD_HEADER"
