"""Table tests of the readers on American Express Mexico's card downloads found on heldout35 after its one
measurement: a `Fecha de Compra` (purchase day) column beside the booking `Fecha` says the table is a card's, so its
positive figures are charges (money out) and its negative ones refunds. Figures made up; and the guards."""

import datetime as dt
from decimal import Decimal

from assets.statements.headers import names_card_table
from tests.assets.statements.test_heldout17_exports import rows_of

AMEX = (
    "Fecha,Fecha de Compra,Descripción,Importe\n"
    "28 Feb 2025,01 Mar 2025,CAFE TORMENTA           MEXICO,108.00\n"
    "16 Feb 2025,16 Feb 2025,AMAZON MX MARKETPLACE*A MEXICO CITY,-836.38\n"
    "09 Feb 2025,09 Feb 2025,MERCADOPAGO*BLENDSTATIO Cuauht?moc,80.00\n"
)


def test_a_purchase_day_column_names_a_cards_table():
    assert names_card_table(["Fecha", "Fecha de Compra", "Descripción", "Importe"])
    assert names_card_table(["Posting Date", "Purchase Date", "Amount"])
    assert not names_card_table(["Booking date", "Value date", "Amount"])


def test_american_express_mexicos_charges_are_money_out_and_its_refunds_money_in():
    assert rows_of(AMEX.encode(), "MXN") == [
        (dt.date(2025, 2, 28), "expense", Decimal("108.00"), {}),
        (dt.date(2025, 2, 16), "income", Decimal("836.38"), {}),
        (dt.date(2025, 2, 9), "expense", Decimal("80.00"), {}),
    ]


def test_a_table_with_a_purchase_day_whose_purchases_are_negative_reads_as_signed():
    # More figures negative than positive: the account's way round (a bank account seen with its card's days).
    raw = AMEX.replace(",108.00", ",-108.00").replace(",80.00", ",-80.00").replace(",-836.38", ",836.38")
    assert [(d, w, a) for d, w, a, _ in rows_of(raw.encode(), "MXN")] == [
        (dt.date(2025, 2, 28), "expense", Decimal("108.00")),
        (dt.date(2025, 2, 16), "income", Decimal("836.38")),
        (dt.date(2025, 2, 9), "expense", Decimal("80.00")),
    ]
