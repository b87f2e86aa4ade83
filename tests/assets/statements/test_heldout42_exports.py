"""Table tests of the readers on the exports found on heldout42 after its one measurement: BNP Paribas Polska's
workbook (booked on `Data zaksięgowania`, not the `Data transakcji` beside it; `Saldo po transakcji` the balance
after the line), SEB Estonia's English CSV, whose side column is named by its letters alone (`(D/C)`), and ING
Romania's dates written with the month's Romanian name (`31 iulie 2021`), as other languages' banks write theirs.
Figures made up."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.statements.dates import read_date
from tests.assets.statements.tables import csv_rows, sheet_rows, xlsx


def test_bnp_polska_is_booked_on_its_booking_day():
    header = ["Data transakcji", "Data zaksięgowania", "Data odrzucenia", "Kwota", "Waluta", "Nadawca", "Odbiorca",
              "Opis", "Produkt", "Typ transakcji", "Kwota zlecenia", "Waluta zlecenia", "Status",
              "Saldo po transakcji"]  # fmt: skip
    line = [dt.datetime(2024, 2, 2), dt.datetime(2024, 2, 5), None, -119, "PLN", "NAME", "SHOP\nPL",
            "Transakcja BLIK", "Rachunek bieżący", "Transakcja BLIK", -119, "PLN", "Zrealizowana", 311.95]  # fmt: skip
    assert [row[:3] for row in sheet_rows(xlsx([header, line]))] == [(dt.date(2024, 2, 5), "expense", Decimal("119"))]


def test_seb_english_side_column_named_d_c_gives_each_line_its_side():
    text = (
        "Account;Document No.;Date;Beneficiary's name;Type;(D/C);Amount;Description;Commission fee;Currency\n"
        '"EE92";"";"04.07.2022";"SEB";"TT";"D";2,95;"hooldustasu";0;"EUR";\n'
        '"EE92";"";"05.07.2022";"EMPLOYER";"MK";"C";1250,00;"palk";0;"EUR";\n'
    )
    assert [row[:3] for row in csv_rows(text)] == [
        (dt.date(2022, 7, 4), "expense", Decimal("2.95")),
        (dt.date(2022, 7, 5), "income", Decimal("1250.00")),
    ]


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("31 iulie 2021", dt.date(2021, 7, 31)),
        ("3 ianuarie 2021", dt.date(2021, 1, 3)),
        ("1 noiembrie 2020", dt.date(2020, 11, 1)),
        ("3 März 2021", dt.date(2021, 3, 3)),
        ("4 Dez. 2019", dt.date(2019, 12, 4)),
        ("12 janv. 2024", dt.date(2024, 1, 12)),
        ("5 juin 2023", dt.date(2023, 6, 5)),
        ("5 juillet 2023", dt.date(2023, 7, 5)),
        ("1 août 2022", dt.date(2022, 8, 1)),
        ("7 dic 2020", dt.date(2020, 12, 7)),
        ("2 out 2019", dt.date(2019, 10, 2)),
        ("9 mei 2022", dt.date(2022, 5, 9)),
        ("5 June 2024", dt.date(2024, 6, 5)),
    ],
)
def test_a_day_written_with_its_months_name_in_the_banks_language(text, day):
    assert read_date(text) == day


def test_ing_romania_dates_its_lines_in_romanian():
    text = (
        "Data,,,Detalii tranzactie,Debit,,Credit,Balanta\n"
        '31 iulie 2021,,,Cumparare POS,"44,00",,,"6.732,33"\n'
        ",,,Nr. card: xxxx xxxx xxxx 8026,,,,\n"
        '2 august 2021,,,Incasare,,,"1.500,00","8.232,33"\n'
    )
    assert [row[:3] for row in csv_rows(text, "RON")] == [
        (dt.date(2021, 7, 31), "expense", Decimal("44.00")),
        (dt.date(2021, 8, 2), "income", Decimal("1500.00")),
    ]
