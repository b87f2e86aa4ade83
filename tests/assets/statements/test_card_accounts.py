"""A card's download imported into the card's account: American Express' US download (`Date,Description,Amount`)
writes its charges positive and says nowhere in its columns that it is a card's, so read alone its charges look
like money in. Imported into an account of the kind credit card, the table is a card's, read by the rule a card
named above its header has: where the positive figures outnumber the rest and none is written with a `+`, they are
charges. A card export that writes its charges negative (Chase's) stays as signed. Figures made up."""

import datetime as dt
import io
from decimal import Decimal

import pytest

from assets.importing import transactions_import
from assets.models import Transaction
from tests import factories
from tests.assets.statements.tables import csv_rows

AMEX_US = (
    "Date,Description,Amount\n"
    "01/18/2026,A NOODLE BAR          NEW YORK            NY,42.50\n"
    "01/17/2026,A CHOCOLATE SHOP      NEW YORK            NY,-12.30\n"
    "01/16/2026,A CHOCOLATE SHOP      NEW YORK            NY,12.30\n"
    "01/15/2026,A RESTAURANT          NEW YORK            NY,99.94\n"
)
CHASE_CARD = (
    "Transaction Date,Post Date,Description,Category,Type,Amount,Memo\n"
    "02/23/2022,02/24/2022,A PHARMACY,Health & Wellness,Sale,-87.67,\n"
    "02/22/2022,02/24/2022,A SMOOTHIE BAR,Food & Drink,Sale,-4.22,\n"
    "02/20/2022,02/22/2022,Payment Thank You-Mobile,,Payment,500.00,\n"
    "02/19/2022,02/22/2022,A BOOKSHOP,Shopping,Sale,-26.05,\n"
)


def read(raw: str, *, card_account: bool) -> list:
    rows = csv_rows(raw, "USD", card_account=card_account)
    return [(day, direction, amount) for day, direction, amount, _currency, _text, problems in rows if not problems]


def test_a_cards_download_into_the_cards_account_reads_its_positive_figures_as_charges():
    assert read(AMEX_US, card_account=True) == [
        (dt.date(2026, 1, 18), "expense", Decimal("42.50")),
        (dt.date(2026, 1, 17), "income", Decimal("12.30")),
        (dt.date(2026, 1, 16), "expense", Decimal("12.30")),
        (dt.date(2026, 1, 15), "expense", Decimal("99.94")),
    ]


def test_the_same_download_read_alone_stays_as_signed():
    # Nothing in three columns says a card's: a bank account's export of the same shape is as signed.
    assert [direction for _, direction, _ in read(AMEX_US, card_account=False)] == [
        "income",
        "expense",
        "income",
        "income",
    ]


def test_a_card_export_that_writes_its_charges_negative_stays_as_signed_in_the_cards_account():
    # Dated by the day the card booked each line (`Post Date`), as read into any account.
    assert read(CHASE_CARD, card_account=True) == [
        (dt.date(2022, 2, 24), "expense", Decimal("87.67")),
        (dt.date(2022, 2, 24), "expense", Decimal("4.22")),
        (dt.date(2022, 2, 22), "income", Decimal("500.00")),
        (dt.date(2022, 2, 22), "expense", Decimal("26.05")),
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(("kind", "charge"), [("credit_card", "expense"), ("bank_account", "income")])
def test_the_import_reads_a_download_as_the_account_it_goes_into(alice, kind, charge):
    account = factories.asset(alice, name="Amex", kind=kind, currency="USD")
    result = transactions_import(user=alice, source=io.BytesIO(AMEX_US.encode()), asset_id=account.id)
    assert result.imported == 4
    noodles = Transaction.objects.get(user=alice, description__startswith="A NOODLE BAR")
    assert (noodles.direction, noodles.amount, noodles.currency, noodles.asset_id) == (
        charge,
        Decimal("42.50"),
        "USD",
        account.id,
    )
