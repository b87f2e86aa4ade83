"""Table tests of the readers on the exports found on heldout34 after its one measurement: BCA's (Indonesia) days
written `'06/07` with no year anywhere in the file (the latest such day up to the importer's today) and its `DB`/`CR`
in an unnamed column after `Amount`; Danske Bank's `Venter` (waiting) lines, not booked. Figures made up."""

import datetime as dt
from decimal import Decimal

from assets.statements.conventions import latest_date
from tests.assets.statements.test_heldout17_exports import rows_of

BCA = (
    b"Account No.,=,0110000000,,,\nCurrency,=,IDR,,,\n,,,,,\nDate,Description,Branch,Amount,,Balance\n"
    b"'06/07,TRSF E-BANKING DB,'0011,9500000,DB,30795691.99\n"
    b"'31/07,BUNGA ,'0000,2577.03,CR,30798269.02\n"
    b"'29/02,KOREKSI ,'0000,100,CR,30798369.02\n"
    b"Starting Balance,=,40295691.99,,,\nEnding Balance,=,30798369.02,,,\n"
)


def bca_rows(today: dt.date | None):
    return rows_of(BCA, "IDR", today=today)


def test_bca_days_take_the_latest_year_up_to_the_importers_today_and_its_db_cr_column_the_direction():
    assert bca_rows(dt.date(2026, 7, 20)) == [
        (dt.date(2026, 7, 6), "expense", Decimal("9500000"), {}),
        (dt.date(2025, 7, 31), "income", Decimal("2577.03"), {}),  # not yet the 31st this year: last year's
        (dt.date(2024, 2, 29), "income", Decimal("100"), {}),  # the last February with a 29th
    ]


def test_without_a_today_a_yearless_day_stays_a_bad_row():
    assert all(problems and "date" in problems for *_, problems in bca_rows(None))


def test_a_days_order_follows_the_files_reading():
    assert latest_date("07/06", dt.date(2026, 7, 20), day_first=False) == dt.date(2026, 7, 6)
    assert latest_date("'20/07", dt.date(2026, 7, 20), day_first=True) == dt.date(2026, 7, 20)


def test_danske_banks_waiting_lines_are_not_booked():
    raw = (
        '"Dato";"Tekst";"Belob";"Saldo";"Status";"Afstemt"\r\n'
        '"18.12.2019";"Transferwise";"-2.263,00";"6.953,49";"Udført";"Nej"\r\n'
        '"11.01.2020";"Starbucks";"-34,77";"";"Venter";"Nej"'
    ).encode("latin-1")
    assert rows_of(raw, "DKK") == [(dt.date(2019, 12, 18), "expense", Decimal("2263.00"), {})]
