"""Table tests of the readers on heldout96's and heldout103's files after their one measurement: TD Canada Trust's
headerless card CSV, whose running balance is what is owed (its payments thanked for, its balance 0.00 once paid
off), a US bank's `Type` column saying `Pending` where no status column is, and (heldout100) Strawberry Card's sheet,
a card's by its column of amounts in a purchase's own currency; and heldout43's CIBC card, headerless with no balance,
its card named on every line. Figures made up."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.statements.rows import ImportRejected
from tests.assets.statements.test_heldout17_exports import rows_of


def test_a_headerless_cards_balance_owed_gives_its_charges_and_payments_their_sides():
    raw = (
        "04/20/2026,BALANCE PROTECTION INSURA,2.28,,192.16\n"
        "04/19/2026,TST-Eggspectation,12.43,,189.88\n"
        "04/17/2026,PAYMENT - THANK YOU,,521.66,177.45\n"
        "04/16/2026,PRESTO GOOG,10.00,,699.11\n"
    )
    assert rows_of(raw.encode(), "CAD") == [
        (dt.date(2026, 4, 20), "expense", Decimal("2.28"), {}),
        (dt.date(2026, 4, 19), "expense", Decimal("12.43"), {}),
        (dt.date(2026, 4, 17), "income", Decimal("521.66"), {}),
        (dt.date(2026, 4, 16), "expense", Decimal("10.00"), {}),
    ]


def test_a_card_paid_off_to_nothing_still_has_its_balance_apart_from_its_two_sides():
    raw = (
        "11/26/2022,SQ *SCAPEGOATVINTAGE,35.01,,46.09\n"
        "11/23/2022,SAVE ON FOODS #2229,11.08,,11.08\n"
        "10/29/2022,PAYMENT - THANK YOU,,388.27,0.00\n"
        "10/23/2022,SAVE ON FOODS #2229,49.86,,388.27\n"
    )
    assert [r[:3] for r in rows_of(raw.encode(), "CAD")] == [
        (dt.date(2022, 11, 26), "expense", Decimal("35.01")),
        (dt.date(2022, 11, 23), "expense", Decimal("11.08")),
        (dt.date(2022, 10, 29), "income", Decimal("388.27")),
        (dt.date(2022, 10, 23), "expense", Decimal("49.86")),
    ]


def test_a_headerless_chequing_account_paying_its_card_keeps_the_balances_sides():
    raw = (
        '"2026-04-03","E-TFR EPAY",,"100.50","681.64"\n'
        '"2026-04-02","GROCER","45.00",,"581.14"\n'
        '"2026-04-01","HL300 TFR-TO C/C","155.98",,"626.14"\n'
    )
    assert [r[:3] for r in rows_of(raw.encode(), "CAD")] == [
        (dt.date(2026, 4, 3), "income", Decimal("100.50")),
        (dt.date(2026, 4, 2), "expense", Decimal("45.00")),
        (dt.date(2026, 4, 1), "expense", Decimal("155.98")),
    ]


def test_a_type_column_saying_pending_is_not_booked_yet():
    raw = (
        "\ufeffDate, Type, Description, Category, Amount, Balance\n"
        '06-22-2021,"Pending","WAL-MART #0233 ANNA IL","",-16.12,16602.59\n'
        '06-21-2021,"On-Us Check","PAYPAL INST XFER","",-31.86,16618.71\n'
        '06-21-2021,"Deposit","Pending","",50,16650.57\n'
    )
    assert [r[:3] for r in rows_of(raw.encode(), "USD")] == [
        (dt.date(2021, 6, 21), "expense", Decimal("31.86")),
        (dt.date(2021, 6, 21), "income", Decimal("50.00")),
    ]


def test_a_column_of_foreign_amounts_makes_a_card_whose_charges_are_positive():
    header = "Datum;Bokfört;Specifikation;Ort;Valuta;Utl.belopp/moms;Belopp\n"
    lines = (
        "2025-04-29;2025-04-30;APPLE.COM/BILL;020100529;;0;245,00\n"
        "2025-04-28;2025-04-29;BAGERI;STOCKHOLM;;0;221,00\n"
        "2025-04-27;2025-04-28;RETUR BAGERI;STOCKHOLM;;0;-40,00\n"
    )
    assert [r[:3] for r in rows_of((header + lines).encode(), "SEK")] == [
        (dt.date(2025, 4, 30), "expense", Decimal("245.00")),
        (dt.date(2025, 4, 29), "expense", Decimal("221.00")),
        (dt.date(2025, 4, 28), "income", Decimal("40.00")),
    ]
    # Without it, the same figures are an account's, signed.
    plain = header.replace(";Utl.belopp/moms", "").encode()
    assert rows_of(plain + lines.replace(";0;", ";").encode(), "SEK")[2][1] == "expense"


CIBC = (
    '2024-01-12,"UBER CANADA/UBEREATS TORONTO, ON",21.31,,4505********0734\n'
    "2024-01-04,PAYMENT THANK YOU/PAIEMEN T MERCI,,500.00,4505********0734\n"
    '2023-12-22,"VIRGIN PLUS VERDUN, QC",,15.26,4505********3603\n'
    '2023-12-21,"METRO 461 MISSISSAUGA, ON",31.65,,4505********3603\n'
)


def test_a_headerless_card_with_no_balance_is_told_by_the_payment_it_thanks_for():
    assert [r[:3] for r in rows_of(CIBC.encode(), "CAD")] == [
        (dt.date(2024, 1, 12), "expense", Decimal("21.31")),
        (dt.date(2024, 1, 4), "income", Decimal("500.00")),
        (dt.date(2023, 12, 22), "income", Decimal("15.26")),
        (dt.date(2023, 12, 21), "expense", Decimal("31.65")),
    ]


@pytest.mark.parametrize(
    "raw",
    [
        # No card named on its lines: nothing says which column is money out.
        CIBC.replace(",4505********0734", "").replace(",4505********3603", ""),
        # A card named, but no payment thanked for.
        CIBC.replace("PAYMENT THANK YOU/PAIEMEN T MERCI", "TRANSFER"),
    ],
)
def test_a_headerless_pair_with_nothing_to_say_its_sides_is_refused(raw):
    with pytest.raises(ImportRejected):
        rows_of(raw.encode(), "CAD")


def test_american_express_card_member_column_makes_its_positive_figures_charges():
    raw = (
        "Date,Description,Card Member,Account #,Amount\n"
        "01/18/2026,SIMPLY NOODLES NEW YORK NY,J SMITH,-41006,62.50\n"
        "01/17/2026,LA MAISON DU CHOCOLA NEW YORK NY,J SMITH,-41006,-10.89\n"
        "01/16/2026,PEAK RESTAURANT NEW YORK NY,J SMITH,-41006,149.94\n"
    )
    assert [r[1:3] for r in rows_of(raw.encode(), "USD")] == [
        ("expense", Decimal("62.50")),
        ("income", Decimal("10.89")),
        ("expense", Decimal("149.94")),
    ]
