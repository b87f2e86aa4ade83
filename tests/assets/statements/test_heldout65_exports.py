"""Table tests of the readers on heldout65's files found after its one measurement: Handelsbanken's account
export (`Bokföringsdag`, `Referens`, a signed `Insättning/Uttag`, its preliminary lines dated `PREL-  -`) and
Swedbank's `Transaktionsrapport` (`Bokfdag` beside `Transdag`, and a `Valuta` column that is its currency, not
a value date). Figures made up."""

import datetime as dt
from decimal import Decimal

from tests.assets.statements.test_heldout17_exports import rows_of

_ACCOUNT = "A COMPANY AB;12345678;SE3260000000000012345678;HANDSESS;Affärskonto;SEK;6600 A Town;2020-02-01 - 2020-05-10"
HANDELSBANKEN = (
    "Kontohavare;Kontonr;IBAN;BIC;Kontoform;Valuta;Kontoförande kontor;Datum intervall;Kontor;Bokföringsdag;"
    "Reskontradag;Valutadag;Referens;Insättning/Uttag;Bokfört saldo;Aktuellt saldo\n"
    f"{_ACCOUNT};;;;;;;;19932,40;16143,11;;;\n"
    f"{_ACCOUNT};6886;PREL-  -  ;;;S-Prel A SHOP;-287,71;*;;;;;\n"
    f"{_ACCOUNT};6600;2020-05-08;2020-05-08;2020-05-11;A CUSTOMER;96,00;20239,11;;;;;\n"
    f"{_ACCOUNT};6600;2020-05-06;2020-05-06;2020-05-06;INTERNET BET;-4419,00;20143,11;;;;;\n"
)
SWEDBANK = (
    "Radnr;Clnr;Kontonr;Produkt;Valuta;Bokfdag;Transdag;Valutadag;Referens;Text;Belopp;Saldo\n"
    "1;81059;9042484854;Penningmarkn.kto;SEK;2016-01-04;2016-01-02;2016-01-04;A SUPPLIER;Autogiro;"
    "-10918,00;9673343,32\n"
    "2;81059;9042484854;Penningmarkn.kto;SEK;2016-01-05;2016-01-05;2016-01-06;57237273BM 00001;Bankgiro inbetalning;"
    "2084,40;9675427,72\n"
)


def test_handelsbanken_reads_its_booking_day_its_signed_figure_and_leaves_preliminary_lines_out():
    rows = rows_of(HANDELSBANKEN.encode("cp1252"), "SEK")
    assert [r[:3] for r in rows] == [
        (dt.date(2020, 5, 8), "income", Decimal("96.00")),
        (dt.date(2020, 5, 6), "expense", Decimal("4419.00")),
    ]
    assert all(not r[3] for r in rows)


def test_swedbank_books_on_bokfdag_and_its_valuta_column_is_no_date():
    assert [r[:3] for r in rows_of(SWEDBANK.encode(), "SEK")] == [
        (dt.date(2016, 1, 4), "expense", Decimal("10918.00")),
        (dt.date(2016, 1, 5), "income", Decimal("2084.40")),
    ]
