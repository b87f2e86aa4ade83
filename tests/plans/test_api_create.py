"""/api/v1/plans end to end through a token client, at a fixed instant (10 November 2026, noon in Saigon):
creating a plan, its shape and its refusals, another user's plan, authentication."""

import pytest

from plans.models import MonthlyPlan
from tests import factories
from tests.plans import factories as plan_factories
from tests.plans.plan_requests import BODY, PLAN_KEYS, create_plan

pytestmark = pytest.mark.django_db


def test_it_creates_a_draft_with_the_contracts_shape(clock, alice_api):
    plan = create_plan(alice_api, reminder_time="21:30")
    assert set(plan) == PLAN_KEYS
    assert plan["month"] == "2026-11"
    assert plan["status"] == "draft"
    assert plan["currency"] == "VND"
    assert plan["expected_income"] == "25000000"
    assert [(x["name"], x["amount"], x["category"]) for x in plan["fixed_expenses"]] == [
        ("Rent", "6500000", "housing"),
        ("Utilities", "800000", "utilities"),
    ]
    assert plan["allocations"] == {
        "fixed": "7300000",
        "essential": "8850000",
        "goal": "3540000",
        "safe_to_spend": "5310000",
    }
    assert plan["actuals"] == {"fixed": "0", "essential": "0", "discretionary": "0", "goal": "0"}
    # 10 November: 21 days left; 5,310,000 // 21 = 252,857.
    assert plan["daily_guide"] == {"days_left": 21, "guide": "252857", "spent_today": "0", "left_today": "252857"}
    # Day 10 with nothing put towards the goal: 0 < 0.80 * 3,540,000 * 10 / 30.
    assert plan["warning"] == {
        "state": "goal_drift",
        "dismissed": False,
        "bills_due": [],
        "bills_due_total": "0",
        "bills_short": False,
    }
    assert plan["reminder_time"] == "21:30"
    assert plan["reminders_enabled"] is True
    assert plan["streak"] == 0
    assert plan["recommendation"] is None
    assert plan["summary"] is None


def test_usd_amounts_are_strings_with_cents(clock, db):
    from tests.conftest import token_client

    carol = factories.user("carol", currency="USD", timezone="America/Chicago")
    api = token_client(carol)
    plan = create_plan(
        api,
        expected_income="$4,000",
        fixed_expenses=[{"name": "Rent", "amount": "1234.56", "category": "housing"}],
        lifestyle_mode="saver",
    )
    assert plan["currency"] == "USD"
    assert plan["expected_income"] == "4000.00"
    assert plan["allocations"] == {
        "fixed": "1234.56",
        "essential": "1382.72",
        "goal": "829.63",
        "safe_to_spend": "553.09",
    }
    # Chicago: 9 November 23:00, 22 days left; 55,309 // 22 = 2,514 cents.
    assert plan["daily_guide"]["days_left"] == 22
    assert plan["daily_guide"]["guide"] == "25.14"


@pytest.mark.parametrize("month", ["2026-13", "11-2026", "2026/11", "2026-1", "", None, 202611, "2026-11-01"])
def test_it_refuses_a_month_in_a_bad_format(clock, alice_api, month):
    response = alice_api.post("/api/v1/plans", {**BODY, "month": month}, format="json")
    assert response.status_code == 400
    assert "month" in response.json()["error"]["fields"]


def test_it_refuses_a_month_that_has_ended(clock, alice_api):
    response = alice_api.post("/api/v1/plans", {**BODY, "month": "2026-10"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "MONTH_ENDED"


def test_it_refuses_fixed_expenses_above_income(clock, alice_api):
    response = alice_api.post("/api/v1/plans", {**BODY, "expected_income": "7000000"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "FIXED_ABOVE_INCOME"
    assert "fixed_expenses" in response.json()["error"]["fields"]
    assert not MonthlyPlan.objects.exists()


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"fixed_expenses": [{"name": "Rent", "amount": "-5", "category": "housing"}]}, "fixed_expenses[0].amount"),
        ({"fixed_expenses": [{"name": "Rent", "amount": "5", "category": "salary"}]}, "fixed_expenses[0].category"),
        ({"lifestyle_mode": "lavish"}, "lifestyle_mode"),
        ({"essential_spending": "20000000"}, "essential_spending"),
        ({"reminder_time": "25:00"}, "reminder_time"),
        ({"expected_income": "lots"}, "expected_income"),
    ],
)
def test_it_names_the_bad_field(clock, alice_api, changes, field):
    response = alice_api.post("/api/v1/plans", {**BODY, **changes}, format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json()["error"]["fields"]


def test_another_users_goal_as_primary_is_a_400_naming_the_field(clock, alice_api, bob):
    bobs_goal = factories.goal(bob)
    response = alice_api.post("/api/v1/plans", {**BODY, "primary_goal_id": bobs_goal.id}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["fields"] == {"primary_goal_id": ["No such goal."]}


def test_it_refuses_another_users_plan(clock, alice, bob_api):
    plan = plan_factories.plan(alice)
    for method, url in [
        ("get", f"/api/v1/plans/{plan.id}"),
        ("patch", f"/api/v1/plans/{plan.id}"),
        ("delete", f"/api/v1/plans/{plan.id}"),
        ("post", f"/api/v1/plans/{plan.id}/activate"),
        ("post", f"/api/v1/plans/{plan.id}/entries"),
        ("post", f"/api/v1/plans/{plan.id}/rebalance"),
        ("post", f"/api/v1/plans/{plan.id}/dismiss-warning"),
    ]:
        response = getattr(bob_api, method)(url, {"kind": "goal", "amount": "1"}, format="json")
        assert response.status_code == 404, (method, url)
    assert bob_api.get("/api/v1/plans").json()["results"] == []
    plan.refresh_from_db()
    assert plan.status == "draft"


def test_it_needs_authentication(anon_api):
    assert anon_api.get("/api/v1/plans").status_code in (401, 403)
