"""Table tests of the readers on heldout70's files found after its one measurement: American Express' extended CSV,
whose `Appears On Your Statement As` column only a card's statement has, so its positive figures are charges
(where they outnumber the rest, as a card's do).
Figures made up."""

import datetime as dt
from decimal import Decimal

from assets.statements.headers import names_card_table
from tests.assets.statements.test_heldout17_exports import rows_of

AMEX_UK = (
    "Date,Description,Amount,Extended Details,Appears On Your Statement As,Address,Town/City,Postcode,Country,"
    "Reference,Category\n"
    '22/07/2022,A RESTAURANT            LONDON,13.37,,A RESTAURANT            LONDON,"1 A STREET\nA HOUSE",LONDON,'
    "EC4R 3TE,UNITED KINGDOM OF GB AND NI,'AT222130040000011566044',Entertainment-Restaurants\n"
    "21/07/2022,PAYMENT RECEIVED - THANK YOU,-33.37,,PAYMENT RECEIVED - THANK YOU,,,,,'AT222130105000010291166',\n"
    "20/07/2022,AN ONLINE SHOP,13.67,,AN ONLINE SHOP,,LONDON,,UNITED KINGDOM OF GB AND NI,'AT222050039000011692653',\n"
)


def test_an_amex_export_names_a_cards_column_and_reads_its_charges_as_money_out():
    assert names_card_table(["Date", "Description", "Amount", "Appears On Your Statement As"])
    assert [r[:3] for r in rows_of(AMEX_UK.encode(), "GBP")] == [
        (dt.date(2022, 7, 22), "expense", Decimal("13.37")),
        (dt.date(2022, 7, 21), "income", Decimal("33.37")),
        (dt.date(2022, 7, 20), "expense", Decimal("13.67")),
    ]
