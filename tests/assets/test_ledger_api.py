"""The ledger's REST (docs/contract/rest.md, "Ledger"): corrections on any row, splits, transfers and their
suggestions, imports, the user's own categories, rates, reconciling and archiving an account; every bad
input a 4xx with a code that changes nothing."""

import datetime as dt
from decimal import Decimal

import pytest
from django.db.models import Sum

from assets.ledger.models import ExchangeRate, ImportBatch, TransactionSplit, Transfer
from assets.models import Asset, Transaction
from tests import factories
from tests.assets.helpers import assert_error

DAY = dt.date(2026, 11, 10)
CSV = (
    b"date,description,amount,direction,category,external_id\n"
    b"2026-11-01,Co.op Mart,300000,expense,groceries,s1\n"
    b"2026-11-02,Grab,50000,expense,transport,s2\n"
)


def _import(api, asset=None):
    data = {"file": _file()} | ({"asset": asset.id} if asset else {})
    response = api.post("/api/v1/transactions/import", data, format="multipart")
    assert response.status_code == 200, response.content
    return response.json()


def _file():
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("nov.csv", CSV, content_type="text/csv")


@pytest.fixture
def synced(alice, alice_api):
    _import(alice_api)
    return Transaction.objects.get(user=alice, external_id="s1")


def test_a_synced_row_takes_category_description_note_and_exclusion(alice_api, synced):
    response = alice_api.patch(
        f"/api/v1/transactions/{synced.id}",
        {"category": "shopping", "description": "Co.op: household", "note": "for mum", "excluded": True},
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["category"], body["description"], body["note"], body["excluded"]) == (
        "shopping", "Co.op: household", "for mum", True,
    )  # fmt: skip
    assert not Transaction.objects.counted().filter(pk=synced.pk).exists()


@pytest.mark.parametrize("field,value", [("amount", "1"), ("occurred_on", "2026-11-05"), ("external_id", "x")])
def test_a_synced_rows_facts_are_read_only(alice_api, synced, field, value):
    response = alice_api.patch(f"/api/v1/transactions/{synced.id}", {field: value, "note": "x"}, format="json")
    assert_error(response, 409, "SYNCED_READ_ONLY")
    synced.refresh_from_db()
    assert (synced.amount, synced.note, synced.external_id) == (Decimal("300000"), "", "s1")


def test_a_split_counts_as_its_parts_and_joins_again(alice, alice_api, synced):
    url = f"/api/v1/transactions/{synced.id}/split"
    parts = [
        {"amount": "200000", "category": "groceries"},
        {"amount": "100000", "category": "shopping", "note": "soap"},
    ]
    response = alice_api.post(url, {"parts": parts}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["split"][1] == {"amount": "100000", "category": "shopping", "note": "soap"}
    counted = Transaction.objects.counted().filter(pk=synced.pk)
    assert dict(counted.values_list("counted_category").annotate(t=Sum("counted_amount"))) == {
        "groceries": Decimal("200000"),
        "shopping": Decimal("100000"),
    }
    row = alice_api.get(f"/api/v1/transactions/{synced.id}").json()
    assert [p["amount"] for p in row["split"]] == ["200000", "100000"]
    listed = alice_api.get("/api/v1/transactions").json()["results"]
    assert next(r for r in listed if r["id"] == synced.id)["split"][0]["category"] == "groceries"
    assert alice_api.delete(url).status_code == 204
    assert not TransactionSplit.objects.exists()


def test_a_split_that_does_not_add_up_is_refused(alice_api, synced):
    parts = [{"amount": "200000", "category": "groceries"}, {"amount": "99999", "category": "shopping"}]
    assert_error(
        alice_api.post(f"/api/v1/transactions/{synced.id}/split", {"parts": parts}, format="json"),
        400,
        "SPLIT_MISMATCH",
    )
    assert not TransactionSplit.objects.exists()


def test_transfers_are_made_listed_and_undone(alice, alice_api):
    bank = factories.asset(alice, name="VCB", kind="bank_account")
    card = factories.asset(alice, name="Card", kind="credit_card")
    out = factories.txn(alice, asset=bank, amount="5000000", category="debt_payment", occurred_on=DAY)
    repaid = factories.txn(
        alice, asset=card, amount="5000000", direction="income", category="other_income", occurred_on=DAY
    )
    response = alice_api.post("/api/v1/transfers", {"out": out.id, "in": repaid.id}, format="json")
    assert response.status_code == 201, response.content
    transfer = response.json()
    assert (transfer["out"], transfer["in"], transfer["status"], transfer["amount"]) == (
        out.id,
        repaid.id,
        "paired",
        "5000000",
    )
    row = alice_api.get(f"/api/v1/transactions/{out.id}").json()
    assert row["transfer"] == {"id": transfer["id"], "counterpart": repaid.id, "status": "paired"}
    assert [t["id"] for t in alice_api.get("/api/v1/transfers").json()["results"]] == [transfer["id"]]
    assert alice_api.delete(f"/api/v1/transfers/{transfer['id']}").status_code == 204
    assert alice_api.get(f"/api/v1/transactions/{out.id}").json()["transfer"] is None


def test_one_side_alone_is_a_transfer_to_an_untracked_account(alice, alice_api):
    out = factories.txn(alice, amount="1000000", occurred_on=DAY)
    transfer = alice_api.post("/api/v1/transfers", {"out": out.id}, format="json").json()
    assert alice_api.get(f"/api/v1/transactions/{out.id}").json()["transfer"] == {
        "id": transfer["id"], "counterpart": None, "status": "paired",
    }  # fmt: skip


def test_a_pair_across_two_users_is_not_found(alice, bob, alice_api):
    out = factories.txn(alice, amount="1000000", occurred_on=DAY)
    bobs = factories.txn(bob, amount="1000000", direction="income", category="salary", occurred_on=DAY)
    assert_error(alice_api.post("/api/v1/transfers", {"out": out.id, "in": bobs.id}, format="json"), 404)
    assert not Transfer.objects.exists()


def test_a_transfer_across_currencies_needs_a_rate(alice, alice_api):
    out = factories.txn(alice, amount="2600000", occurred_on=DAY)
    usd = factories.txn(
        alice, amount="100", currency="USD", direction="income", category="other_income", occurred_on=DAY
    )
    assert_error(alice_api.post("/api/v1/transfers", {"out": out.id, "in": usd.id}, format="json"), 400, "RATE_MISSING")
    assert not Transfer.objects.exists()
    ExchangeRate.objects.create(day=DAY, from_currency="USD", to_currency="VND", rate=26000, source="vietcombank")
    assert alice_api.post("/api/v1/transfers", {"out": out.id, "in": usd.id}, format="json").status_code == 201


def test_suggestions_are_accepted_and_rejected_in_one_tap(alice, alice_api, bob_api):
    bank, momo, other = (factories.asset(alice, name=n, kind="bank_account") for n in ("A", "B", "C"))
    for asset, direction in ((bank, "expense"), (other, "expense"), (momo, "income")):
        alice_api.post(
            "/api/v1/transactions",
            {"amount": "700000", "direction": direction, "occurred_on": "2026-11-10", "asset": asset.id},
            format="json",
        )
    suggestions = alice_api.get("/api/v1/transfers/suggestions").json()["results"]
    assert len(suggestions) == 2 and {s["status"] for s in suggestions} == {"suggested"}
    assert_error(bob_api.post(f"/api/v1/transfers/suggestions/{suggestions[0]['id']}/accept"), 404)
    assert alice_api.post(f"/api/v1/transfers/suggestions/{suggestions[1]['id']}/reject").status_code == 204
    accepted = alice_api.post(f"/api/v1/transfers/suggestions/{suggestions[0]['id']}/accept")
    assert accepted.status_code == 200 and accepted.json()["status"] == "paired"
    assert alice_api.get("/api/v1/transfers/suggestions").json()["results"] == []


def test_deleting_an_import_removes_its_rows_and_nothing_else(alice, alice_api):
    kept = factories.txn(alice)
    _import(alice_api)
    batches = alice_api.get("/api/v1/imports").json()["results"]
    assert [(b["imported"], b["format"], b["filename"]) for b in batches] == [(2, "csv", "nov.csv")]
    assert alice_api.delete(f"/api/v1/imports/{batches[0]['id']}").status_code == 204
    assert list(Transaction.objects.filter(user=alice)) == [kept]
    assert not ImportBatch.objects.exists()


def test_own_categories_count_under_their_kind(alice, alice_api, bob_api):
    created = alice_api.post(
        "/api/v1/categories", {"kind": "groceries", "name_vi": "Chợ", "name_en": "Market"}, format="json"
    )
    assert created.status_code == 201, created.content
    key = created.json()["id"]
    assert key.startswith("c:")
    row = alice_api.post("/api/v1/transactions", {"amount": "80000", "category": key}, format="json").json()
    assert row["category"] == key
    assert Transaction.objects.counted().get(pk=row["id"]).counted_category == "groceries"
    assert_error(bob_api.post("/api/v1/transactions", {"amount": "1", "category": key}, format="json"), 400)
    assert (
        alice_api.patch(f"/api/v1/categories/{key}", {"name_en": "Wet market"}, format="json").json()["name_en"]
        == "Wet market"
    )
    assert alice_api.delete(f"/api/v1/categories/{key}").status_code == 204
    assert alice_api.get(f"/api/v1/transactions/{row['id']}").json()["category"] == "groceries"


@pytest.mark.parametrize("rate", ["0", "-1", "abc"])
def test_a_rate_of_zero_or_less_is_refused(alice_api, rate):
    body = {"date": "2026-11-10", "from": "USD", "to": "VND", "rate": rate}
    assert_error(alice_api.post("/api/v1/rates", body, format="json"), 400, "RATE_INVALID")
    assert not ExchangeRate.objects.exists()


def test_a_users_own_rate_wins_for_that_user_only(alice_api, bob_api):
    ExchangeRate.objects.create(day=DAY, from_currency="USD", to_currency="VND", rate=26000, source="vietcombank")
    body = {"date": "2026-11-10", "from": "USD", "to": "VND", "rate": "26500"}
    assert alice_api.post("/api/v1/rates", body, format="json").status_code == 201

    def usd(api):
        rates = api.get("/api/v1/rates?base=USD&date=2026-11-12").json()["results"]
        return next(r for r in rates if r["to"] == "VND")

    assert usd(alice_api) == {"date": "2026-11-10", "from": "USD", "to": "VND", "rate": "26500", "source": "user"}
    assert usd(bob_api)["rate"] == "26000"


def test_reconciling_makes_one_adjustment_row(alice, alice_api):
    wallet = factories.asset(alice, balance="1000000")
    response = alice_api.post(f"/api/v1/assets/{wallet.id}/reconcile", {"balance": "850000"}, format="json")
    row = Transaction.objects.get(pk=response.json()["adjustment"])
    assert (row.direction, row.amount, row.asset_id, row.excluded) == ("expense", Decimal("150000"), wallet.id, True)
    wallet.refresh_from_db()
    assert wallet.balance == Decimal("850000")
    again = alice_api.post(f"/api/v1/assets/{wallet.id}/reconcile", {"balance": "850000"}, format="json")
    assert again.json() == {"adjustment": None}


def test_an_archived_account_keeps_its_rows_and_takes_no_new_one(alice, alice_api):
    wallet = factories.asset(alice)
    factories.txn(alice, asset=wallet)
    assert alice_api.patch(f"/api/v1/assets/{wallet.id}", {"archived": True}, format="json").json()["archived"] is True
    assert Transaction.objects.filter(asset=wallet).count() == 1
    assert_error(
        alice_api.post("/api/v1/transactions", {"amount": "1000", "asset": wallet.id}, format="json"),
        400,
        "ACCOUNT_ARCHIVED",
    )
    assert Transaction.objects.filter(asset=wallet).count() == 1
    assert Asset.objects.get(pk=wallet.pk).archived_at is not None


def test_the_schema_describes_the_ledger(client):
    schema = client.get("/api/v1/schema", HTTP_ACCEPT="application/json").content.decode()
    paths = (
        "/api/v1/transfers",
        "/api/v1/transfers/suggestions/{transfer_id}/accept",
        "/api/v1/rates",
        "/api/v1/imports/{batch_id}",
        "/api/v1/transactions/{transaction_id}/split",
        "/api/v1/categories",
    )
    for path in paths:
        assert path in schema
