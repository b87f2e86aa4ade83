"""/api/v1/plans end to end through a token client, at a fixed instant (10 November 2026, noon in Saigon):
allocations recomputed, goal entries, actuals sorted into buckets, the goal boost."""

import datetime as dt
from decimal import Decimal

import pytest

from tests import factories
from tests.plans.plan_requests import create_plan

pytestmark = pytest.mark.django_db


def test_patch_recomputes_allocations(clock, alice_api):
    plan = create_plan(alice_api)
    response = alice_api.patch(
        f"/api/v1/plans/{plan['id']}",
        {"lifestyle_mode": "saver", "essential_spending": "10000000", "reminders_enabled": False},
        format="json",
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    # 17,700,000 flexible, 10,000,000 essential, 7,700,000 split 30:20.
    assert body["allocations"] == {
        "fixed": "7300000",
        "essential": "10000000",
        "goal": "4620000",
        "safe_to_spend": "3080000",
    }
    assert body["reminders_enabled"] is False
    response = alice_api.patch(f"/api/v1/plans/{plan['id']}", {"expected_income": "1000"}, format="json")
    assert response.status_code == 400
    response = alice_api.patch(
        f"/api/v1/plans/{plan['id']}",
        {"fixed_expenses": [{"name": "Rent", "amount": "1", "category": "housing"}]},
        format="json",
    )
    assert response.json()["allocations"]["fixed"] == "1"


def test_a_goal_entry_adds_to_the_primary_goal(clock, alice, alice_api):
    goal = factories.goal(alice, target_amount="100000000", current_amount="1000000")
    plan = create_plan(alice_api, primary_goal_id=goal.id)
    alice_api.post(f"/api/v1/plans/{plan['id']}/activate")
    response = alice_api.post(
        f"/api/v1/plans/{plan['id']}/entries", {"kind": "goal", "amount": "500k", "note": "Payday"}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["actuals"]["goal"] == "500000"
    goal.refresh_from_db()
    assert goal.current_amount == Decimal("1500000")
    # Recomputing later keeps the goal share: the contribution came from this plan.
    body = alice_api.patch(f"/api/v1/plans/{plan['id']}", {"lifestyle_mode": "balanced"}, format="json").json()
    assert body["allocations"]["goal"] == "3540000"


def test_the_primary_goal_caps_the_goal_share(clock, alice, alice_api):
    goal = factories.goal(alice, target_amount="10000000", current_amount="9000000")
    plan = create_plan(alice_api, primary_goal_id=goal.id)
    assert plan["allocations"]["goal"] == "1000000"
    assert plan["allocations"]["safe_to_spend"] == "7850000"


def test_entries_need_an_active_plan(clock, alice_api):
    plan = create_plan(alice_api)
    response = alice_api.post(f"/api/v1/plans/{plan['id']}/entries", {"kind": "goal", "amount": "1"}, format="json")
    assert response.status_code == 409


def test_actuals_sort_transactions_into_buckets(clock, alice, alice_api):
    plan = create_plan(alice_api)
    alice_api.post(f"/api/v1/plans/{plan['id']}/activate")
    day = dt.date(2026, 11, 3)
    factories.txn(alice, amount="6500000", category="housing", occurred_on=day)
    factories.txn(alice, amount="900000", category="groceries", occurred_on=day)
    factories.txn(alice, amount="300000", category="dining", occurred_on=day)
    factories.txn(alice, amount="200000", category="dining", occurred_on=dt.date(2026, 11, 10))
    factories.txn(alice, amount="999999", category="dining", occurred_on=dt.date(2026, 10, 31))
    factories.txn(alice, amount="50", category="dining", occurred_on=day, currency="USD")
    factories.txn(alice, amount="30000000", direction="income", category="salary", occurred_on=day)
    alice_api.post(f"/api/v1/plans/{plan['id']}/entries", {"kind": "discretionary", "amount": "100000"}, format="json")
    body = alice_api.get(f"/api/v1/plans/{plan['id']}").json()
    assert body["actuals"] == {"fixed": "6500000", "essential": "900000", "discretionary": "600000", "goal": "0"}
    # Before today: 300,000 spent; (5,310,000 - 300,000) // 21 = 238,571; today 200,000 + 100,000 logged.
    assert body["daily_guide"] == {"days_left": 21, "guide": "238571", "spent_today": "300000", "left_today": "-61429"}


def test_boost_goal_on_track_from_day_10(clock, alice, alice_api):
    goal = factories.goal(alice, target_amount="100000000")
    plan = create_plan(alice_api, primary_goal_id=goal.id)
    alice_api.post(f"/api/v1/plans/{plan['id']}/activate")
    alice_api.post(f"/api/v1/plans/{plan['id']}/entries", {"kind": "goal", "amount": "1000000"}, format="json")
    # Nothing spent on day 10 of 30: floor((5,310,000 - 0) / 2) = 2,655,000 from safe to goal.
    body = alice_api.get(f"/api/v1/plans/{plan['id']}").json()
    assert body["recommendation"]["kind"] == "boost_goal"
    assert body["recommendation"]["amount"] == "2655000"
    body = alice_api.post(f"/api/v1/plans/{plan['id']}/rebalance").json()
    assert body["allocations"]["goal"] == "6195000"
    assert body["allocations"]["safe_to_spend"] == "2655000"
