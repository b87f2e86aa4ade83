"""The transaction list's first page (no cursor): for every filter, alone and together, the user's matching rows
newest first, as many as the page holds, and never another user's rows."""

import datetime as dt

import pytest

from assets.models import Source, Transaction
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def ledger(alice, bob):
    bank = factories.asset(alice, name="Bank", kind="bank", source=Source.SYNCED, balance="1000")
    for owner in (alice, bob):
        for i in range(40):
            synced = owner == alice and i % 3 == 0
            factories.txn(
                owner,
                amount=f"{(i + 1) * 1000}",
                direction="income" if i % 7 == 0 else "expense",
                category="salary" if i % 7 == 0 else ["dining", "groceries", "transport"][i % 3],
                occurred_on=dt.date(2026, 10, 1) + dt.timedelta(days=i % 20),  # ties on a date: the id breaks them
                description=f"row {i}",
                source=Source.SYNCED if synced else Source.MANUAL,
                external_id=f"e{i}" if synced else None,
                asset=bank if synced else None,
            )
    return bank


def _queries(bank) -> list[str]:
    return [
        "",
        "since=2026-10-05",
        "until=2026-10-12",
        "since=2026-10-05&until=2026-10-12",
        "category=dining",
        "direction=income",
        "source=synced",
        "source=all",
        f"asset={bank.id}",
        f"since=2026-10-03&until=2026-10-18&category=groceries&direction=expense&source=synced&asset={bank.id}",
        "page_size=3",
        "page_size=200&direction=expense",
    ]


def _expected(user, query: str, bank) -> list[int]:
    """The ids the page should hold, worked out in Python from every row of the user's."""
    params = dict(part.split("=") for part in query.split("&") if part)
    size = int(params.pop("page_size", 50))
    rows = Transaction.objects.filter(user=user)
    kept = [
        t
        for t in rows
        if str(t.occurred_on) >= params.get("since", "0000")
        and str(t.occurred_on) <= params.get("until", "9999")
        and t.category == params.get("category", t.category)
        and t.direction == params.get("direction", t.direction)
        and params.get("source", "all") in ("all", t.source)
        and ("asset" not in params or t.asset_id == bank.id)
    ]
    kept.sort(key=lambda t: (t.occurred_on, t.id), reverse=True)
    return [t.id for t in kept[:size]]


def test_each_filter_set_answers_the_matching_rows_newest_first(alice, alice_api, ledger):
    for query in _queries(ledger):
        response = alice_api.get(f"/api/v1/transactions?{query}")
        assert response.status_code == 200, query
        assert [row["id"] for row in response.json()["results"]] == _expected(alice, query, ledger), query
    page = alice_api.get("/api/v1/transactions?page_size=3").json()
    assert len(page["results"]) == 3 and page["next"]
    dining = alice_api.get("/api/v1/transactions?category=dining").json()["results"]
    assert dining and {row["category"] for row in dining} == {"dining"}


def test_the_first_page_is_the_users_own(alice, bob, bob_api, ledger):
    rows = bob_api.get("/api/v1/transactions?page_size=200").json()["results"]
    assert len(rows) == 40 and all(row["source"] == "manual" for row in rows)
    assert bob_api.get(f"/api/v1/transactions?asset={ledger.id}").status_code == 404  # alice's asset


def test_the_next_pages_follow_on_from_the_first(alice_api, ledger):
    """Past the first page the rows are keyset-paged, each page following on from the one before."""
    seen, url = [], "/api/v1/transactions?page_size=7&direction=expense"
    while url:
        body = alice_api.get(url).json()
        seen += [row["id"] for row in body["results"]]
        url = body["next"]
    everything = alice_api.get("/api/v1/transactions?page_size=200&direction=expense").json()["results"]
    assert seen == [row["id"] for row in everything] and len(seen) > 14
