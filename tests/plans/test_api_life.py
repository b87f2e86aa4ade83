"""/api/v1/plans end to end through a token client, at a fixed instant (10 November 2026, noon in Saigon):
a plan's life from draft to active to its month's end, the list, deletion, dismissals, refusals in the
caller's language."""

import datetime as dt

import pytest

from plans.models import MonthlyPlan
from tests import factories
from tests.plans.plan_requests import create_plan

pytestmark = pytest.mark.django_db


def test_it_lists_plans_newest_month_first(clock, alice_api):
    create_plan(alice_api, month="2026-11")
    create_plan(alice_api, month="2027-01")
    create_plan(alice_api, month="2026-12")
    response = alice_api.get("/api/v1/plans")
    assert [p["month"] for p in response.json()["results"]] == ["2027-01", "2026-12", "2026-11"]


def test_activation_allows_one_active_plan_per_month(clock, alice_api):
    first = create_plan(alice_api)
    second = create_plan(alice_api)
    response = alice_api.post(f"/api/v1/plans/{first['id']}/activate")
    assert response.status_code == 200
    assert response.json()["status"] == "active"
    response = alice_api.post(f"/api/v1/plans/{second['id']}/activate")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "ACTIVE_PLAN_EXISTS"
    assert alice_api.post(f"/api/v1/plans/{first['id']}/activate").status_code == 409


def test_a_refusal_is_said_in_the_callers_language_english_by_default(clock, alice_api):
    plan = create_plan(alice_api)
    alice_api.post(f"/api/v1/plans/{plan['id']}/activate")
    english = alice_api.delete(f"/api/v1/plans/{plan['id']}").json()["error"]
    vietnamese = alice_api.delete(f"/api/v1/plans/{plan['id']}", HTTP_ACCEPT_LANGUAGE="vi").json()["error"]
    assert (english["code"], english["message"]) == ("PLAN_NOT_DRAFT", "Only a draft plan can be deleted.")
    assert (vietnamese["code"], vietnamese["message"]) == ("PLAN_NOT_DRAFT", "Chỉ kế hoạch nháp mới xóa được.")
    missing = alice_api.get("/api/v1/plans/999999", HTTP_ACCEPT_LANGUAGE="vi").json()["error"]
    assert missing["message"] == "Không có kế hoạch này."


def test_only_a_draft_can_be_deleted(clock, alice_api):
    plan = create_plan(alice_api)
    alice_api.post(f"/api/v1/plans/{plan['id']}/activate")
    response = alice_api.delete(f"/api/v1/plans/{plan['id']}")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "PLAN_NOT_DRAFT"
    draft = create_plan(alice_api, month="2026-12")
    assert alice_api.delete(f"/api/v1/plans/{draft['id']}").status_code == 204
    assert alice_api.get(f"/api/v1/plans/{draft['id']}").status_code == 404


def test_the_whole_life_of_a_plan(clock, alice, alice_api):
    """Create, activate, log, warn, rebalance, dismiss, finalize: every figure as docs/contract/plans.md computes it."""
    goal = factories.goal(alice, target_amount="100000000")
    plan = create_plan(alice_api, primary_goal_id=goal.id)
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
    plan = create_plan(alice_api)
    alice_api.post(f"/api/v1/plans/{plan['id']}/activate")
    alice_api.post(f"/api/v1/plans/{plan['id']}/entries", {"kind": "goal", "amount": "1000000"}, format="json")
    assert alice_api.get(f"/api/v1/plans/{plan['id']}").json()["warning"]["state"] == "on_track"
    assert alice_api.post(f"/api/v1/plans/{plan['id']}/dismiss-warning").status_code == 409
