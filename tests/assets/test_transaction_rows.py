"""The transaction list's plain renderer (assets/transactions_api.py, from `.values()` rows) against the serializer it
replaced, byte for byte, on rows of every shape: manual and synced, income and expense, with and without an
asset and an external id, empty and non-ASCII text, and currencies with 0 and 2 decimal places."""

import datetime as dt

import pytest
from rest_framework.renderers import JSONRenderer

from assets.models import Source, Transaction
from assets.transactions_api import TransactionSerializer
from tests import factories

pytestmark = pytest.mark.django_db

TEXTS = ["", "Phở bò — 2 tô & cà phê sữa đá", 'quote " backslash \\ tab\t', "emoji 🍜🇻🇳", "x" * 200, "line\nbreak"]


def test_every_row_shape_renders_as_the_serializer_did(alice, alice_api):
    bank = factories.asset(alice, name="Bank", kind="bank", source=Source.SYNCED, balance="1000")
    wallet = factories.asset(alice, name="Ví", balance="50000")
    amounts = {"VND": ["1", "85000", "12000000", "999999999999999"], "USD": ["0.01", "12.50", "7", "1234.99"]}
    i = 0
    for currency, values in {**amounts, "JPY": ["3", "1500"], "EUR": ["0.5", "10.10"]}.items():
        for amount in values:
            for synced in (False, True):
                i += 1
                factories.txn(
                    alice,
                    amount=amount,
                    currency=currency,
                    direction="income" if i % 3 == 0 else "expense",
                    category="salary" if i % 3 == 0 else ["dining", "groceries", "other"][i % 3],
                    occurred_on=dt.date(2026, 11, 1) + dt.timedelta(days=i % 7),
                    description=TEXTS[i % len(TEXTS)],
                    source=Source.SYNCED if synced else Source.MANUAL,
                    external_id=f"ext-{i}-ý" if synced else None,
                    asset=bank if synced else (wallet if i % 4 == 1 else None),
                )
    rows = Transaction.objects.filter(user=alice).order_by("-occurred_on", "-id")
    assert {(t.source, t.asset_id is None, t.external_id is None, t.direction) for t in rows} >= {
        (Source.MANUAL, True, True, "expense"),
        (Source.MANUAL, False, True, "income"),
        (Source.SYNCED, False, False, "expense"),
        (Source.SYNCED, False, False, "income"),
    }
    old = JSONRenderer().render(
        {"results": TransactionSerializer(rows, many=True).data, "next": None, "previous": None}
    )
    new = alice_api.get("/api/v1/transactions?page_size=200")
    assert new.status_code == 200
    assert new.content == old
