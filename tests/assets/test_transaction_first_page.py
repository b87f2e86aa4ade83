"""The transaction list's first page (no cursor) comes from a read compiled once per set of filters and page
length (assets.selectors.transaction_first_page). It must answer byte for byte what the ORM's queryset for the
same filters answers, for every filter, alone and together, and never show another user's rows."""

import datetime as dt

import pytest
from django.db.models.sql.compiler import SQLCompiler

from assets import api, selectors
from assets.models import Source
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


def test_each_filter_set_answers_what_the_orms_queryset_does(alice, alice_api, ledger, monkeypatch):
    fast = {q: alice_api.get(f"/api/v1/transactions?{q}") for q in _queries(ledger)}

    def through_the_orm(*, user, lookups, columns, limit):
        return list(selectors.transactions_matching(user=user, lookups=lookups).values(*columns)[:limit])

    monkeypatch.setattr(api.selectors, "transaction_first_page", through_the_orm)
    for query, response in fast.items():
        assert response.status_code == 200, query
        assert response.content == alice_api.get(f"/api/v1/transactions?{query}").content, query
    assert len(fast["page_size=3"].json()["results"]) == 3
    assert fast["page_size=3"].json()["next"]
    assert {row["category"] for row in fast["category=dining"].json()["results"]} == {"dining"}


def test_the_first_page_is_the_users_own(alice, bob, bob_api, ledger):
    rows = bob_api.get("/api/v1/transactions?page_size=200").json()["results"]
    assert len(rows) == 40 and all(row["source"] == "manual" for row in rows)
    assert bob_api.get(f"/api/v1/transactions?asset={ledger.id}").status_code == 404  # alice's asset


def test_a_repeated_first_page_compiles_no_sql(alice_api, ledger, monkeypatch):
    query = f"/api/v1/transactions?since=2026-10-03&direction=expense&asset={ledger.id}"
    assert alice_api.get(query).status_code == 200  # compiles the read once
    compiled = []
    as_sql = SQLCompiler.as_sql
    monkeypatch.setattr(
        SQLCompiler, "as_sql", lambda self, *a, **k: compiled.append(self.query) or as_sql(self, *a, **k)
    )
    assert alice_api.get(query).status_code == 200
    # What is left is the asset check (an exists() per request) and the page's transfers and splits (two
    # reads per page, docs/ledger.md); the page itself is not compiled again.
    assert [str(q.model._meta.label) for q in compiled] == [
        "assets.Asset",
        "assets.Transfer",
        "assets.TransactionSplit",
    ]


def test_the_next_pages_follow_on_from_the_first(alice_api, ledger):
    """Past the first page the queryset is built (from the function the view passes) and keyset-paged."""
    seen, url = [], "/api/v1/transactions?page_size=7&direction=expense"
    while url:
        body = alice_api.get(url).json()
        seen += [row["id"] for row in body["results"]]
        url = body["next"]
    everything = alice_api.get("/api/v1/transactions?page_size=200&direction=expense").json()["results"]
    assert seen == [row["id"] for row in everything] and len(seen) > 14
