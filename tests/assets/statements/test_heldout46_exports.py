"""Table tests of the readers on the exports found on heldout46 after its one measurement: Cembra's card CSV,
whose `Type` column (a name Zeus does not know) writes `Debit` beside unsigned amounts, and whose dotted dates
(`05.07.2019`) put the day first even in an account whose country writes the month first. Figures made up."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.statements.inference import dates_day_first
from tests.assets.statements.tables import csv_rows

CEMBRA = (
    "Booking Date;Transaction Date;;Transaction;Type;Amount (CHF);\n"
    "05.07.2019;05.07.2019;;MIGROS WEINFELDEN;Debit;37.00;\n"
    "04.07.2019;04.07.2019;;ITUNES.COM/BILL;Debit;12.90;\n"
    "02.07.2019;02.07.2019;;PAYMENT RECEIVED;Credit;500.00;\n"
)


@pytest.mark.parametrize("currency", ["CHF", "USD"])
def test_a_column_of_debit_and_credit_under_an_unknown_name_gives_each_line_its_side(currency):
    assert [row[:3] for row in csv_rows(CEMBRA, currency)] == [
        (dt.date(2019, 7, 5), "expense", Decimal("37.00")),
        (dt.date(2019, 7, 4), "expense", Decimal("12.90")),
        (dt.date(2019, 7, 2), "income", Decimal("500.00")),
    ]


@pytest.mark.parametrize(
    ("dates", "default", "day_first"),
    [
        (["05.07.2019", "04.07.2019"], False, True),  # dots: the day first, whatever the account's country
        (["05/07/2019", "04/07/2019"], False, False),  # slashes leave it to the account
        (["05/07/2019", "04/07/2019"], True, True),
        (["07.13.2019"], True, False),  # a part above 12 still says
    ],
)
def test_dotted_dates_put_the_day_first(dates, default, day_first):
    assert dates_day_first(dates, default=default) is day_first
