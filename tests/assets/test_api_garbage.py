"""No input produces a 5xx: every field of every ledger route, fed values of the wrong kind."""

import itertools

import pytest

from assets.models import Asset, Transaction
from goals.models import Budget, Goal
from tests import factories

GARBAGE = [
    None,
    True,
    [],
    {},
    [1],
    {"a": 1},
    "",
    " ",
    "x" * 5000,
    "\x00",
    "NaN",
    "-1",
    -1,
    0,
    1e308,
    10**30,
    "2026-02-30",
    "١٢٣",
    "<script>",
]

CREATES = {
    "/api/v1/assets": {"name": "Wallet", "kind": "cash", "balance": "5k", "currency": "VND"},
    "/api/v1/transactions": {
        "amount": "5k",
        "description": "x",
        "direction": "expense",
        "category": "dining",
        "occurred_on": "2026-11-01",
        "currency": "VND",
        "asset": None,
    },
    "/api/v1/budgets": {"category": "dining", "amount": "1tr", "currency": "VND"},
    "/api/v1/goals": {
        "name": "House",
        "kind": "house",
        "target_amount": "1ty",
        "current_amount": "0",
        "deadline": "5 years",
        "currency": "VND",
    },
    "/api/v1/profile": {"display_name": "A", "currency": "VND", "timezone": "Asia/Ho_Chi_Minh"},
}


@pytest.mark.django_db
@pytest.mark.parametrize("url", list(CREATES))
def test_no_field_value_produces_a_server_error(alice_api, alice, url):
    method = alice_api.patch if url.endswith("profile") else alice_api.post
    for field in CREATES[url]:
        for value in GARBAGE:
            response = method(url, {**CREATES[url], field: value}, format="json")
            assert response.status_code < 500, (field, value, response.content[:300])
            if response.status_code >= 400:
                assert "error" in response.json()


@pytest.mark.django_db
def test_no_patch_value_produces_a_server_error(alice_api, alice):
    targets = {
        f"/api/v1/assets/{factories.asset(alice).id}": ("name", "kind", "balance"),
        f"/api/v1/transactions/{factories.txn(alice).id}": CREATES["/api/v1/transactions"],
        f"/api/v1/budgets/{factories.budget(alice).id}": ("category", "amount"),
        f"/api/v1/goals/{factories.goal(alice).id}": ("name", "kind", "target_amount", "current_amount", "deadline"),
    }
    for url, fields in targets.items():
        for field in fields:
            for value in GARBAGE:
                response = alice_api.patch(url, {field: value}, format="json")
                assert response.status_code < 500, (url, field, value, response.content[:300])


QUERIES = [
    "since=%00",
    "until=9999-99-99",
    "category=%00",
    "asset=99999999999999999999999",
    "asset=-1",
    "source=%FF",
    "page_size=99999999999999999999",
    "cursor=%00",
    "cursor=" + "A" * 5000,
    "status=%00",
]


@pytest.mark.django_db
def test_no_query_produces_a_server_error(alice_api, alice):
    for query, url in itertools.product(QUERIES, LISTS):
        response = alice_api.get(f"{url}?{query}")
        assert response.status_code < 500, (url, query, response.content[:300])


LISTS = ("/api/v1/assets", "/api/v1/transactions", "/api/v1/goals", "/api/v1/budgets", "/api/v1/notifications")


@pytest.mark.django_db
def test_nothing_was_written_by_garbage(alice_api, alice):
    for url, body in CREATES.items():
        if url.endswith("profile"):
            continue
        alice_api.post(url, {**body, next(iter(body)): {"a": 1}}, format="json")
    assert not (Asset.objects.exists() or Transaction.objects.exists())
    assert not (Budget.objects.exists() or Goal.objects.exists())
