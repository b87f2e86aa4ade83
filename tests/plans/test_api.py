"""/api/v1/plans end to end through a token client, at a fixed instant (10 November 2026, noon in Saigon)."""

import datetime as dt
from decimal import Decimal

import pytest

from goals.models import Goal
from plans.models import IdempotencyRecord, MonthlyPlan
from tests import factories
from tests.plans import factories as plan_factories

pytestmark = pytest.mark.django_db

BODY = {
    "month": "2026-11",
    "expected_income": "25tr",
    "fixed_expenses": [
        {"name": "Rent", "amount": "6,500,000", "category": "housing"},
        {"name": "Utilities", "amount": 800000, "category": "utilities"},
    ],
    "lifestyle_mode": "balanced",
}
PLAN_KEYS = {
    "id", "month", "status", "currency", "lifestyle_mode", "expected_income", "fixed_expenses", "primary_goal_id",
    "reminders_enabled", "reminder_time", "allocations", "actuals", "daily_guide", "warning", "streak",
    "recommendation", "summary", "converted", "rate_missing",
}  # fmt: skip


def _create(api, **changes):
    response = api.post("/api/v1/plans", {**BODY, **changes}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_it_creates_a_draft_with_the_contracts_shape(clock, alice_api):
    plan = _create(alice_api, reminder_time="21:30")
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
    from tests.conftest import _token_client

    carol = factories.user("carol", currency="USD", timezone="America/Chicago")
    api = _token_client(carol)
    plan = _create(
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


def test_it_lists_plans_newest_month_first(clock, alice_api):
    _create(alice_api, month="2026-11")
    _create(alice_api, month="2027-01")
    _create(alice_api, month="2026-12")
    response = alice_api.get("/api/v1/plans")
    assert [p["month"] for p in response.json()["results"]] == ["2027-01", "2026-12", "2026-11"]


def test_activation_allows_one_active_plan_per_month(clock, alice_api):
    first = _create(alice_api)
    second = _create(alice_api)
    response = alice_api.post(f"/api/v1/plans/{first['id']}/activate")
    assert response.status_code == 200
    assert response.json()["status"] == "active"
    response = alice_api.post(f"/api/v1/plans/{second['id']}/activate")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "ACTIVE_PLAN_EXISTS"
    assert alice_api.post(f"/api/v1/plans/{first['id']}/activate").status_code == 409


def test_a_refusal_is_said_in_the_callers_language_english_by_default(clock, alice_api):
    plan = _create(alice_api)
    alice_api.post(f"/api/v1/plans/{plan['id']}/activate")
    english = alice_api.delete(f"/api/v1/plans/{plan['id']}").json()["error"]
    vietnamese = alice_api.delete(f"/api/v1/plans/{plan['id']}", HTTP_ACCEPT_LANGUAGE="vi").json()["error"]
    assert (english["code"], english["message"]) == ("PLAN_NOT_DRAFT", "Only a draft plan can be deleted.")
    assert (vietnamese["code"], vietnamese["message"]) == ("PLAN_NOT_DRAFT", "Chỉ kế hoạch nháp mới xóa được.")
    missing = alice_api.get("/api/v1/plans/999999", HTTP_ACCEPT_LANGUAGE="vi").json()["error"]
    assert missing["message"] == "Không có kế hoạch này."


def test_only_a_draft_can_be_deleted(clock, alice_api):
    plan = _create(alice_api)
    alice_api.post(f"/api/v1/plans/{plan['id']}/activate")
    response = alice_api.delete(f"/api/v1/plans/{plan['id']}")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "PLAN_NOT_DRAFT"
    draft = _create(alice_api, month="2026-12")
    assert alice_api.delete(f"/api/v1/plans/{draft['id']}").status_code == 204
    assert alice_api.get(f"/api/v1/plans/{draft['id']}").status_code == 404


def test_patch_recomputes_allocations(clock, alice_api):
    plan = _create(alice_api)
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
    plan = _create(alice_api, primary_goal_id=goal.id)
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
    plan = _create(alice_api, primary_goal_id=goal.id)
    assert plan["allocations"]["goal"] == "1000000"
    assert plan["allocations"]["safe_to_spend"] == "7850000"


def test_entries_need_an_active_plan(clock, alice_api):
    plan = _create(alice_api)
    response = alice_api.post(f"/api/v1/plans/{plan['id']}/entries", {"kind": "goal", "amount": "1"}, format="json")
    assert response.status_code == 409


def test_actuals_sort_transactions_into_buckets(clock, alice, alice_api):
    plan = _create(alice_api)
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


def test_the_whole_life_of_a_plan(clock, alice, alice_api):
    """Create, activate, log, warn, rebalance, dismiss, finalize: every figure as docs/contract/plans.md computes it."""
    goal = factories.goal(alice, target_amount="100000000")
    plan = _create(alice_api, primary_goal_id=goal.id)
    pid = plan["id"]
    assert alice_api.post(f"/api/v1/plans/{pid}/rebalance").status_code == 409  # a draft has nothing to rebalance
    assert alice_api.post(f"/api/v1/plans/{pid}/activate").json()["status"] == "active"

    # Day 10: overspent (6,000,000 > 5,310,000), goal money left 3,540,000 → cover 690,000.
    factories.txn(alice, amount="6000000", category="shopping", occurred_on=dt.date(2026, 11, 5))
    body = alice_api.get(f"/api/v1/plans/{pid}").json()
    assert body["warning"] == {
        "state": "overspent",
        "dismissed": False,
        "bills_due": [],
        "bills_due_total": "0",
        "bills_short": False,
    }
    assert body["recommendation"] == {"kind": "cover_overspend", "amount": "690000", "daily_guide": "0"}

    body = alice_api.post(f"/api/v1/plans/{pid}/rebalance").json()
    assert body["allocations"]["goal"] == "2850000"
    assert body["allocations"]["safe_to_spend"] == "6000000"
    assert sum(int(v) for v in body["allocations"].values()) == 25_000_000
    # Safe now equals spending: not overspent; 6,000,000 > 1.10 * 6,000,000 * 10 / 30 → spend_pace.
    assert body["warning"]["state"] == "spend_pace"
    assert body["recommendation"] == {"kind": "tighten_spending", "amount": "0", "daily_guide": "0"}
    rebalance = MonthlyPlan.objects.get(id=pid).rebalances.get()
    assert rebalance.before["goal"] == "3540000" and rebalance.after["goal"] == "2850000"

    body = alice_api.post(f"/api/v1/plans/{pid}/dismiss-warning").json()
    assert body["warning"] == {
        "state": "spend_pace",
        "dismissed": True,
        "bills_due": [],
        "bills_due_total": "0",
        "bills_short": False,
    }
    body = alice_api.post(f"/api/v1/plans/{pid}/rebalance").json()  # tighten: accepted, no money moves
    assert body["allocations"]["safe_to_spend"] == "6000000"
    assert body["recommendation"] is None
    assert alice_api.post(f"/api/v1/plans/{pid}/rebalance").json()["error"]["code"] == "NOTHING_TO_REBALANCE"

    # A new overspend changes the state: the dismissal lapses; the overspent state was answered already.
    factories.txn(alice, amount="100000", category="dining", occurred_on=dt.date(2026, 11, 10))
    body = alice_api.get(f"/api/v1/plans/{pid}").json()
    assert body["warning"] == {
        "state": "overspent",
        "dismissed": False,
        "bills_due": [],
        "bills_due_total": "0",
        "bills_short": False,
    }
    assert body["recommendation"] is None

    # The month ends in Saigon at 17:00 UTC on 30 November; the hourly job finalizes it.
    from django.core.management import call_command

    call_command("run_plan_jobs", "--now", "2026-11-30T17:05:00+00:00")
    clock.set("2026-12-01T01:00:00+00:00")
    body = alice_api.get(f"/api/v1/plans/{pid}").json()
    assert body["status"] == "completed"
    assert body["summary"]["result"] == "over_budget"
    assert body["summary"]["suggestion"]["kind"] == "lower_spending"
    assert body["summary"]["actual"]["discretionary"] == "6100000"
    assert alice.notifications.filter(kind="month_end_summary").count() == 1
    assert alice_api.patch(f"/api/v1/plans/{pid}", {"lifestyle_mode": "saver"}, format="json").status_code == 409


def test_dismissing_without_a_warning_is_a_409(clock, alice_api):
    plan = _create(alice_api)
    alice_api.post(f"/api/v1/plans/{plan['id']}/activate")
    alice_api.post(f"/api/v1/plans/{plan['id']}/entries", {"kind": "goal", "amount": "1000000"}, format="json")
    assert alice_api.get(f"/api/v1/plans/{plan['id']}").json()["warning"]["state"] == "on_track"
    assert alice_api.post(f"/api/v1/plans/{plan['id']}/dismiss-warning").status_code == 409


def test_boost_goal_on_track_from_day_10(clock, alice, alice_api):
    goal = factories.goal(alice, target_amount="100000000")
    plan = _create(alice_api, primary_goal_id=goal.id)
    alice_api.post(f"/api/v1/plans/{plan['id']}/activate")
    alice_api.post(f"/api/v1/plans/{plan['id']}/entries", {"kind": "goal", "amount": "1000000"}, format="json")
    # Nothing spent on day 10 of 30: floor((5,310,000 - 0) / 2) = 2,655,000 from safe to goal.
    body = alice_api.get(f"/api/v1/plans/{plan['id']}").json()
    assert body["recommendation"]["kind"] == "boost_goal"
    assert body["recommendation"]["amount"] == "2655000"
    body = alice_api.post(f"/api/v1/plans/{plan['id']}/rebalance").json()
    assert body["allocations"]["goal"] == "6195000"
    assert body["allocations"]["safe_to_spend"] == "2655000"


def test_the_same_idempotency_key_replays_the_first_response(clock, alice_api):
    headers = {"HTTP_IDEMPOTENCY_KEY": "create-1"}
    first = alice_api.post("/api/v1/plans", BODY, format="json", **headers)
    again = alice_api.post("/api/v1/plans", BODY, format="json", **headers)
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert again["Idempotent-Replayed"] == "true"
    assert MonthlyPlan.objects.count() == 1
    other = alice_api.post("/api/v1/plans", {**BODY, "expected_income": "30tr"}, format="json", **headers)
    assert other.status_code == 422
    assert other.json()["error"]["code"] == "IDEMPOTENCY_KEY_REUSED"
    assert MonthlyPlan.objects.count() == 1


def test_idempotency_keys_are_per_user_and_replay_errors_too(clock, alice_api, bob_api):
    headers = {"HTTP_IDEMPOTENCY_KEY": "k"}
    assert alice_api.post("/api/v1/plans", BODY, format="json", **headers).status_code == 201
    assert bob_api.post("/api/v1/plans", BODY, format="json", **headers).status_code == 201
    bad = {**BODY, "month": "nope"}
    assert alice_api.post("/api/v1/plans", bad, format="json", HTTP_IDEMPOTENCY_KEY="bad").status_code == 400
    replay = alice_api.post("/api/v1/plans", bad, format="json", HTTP_IDEMPOTENCY_KEY="bad")
    assert replay.status_code == 400 and replay["Idempotent-Replayed"] == "true"
    assert IdempotencyRecord.objects.count() == 3


def test_an_idempotent_entry_is_logged_once(clock, alice, alice_api):
    goal = factories.goal(alice)
    plan = _create(alice_api, primary_goal_id=goal.id)
    alice_api.post(f"/api/v1/plans/{plan['id']}/activate", HTTP_IDEMPOTENCY_KEY="a1")
    assert alice_api.post(f"/api/v1/plans/{plan['id']}/activate", HTTP_IDEMPOTENCY_KEY="a1").status_code == 200
    for _ in range(3):
        response = alice_api.post(
            f"/api/v1/plans/{plan['id']}/entries",
            {"kind": "goal", "amount": "100000"},
            format="json",
            HTTP_IDEMPOTENCY_KEY="e1",
        )
        assert response.status_code == 201
    assert Goal.objects.get(id=goal.id).current_amount == Decimal("100000")
