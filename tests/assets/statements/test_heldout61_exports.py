"""Table tests of the readers on heldout61's file found after its one measurement: a Lloyds-group card's CSV
(Halifax's `Date,Date entered,Reference,Description,Amount`), booked on the day entered, its charges positive.
Figures made up."""

import datetime as dt
from decimal import Decimal

from assets.statements.headers import names_card_table
from tests.assets.statements.test_heldout17_exports import rows_of

HALIFAX_CARD = (
    "Date,Date entered,Reference,Description,Amount,\n"
    "12/12/2017,13/12/2017,10096167,A BAKERY LIMITED        ,8.00,\n"
    "11/12/2017,12/12/2017,10109404,A TAXI                  ,5.99,\n"
    "16/11/2017,16/11/2017,99306740,DIRECT DEBIT PAYMENT -  ,-662.35,\n"
)


def test_a_lloyds_group_card_is_booked_on_the_day_entered_and_its_charges_are_money_out():
    assert [r[:3] for r in rows_of(HALIFAX_CARD.encode(), "GBP")] == [
        (dt.date(2017, 12, 13), "expense", Decimal("8.00")),
        (dt.date(2017, 12, 12), "expense", Decimal("5.99")),
        (dt.date(2017, 11, 16), "income", Decimal("662.35")),
    ]


def test_a_day_entered_says_the_table_is_a_cards():
    assert names_card_table(["Date", "Date entered", "Reference", "Description", "Amount"])
    assert not names_card_table(["Date", "Reference", "Description", "Amount"])
