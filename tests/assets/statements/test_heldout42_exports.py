"""Table tests of the readers on the exports found on heldout42 after its one measurement: BNP Paribas Polska's
workbook (booked on `Data zaksięgowania`, not the `Data transakcji` beside it; `Saldo po transakcji` the balance
after the line) and SEB Estonia's English CSV, whose side column is named by its letters alone (`(D/C)`). Figures
made up."""

import datetime as dt
from decimal import Decimal

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
