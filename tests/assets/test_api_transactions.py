import datetime as dt

import pytest

from assets.models import Source, Transaction
from tests import factories
from tests.assets.helpers import assert_error
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db

D = dt.date


def test_it_creates_a_manual_expense_with_defaults(alice_api, alice):
    response = alice_api.post("/api/v1/transactions", {"amount": "45k", "description": "Phở"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body == {
        "id": body["id"],
        "amount": "45000",
        "currency": "VND",
        "direction": "expense",
        "description": "Phở",
        "category": "other",
        "occurred_on": user_today(alice).isoformat(),
        "asset": None,
        "source": "manual",
        "external_id": None,
        "editable": True,
        "note": "",
        "excluded": False,
        "transfer": None,
        "split": None,
    }


def test_it_creates_income_on_an_asset_in_the_assets_currency(alice_api, alice):
    asset = factories.asset(alice, name="USD account", kind="bank_account", currency="USD")
    response = alice_api.post(
        "/api/v1/transactions",
        {
            "amount": 1200.5,
            "direction": "income",
            "category": "salary",
            "occurred_on": "2026-11-01",
            "asset": asset.id,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["amount"], body["currency"], body["asset"], body["occurred_on"]) == (
        "1200.50",
        "USD",
        asset.id,
        "2026-11-01",
    )


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "amount"),
        ({"amount": "0"}, "amount"),
        ({"amount": "-5"}, "amount"),
        ({"amount": "abc"}, "amount"),
        ({"amount": "1e5"}, "amount"),
        ({"amount": "NaN"}, "amount"),
        ({"amount": None}, "amount"),
        ({"amount": "9999999999999999"}, "amount"),
        ({"amount": "5k", "occurred_on": "2026-13-01"}, "occurred_on"),
        ({"amount": "5k", "occurred_on": "yesterday"}, "occurred_on"),
        ({"amount": "5k", "category": "casino"}, "category"),
        ({"amount": "5k", "category": "salary"}, "category"),
        ({"amount": "5k", "direction": "income", "category": "dining"}, "category"),
        ({"amount": "5k", "direction": "sideways"}, "direction"),
        ({"amount": "5k", "currency": "ABC"}, "currency"),
        ({"amount": "5k", "description": "x" * 201}, "description"),
        ({"amount": "5k", "asset": "abc"}, "asset"),
        ({"amount": "5k", "asset": 10**30}, "asset"),
    ],
)
def test_it_refuses_a_bad_transaction_and_writes_nothing(alice_api, body, field):
    error = assert_error(alice_api.post("/api/v1/transactions", body, format="json"), 400)
    assert field in error["fields"], error
    assert not Transaction.objects.exists()


def test_another_users_asset_on_a_transaction_is_a_404(alice_api, bob):
    asset = factories.asset(bob)
    response = alice_api.post("/api/v1/transactions", {"amount": "5k", "asset": asset.id}, format="json")
    assert_error(response, 404, "NOT_FOUND")
    assert not Transaction.objects.exists()


def test_it_updates_a_manual_transaction(alice_api, alice):
    txn = factories.txn(alice, amount="100000", category="dining", description="Lunch")
    response = alice_api.patch(
        f"/api/v1/transactions/{txn.id}",
        {"amount": "120k", "category": "groceries", "occurred_on": "2026-10-05"},
        format="json",
    )
    assert response.status_code == 200
    body = response.json()
    assert (body["amount"], body["category"], body["occurred_on"], body["description"]) == (
        "120000",
        "groceries",
        "2026-10-05",
        "Lunch",
    )


def test_switching_direction_moves_to_a_fitting_category(alice_api, alice):
    txn = factories.txn(alice, category="dining")
    body = alice_api.patch(f"/api/v1/transactions/{txn.id}", {"direction": "income"}, format="json").json()
    assert (body["direction"], body["category"]) == ("income", "other_income")


def test_it_links_and_unlinks_an_asset(alice_api, alice, bob):
    txn = factories.txn(alice)
    asset = factories.asset(alice)
    assert alice_api.patch(f"/api/v1/transactions/{txn.id}", {"asset": asset.id}, format="json").json()["asset"] == (
        asset.id
    )
    assert alice_api.patch(f"/api/v1/transactions/{txn.id}", {"asset": None}, format="json").json()["asset"] is None
    bobs = factories.asset(bob)
    assert_error(alice_api.patch(f"/api/v1/transactions/{txn.id}", {"asset": bobs.id}, format="json"), 404)


def test_a_bad_patch_changes_nothing(alice_api, alice):
    txn = factories.txn(alice, amount="100000", category="dining")
    response = alice_api.patch(f"/api/v1/transactions/{txn.id}", {"amount": "5k", "category": "nope"}, format="json")
    assert_error(response, 400)
    txn.refresh_from_db()
    assert (txn.amount, txn.category) == (100000, "dining")


def test_it_deletes_a_manual_transaction(alice_api, alice):
    txn = factories.txn(alice)
    assert alice_api.delete(f"/api/v1/transactions/{txn.id}").status_code == 204
    assert not Transaction.objects.exists()


def test_a_synced_transaction_is_read_only(alice_api, alice):
    txn = factories.txn(alice, source=Source.SYNCED, external_id="bank-1", amount="100000")
    assert alice_api.get(f"/api/v1/transactions/{txn.id}").json()["editable"] is False
    assert_error(
        alice_api.patch(f"/api/v1/transactions/{txn.id}", {"amount": "1"}, format="json"), 409, "SYNCED_READ_ONLY"
    )
    assert_error(alice_api.delete(f"/api/v1/transactions/{txn.id}"), 409, "SYNCED_READ_ONLY")
    txn.refresh_from_db()
    assert txn.amount == 100000


@pytest.mark.parametrize("method", ["get", "patch", "delete"])
def test_it_answers_404_for_another_users_transaction(alice_api, bob, method):
    txn = factories.txn(bob, amount="100000")
    response = getattr(alice_api, method)(f"/api/v1/transactions/{txn.id}", {"amount": "1"}, format="json")
    assert_error(response, 404, "NOT_FOUND")
    txn.refresh_from_db()
    assert txn.amount == 100000


def test_it_lists_newest_first_by_day_then_id(alice_api, alice, bob):
    a = factories.txn(alice, occurred_on=D(2026, 11, 1))
    b = factories.txn(alice, occurred_on=D(2026, 11, 3))
    c = factories.txn(alice, occurred_on=D(2026, 11, 1))
    factories.txn(bob, occurred_on=D(2026, 11, 2))
    body = alice_api.get("/api/v1/transactions").json()
    assert [t["id"] for t in body["results"]] == [b.id, c.id, a.id]


def test_it_filters_transactions(alice_api, alice):
    wallet = factories.asset(alice)
    early = factories.txn(alice, occurred_on=D(2026, 10, 1), category="dining")
    salary = factories.txn(alice, occurred_on=D(2026, 11, 1), direction="income", category="salary")
    synced = factories.txn(alice, occurred_on=D(2026, 11, 2), category="groceries", source="synced", external_id="x")
    on_wallet = factories.txn(alice, occurred_on=D(2026, 11, 3), category="dining", asset=wallet)

    def ids(query):
        response = alice_api.get(f"/api/v1/transactions?{query}")
        assert response.status_code == 200, response.json()
        return [t["id"] for t in response.json()["results"]]

    assert ids("since=2026-11-01") == [on_wallet.id, synced.id, salary.id]
    assert ids("until=2026-11-01") == [salary.id, early.id]
    assert ids("since=2026-11-01&until=2026-11-02") == [synced.id, salary.id]
    assert ids("category=dining") == [on_wallet.id, early.id]
    assert ids("direction=income") == [salary.id]
    assert ids("source=synced") == [synced.id]
    assert ids("source=manual") == [on_wallet.id, salary.id, early.id]
    assert ids(f"asset={wallet.id}") == [on_wallet.id]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("since=2026-02-30", "since"),
        ("until=soon", "until"),
        ("category=casino", "category"),
        ("direction=up", "direction"),
        ("source=hacked", "source"),
        ("asset=abc", "asset"),
    ],
)
def test_it_refuses_malformed_filters(alice_api, query, field):
    error = assert_error(alice_api.get(f"/api/v1/transactions?{query}"), 400)
    assert field in error["fields"]


def test_another_users_asset_as_a_filter_is_a_404(alice_api, alice, bob):
    bobs = factories.asset(bob)
    factories.txn(bob, asset=bobs)
    factories.txn(alice)
    assert_error(alice_api.get(f"/api/v1/transactions?asset={bobs.id}"), 404, "NOT_FOUND")


def test_the_transaction_list_does_a_bounded_number_of_queries(alice_api, alice, django_assert_max_num_queries):
    wallet = factories.asset(alice)
    for i in range(60):
        factories.txn(alice, occurred_on=D(2026, 11, 1 + i % 28), asset=wallet if i % 2 else None)
    with django_assert_max_num_queries(4):
        assert len(alice_api.get("/api/v1/transactions?page_size=60").json()["results"]) == 60


@pytest.mark.parametrize(
    ("currency", "status", "expected"),  # the amount out, or the field a refusal names
    [
        ("LAK", 201, "1200.50"),
        ("BHD", 201, "1200.500"),
        ("clf", 201, "1200.5000"),
        ("isk", 400, "amount"),  # the króna has no decimals: 1200.5 is no amount of it
        ("XAU", 400, "currency"),
        ("ZZZ", 400, "currency"),
    ],
)
def test_a_transaction_takes_any_iso_currency_quantized_to_its_minor_unit(alice_api, alice, currency, status, expected):
    body = {"amount": "1200.5", "direction": "expense", "category": "travel", "occurred_on": "2026-11-01"}
    response = alice_api.post("/api/v1/transactions", {**body, "currency": currency}, format="json")
    assert response.status_code == status, response.json()
    if status == 400:
        assert expected in response.json()["error"]["fields"]
        assert not Transaction.objects.filter(user=alice).exists()
    else:
        assert (response.json()["amount"], response.json()["currency"]) == (expected, currency.upper())
