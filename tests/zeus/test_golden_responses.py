"""The REST responses the speed work must not change, byte for byte.

The golden files under tests/zeus/golden/ were written by the code before the plan and list endpoints were
made cheaper (`ZEUS_WRITE_GOLDEN=1 pytest tests/zeus/test_golden_responses.py` writes them again; do that
only when a response is meant to change). Sequences are reset and the clock fixed, so ids, cursors and
"today" are the same on every run.
"""

import datetime as dt
from pathlib import Path

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from assets.models import Source
from goals.services import budget_create
from plans.services import plan_entry_create
from tests import factories
from tests.golden import check_golden
from tests.plans.factories import plan

GOLDEN = Path(__file__).parent / "golden"
NOW = dt.datetime(2026, 11, 10, 5, 0, tzinfo=dt.UTC)  # noon in Saigon

pytestmark = pytest.mark.django_db(transaction=True, reset_sequences=True)


@pytest.fixture
def ledger(monkeypatch):
    """alice's ledger: two assets, 240 transactions over four months in every direction and source, a
    budget, a goal and two plans (one active with entries); bob has a few rows of his own."""
    monkeypatch.setattr(timezone, "now", lambda: NOW)
    alice, bob = factories.user("alice"), factories.user("bob")
    wallet = factories.asset(alice, name="Wallet", balance="1500000")
    bank = factories.asset(alice, name="Bank", kind="bank", source=Source.SYNCED, balance="25000000")
    cats = ["dining", "groceries", "transport", "shopping", "housing", "entertainment"]
    for i in range(240):
        day = dt.date(2026, 8, 1) + dt.timedelta(days=i % 100)
        synced = i % 5 == 0
        factories.txn(
            alice,
            amount=f"{(i * 7919) % 900000 + 10000}",
            direction="income" if i % 11 == 0 else "expense",
            category=cats[i % len(cats)] if i % 11 else "salary",
            occurred_on=day,
            description=f"Line {i} — phở & cà phê" if i % 3 else "",
            source=Source.SYNCED if synced else Source.MANUAL,
            external_id=f"ext-{i}" if synced else None,
            asset=bank if synced else (wallet if i % 2 else None),
        )
    for i in range(5):
        factories.txn(bob, amount="50000", occurred_on=dt.date(2026, 11, 1 + i))
    goal = factories.goal(
        alice,
        target_amount="120000000",
        current_amount="30000000",
        deadline=dt.date(2031, 6, 1),
        started_on=dt.date(2026, 1, 1),
    )
    budget_create(user=alice, category="dining", amount="3000000")
    active = plan(alice, month="2026-11", active=True, primary_goal_id=goal.id)
    plan_entry_create(user=alice, plan_id=active.id, kind="discretionary", amount="120000", note="market")
    plan_entry_create(user=alice, plan_id=active.id, kind="goal", amount="500000")
    draft = plan(alice, month="2026-12")
    return {"alice": alice, "bob": bob, "active": active.id, "draft": draft.id, "wallet": wallet.id}


def _client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {factories.api_key(user)}")
    return client


def _check(name: str, response) -> None:
    check_golden(GOLDEN, name, response)


def test_the_plan_and_list_responses_are_byte_for_byte_what_they_were(ledger):
    api = _client(ledger["alice"])
    _check("profile", api.get("/api/v1/profile"))
    _check("plan_active", api.get(f"/api/v1/plans/{ledger['active']}"))
    _check("plan_draft", api.get(f"/api/v1/plans/{ledger['draft']}"))
    _check("plans", api.get("/api/v1/plans"))
    _check("transactions", api.get("/api/v1/transactions"))
    _check("transactions_200", api.get("/api/v1/transactions?page_size=200"))
    first = api.get("/api/v1/transactions?page_size=30").json()
    _check("transactions_next", api.get(first["next"]))
    _check("transactions_expense", api.get("/api/v1/transactions?direction=expense&page_size=100"))
    _check("transactions_income", api.get("/api/v1/transactions?direction=income"))
    _check("transactions_synced", api.get("/api/v1/transactions?source=synced"))
    _check("transactions_manual_dining", api.get("/api/v1/transactions?source=manual&category=dining"))
    _check("transactions_asset", api.get(f"/api/v1/transactions?asset={ledger['wallet']}"))
    _check("transactions_window", api.get("/api/v1/transactions?since=2026-09-01&until=2026-09-30"))
    _check("assets", api.get("/api/v1/assets"))
    _check("budgets", api.get("/api/v1/budgets"))
    _check("goals", api.get("/api/v1/goals"))
