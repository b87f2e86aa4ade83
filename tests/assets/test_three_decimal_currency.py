"""A currency whose minor unit has three digits (the Kuwaiti dinar: 1 KWD = 1000 fils) is kept, added up and
converted to the fils, while VND and USD read exactly as before (docs/ledger.md, "Currencies")."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.models import Asset, Transaction
from assets.selectors import spending_read
from tests import factories
from tests.assets.helpers import assert_error
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db


def _rates(today):
    factories.rate(today - dt.timedelta(days=1), "26138")
    factories.rate(today - dt.timedelta(days=1), "85570.95", from_currency="KWD")


def test_a_kwd_account_and_its_rows_keep_every_fils_through_rest(alice_api, alice):
    made = alice_api.post("/api/v1/assets", {"name": "NBK", "kind": "bank_account", "currency": "KWD",
                                             "balance": "1.234"}, format="json")  # fmt: skip
    assert made.status_code == 201, made.json()
    assert (made.json()["balance"], made.json()["currency"]) == ("1.234", "KWD")
    asset_id = made.json()["id"]
    day = user_today(alice).isoformat()
    for amount in ["1.234", 2.345, "0.001"]:
        response = alice_api.post(
            "/api/v1/transactions",
            {"amount": amount, "currency": "KWD", "category": "dining", "occurred_on": day, "asset": asset_id},
            format="json",
        )
        assert response.status_code == 201, response.json()
    listed = alice_api.get(f"/api/v1/transactions?asset={asset_id}").json()["results"]
    assert sorted(r["amount"] for r in listed) == ["0.001", "1.234", "2.345"]
    assert alice_api.get(f"/api/v1/assets/{asset_id}").json()["balance"] == "1.234"
    assert sorted(Transaction.objects.values_list("amount", flat=True)) == [
        Decimal("0.001"), Decimal("1.234"), Decimal("2.345")
    ]  # fmt: skip
    row = listed[0]
    patched = alice_api.patch(f"/api/v1/transactions/{row['id']}", {"amount": "7.5"}, format="json")
    assert patched.json()["amount"] == "7.500"


@pytest.mark.parametrize("amount", ["1.2345", 1.2345, "1,2345"])
def test_an_amount_with_more_decimals_than_the_dinar_has_is_refused_and_nothing_is_written(alice_api, alice, amount):
    body = {"amount": amount, "currency": "KWD", "category": "dining", "occurred_on": "2026-11-01"}
    error = assert_error(alice_api.post("/api/v1/transactions", body, format="json"), 400, "INVALID_AMOUNT")
    assert "more decimals than KWD has (3)" in error["fields"]["amount"][0]
    assert not Transaction.objects.exists()
    refused = alice_api.post("/api/v1/assets", {"name": "NBK", "kind": "cash", "currency": "KWD", "balance": amount},
                             format="json")  # fmt: skip
    assert_error(refused, 400, "INVALID_AMOUNT")
    assert not Asset.objects.exists()


def test_a_kwd_budget_adds_its_rows_and_converts_dollars_to_the_fils(alice_api, alice):
    today = user_today(alice)
    _rates(today)
    for amount, currency in [("1.234", "KWD"), ("2.345", "KWD"), ("10", "USD")]:
        factories.txn(alice, amount=amount, currency=currency, category="dining", occurred_on=today)
    budget = alice_api.post("/api/v1/budgets", {"category": "dining", "amount": "10.5", "currency": "KWD"},
                            format="json").json()  # fmt: skip
    # 10 USD through VND: 26,138 / 85,570.95 = 0.305454129001 KWD a dollar, 3.055 KWD; 1.234 + 2.345 + 3.055.
    assert (budget["amount"], budget["spent"], budget["remaining"]) == ("10.500", "6.634", "3.866")
    [converted] = budget["converted"]
    assert (converted["amount"], converted["converted"], converted["to_currency"]) == ("10.00", "3.055", "KWD")
    read = spending_read(user=alice, currency="KWD", since=today, until=today)
    assert read.by_category()["dining"] == Decimal("6.634")


def test_kwd_rows_convert_into_dong_at_their_days_rate(alice):
    today = user_today(alice)
    _rates(today)
    factories.txn(alice, amount="1.234", currency="KWD", category="dining", occurred_on=today)
    factories.txn(alice, amount="150000", category="dining", occurred_on=today)
    read = spending_read(user=alice, currency="VND", since=today, until=today)
    # 1.234 x 85,570.95 = 105,594.5523 ₫, rounded half up to the dong.
    assert read.by_category()["dining"] == Decimal("255595")
    assert [c.converted for c in read.conversions_of()] == [Decimal("105595")]


def test_vnd_and_usd_read_as_they_always_did_from_the_wider_columns(alice_api, alice):
    factories.txn(alice, amount="150000", occurred_on=dt.date(2026, 11, 1))
    factories.txn(alice, amount="12.5", currency="USD", occurred_on=dt.date(2026, 11, 2))
    amounts = {r["currency"]: r["amount"] for r in alice_api.get("/api/v1/transactions").json()["results"]}
    assert amounts == {"VND": "150000", "USD": "12.50"}


def test_the_csv_export_writes_every_fils_and_vnd_as_before(alice, client):
    for amount, currency in [("150000", "VND"), ("12.5", "USD"), ("1.234", "KWD")]:
        factories.txn(alice, amount=amount, currency=currency, occurred_on=dt.date(2026, 11, 1))
    client.force_login(alice)
    text = b"".join(client.get("/transactions.csv").streaming_content).decode("utf-8-sig")
    assert {line.split(",")[2] for line in text.splitlines()[1:]} == {"150000.00", "12.50", "1.234"}
