"""The transaction list's pages over the rows a ledger page flags, byte for byte as the code wrote them before
the list was made cheaper (tests/zeus/test_golden_responses.py pins plain rows; this pins the rest): split rows
with their parts, both sides of paired transfers, a one-sided transfer, a suggested pair, a user's own
category, a note, an excluded row, and amounts in currencies of 0, 2 and 3 decimal places.

`ZEUS_WRITE_GOLDEN=1` writes the files again: only when an answer is meant to change. Sequences are reset and
the clock fixed, so ids and cursors are the same on every run.
"""

import datetime as dt
from pathlib import Path

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from assets.ledger.catalog import user_category_create
from assets.ledger.corrections import transaction_correct, transaction_split
from assets.ledger.models import Transfer
from assets.ledger.transfers import transfer_create
from assets.models import Source
from tests import factories
from tests.golden import check_golden

GOLDEN = Path(__file__).parent / "golden"
NOW = dt.datetime(2026, 11, 10, 5, 0, tzinfo=dt.UTC)  # noon in Saigon

pytestmark = pytest.mark.django_db(transaction=True, reset_sequences=True)


@pytest.fixture
def client(monkeypatch) -> APIClient:
    monkeypatch.setattr(timezone, "now", lambda: NOW)
    alice = factories.user("alice")
    bank = factories.asset(alice, name="Bank", kind="bank_account")
    momo = factories.asset(alice, name="MoMo", kind="e_wallet")
    synced = factories.asset(alice, name="Feed", kind="bank_account", source=Source.SYNCED)
    own = user_category_create(user=alice, kind="dining", name_vi="Cà phê", name_en="Coffee")
    day = dt.date(2026, 11, 1)
    for i in range(12):
        factories.txn(
            alice,
            amount=f"{(i * 7919) % 900000 + 10000}",
            direction="income" if i % 5 == 0 else "expense",
            category="salary" if i % 5 == 0 else ["dining", "groceries", "transport"][i % 3],
            occurred_on=day + dt.timedelta(days=i % 4),
            description=f"Dòng {i} — phở" if i % 2 else "",
            source=Source.SYNCED if i % 3 == 0 else Source.MANUAL,
            external_id=f"ext-{i}" if i % 3 == 0 else None,
            asset=synced if i % 3 == 0 else (bank if i % 2 else None),
        )
    for currency, amount in (("USD", "12.50"), ("KWD", "1.234"), ("JPY", "1500")):
        factories.txn(alice, amount=amount, currency=currency, occurred_on=day + dt.timedelta(days=2))
    split = factories.txn(alice, amount="300000", occurred_on=day + dt.timedelta(days=1), description="Chợ")
    transaction_split(
        user=alice,
        transaction_id=split.id,
        parts=[
            {"amount": "200000", "category": "groceries", "note": "rau"},
            {"amount": "100000", "category": f"c:{own.id}"},
        ],
    )
    later = day + dt.timedelta(days=2)
    out = factories.txn(alice, asset=bank, amount="2000000", occurred_on=later)
    into = factories.txn(alice, asset=momo, amount="2000000", direction="income", occurred_on=later)
    transfer_create(user=alice, out_id=out.id, in_id=into.id)
    alone = factories.txn(alice, asset=bank, amount="500000", occurred_on=day + dt.timedelta(days=3))
    transfer_create(user=alice, out_id=alone.id)
    s_out = factories.txn(alice, asset=bank, amount="777000", occurred_on=day)
    s_in = factories.txn(alice, asset=momo, amount="777000", direction="income", occurred_on=day)
    Transfer.objects.create(user=alice, outgoing=s_out, incoming=s_in, status=Transfer.Status.SUGGESTED)
    corrected = factories.txn(alice, amount="45000", occurred_on=day + dt.timedelta(days=3))
    transaction_correct(user=alice, transaction_id=corrected.id, category=f"c:{own.id}", note="ghi chú", excluded=True)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {factories.api_key(alice)}")
    return client


def test_the_list_of_flagged_rows_is_byte_for_byte_what_it_was(client):
    check_golden(GOLDEN, "ledger_200", client.get("/api/v1/transactions?page_size=200"))
    first = client.get("/api/v1/transactions?page_size=7")
    check_golden(GOLDEN, "ledger_first", first)
    second = client.get(first.json()["next"])
    check_golden(GOLDEN, "ledger_second", second)
    check_golden(GOLDEN, "ledger_back", client.get(second.json()["previous"]))
    check_golden(GOLDEN, "ledger_income", client.get("/api/v1/transactions?direction=income"))
    check_golden(GOLDEN, "ledger_manual", client.get("/api/v1/transactions?source=manual&page_size=10"))
