"""Table tests of the readers on heldout74's file found after its one measurement: Credit Agricole Polska's CA24
export, whose header names two columns `Kwota` (the first blank on its lines) and books each line on its `Data
księgowania`, after its `Data operacji`. Figures made up."""

import datetime as dt
from decimal import Decimal

from assets.statements.headers import namesakes_apart
from tests.assets.statements.test_heldout17_exports import rows_of

HEADER = [
    "Rodzaj transakcji",
    "Data operacji",
    "Data księgowania",
    "Kwota",
    "Kurs",
    "Kwota",
    "Saldo po operacji",
    "Opis",
]
CA24 = (
    ";".join(HEADER)
    + "\n"
    + (
        "Zlecenie stałe;18.07.2022;18.08.2022 02:04:28;;;-6 000,00 PLN;146,61 PLN;Zlecenie stałe\n"
        "Przelew zwykły;12.08.2022;12.08.2022 11:01:09;;;6 000,00 PLN;6 146,61 PLN;Przelew na rachunek\n"
    )
)


def test_of_two_columns_named_kwota_the_one_its_lines_fill_is_read_on_the_booking_day():
    assert [r[:3] for r in rows_of(CA24.encode("cp1250"), "PLN")] == [
        (dt.date(2022, 8, 18), "expense", Decimal("6000.00")),
        (dt.date(2022, 8, 12), "income", Decimal("6000.00")),
    ]


def test_namesakes_both_filled_leave_the_header_as_it_is():
    both = [["x", "1.07.2022", "2.07.2022", "5,00", "", "5,00", "1,00", "y"]]
    assert namesakes_apart(HEADER, {"amount": "Kwota"}, both) == HEADER
    only_second = [["x", "1.07.2022", "2.07.2022", "", "", "5,00", "1,00", "y"]]
    assert namesakes_apart(HEADER, {"amount": "Kwota"}, only_second)[3] == "Kwota (4)"
