"""The current plan is edited on /plans: its inputs change, its figures are recomputed and shown; a bad input
is a form error that changes nothing; an activated future plan stays on the page."""

import datetime as dt
from decimal import Decimal

import pytest

from plans.models import MonthlyPlan, PlanRevision
from tests import factories
from tests.plans import factories as plan_factories


@pytest.fixture
def alice_web(client, alice):
    client.force_login(alice)
    return client


def _edit(**changes) -> dict:
    data = {
        "edit-expected_income": "25000000",
        "edit-lifestyle_mode": "balanced",
        "edit-essential_spending": "",
        "edit-primary_goal": "",
        "edit-reminder_time": "20:00",
        "edit-reminders_enabled": "on",
        "edit-lines-TOTAL_FORMS": "2",
        "edit-lines-INITIAL_FORMS": "2",  # as the page renders it: the plan's two lines
        "edit-lines-MIN_NUM_FORMS": "0",
        "edit-lines-MAX_NUM_FORMS": "20",
        "edit-lines-0-name": "Rent",
        "edit-lines-0-amount": "6500000",
        "edit-lines-0-category": "housing",
        "edit-lines-1-name": "",
        "edit-lines-1-amount": "",
        "edit-lines-1-category": "housing",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_the_page_offers_the_active_plans_inputs_to_edit(clock, alice, alice_web):
    plan = plan_factories.plan(alice, active=True, income="25000000")
    page = alice_web.get("/plans").content.decode()
    assert f'action="/plans/{plan.id}/edit"' in page
    assert 'name="edit-expected_income" value="25000000"' in page
    assert 'name="edit-lines-0-name" value="Rent"' in page
    assert 'name="edit-lines-1-amount" value="800000"' in page


def test_editing_the_active_plan_recomputes_and_shows_its_figures(clock, alice, alice_web):
    plan = plan_factories.plan(alice, active=True)
    factories.txn(alice, amount="100000", category="dining", occurred_on=dt.date(2026, 11, 9))
    response = alice_web.post(
        f"/plans/{plan.id}/edit", _edit(**{"edit-expected_income": "30tr", "edit-lifestyle_mode": "saver"})
    )
    assert response.status_code == 302
    plan.refresh_from_db()
    # 30,000,000 - 6,500,000 fixed = 23,500,000 flexible: saver 50/30/20.
    assert (plan.status, plan.expected_income, plan.lifestyle_mode) == ("active", Decimal("30000000"), "saver")
    assert (plan.alloc_fixed, plan.alloc_essential, plan.alloc_goal, plan.alloc_safe) == (
        Decimal("6500000"), Decimal("11750000"), Decimal("7050000"), Decimal("4700000"),
    )  # fmt: skip
    assert [line.name for line in plan.fixed_expenses.all()] == ["Rent"]
    page = alice_web.get("/plans").content.decode()
    assert "Plan updated. Safe to spend this month: ₫4,700,000." in page
    assert "₫4,600,000 left of ₫4,700,000 safe-to-spend" in page


def test_a_bad_edit_is_a_form_error_and_changes_nothing(clock, alice, alice_web):
    plan = plan_factories.plan(alice, active=True)
    before = MonthlyPlan.objects.values().get(id=plan.id)
    response = alice_web.post(f"/plans/{plan.id}/edit", _edit(**{"edit-expected_income": "1tr"}))
    assert response.status_code == 400
    page = response.content.decode()
    assert '<details class="edit-plan" id="edit-plan" open>' in page
    assert "fixed expenses" in page.lower() and "errorlist" in page
    response = alice_web.post(f"/plans/{plan.id}/edit", _edit(**{"edit-expected_income": "lots"}))
    assert response.status_code == 400
    assert "Enter an amount in VND" in response.content.decode()
    response = alice_web.post(f"/plans/{plan.id}/edit", _edit(**{"edit-reminder_time": "25:00"}))
    assert response.status_code == 400
    assert MonthlyPlan.objects.values().get(id=plan.id) == before
    assert [line.name for line in plan.fixed_expenses.all()] == ["Rent", "Utilities"]


def test_only_the_users_current_plan_is_edited_here(clock, alice, bob, alice_web):
    theirs = plan_factories.plan(bob, active=True)
    response = alice_web.post(f"/plans/{theirs.id}/edit", _edit(), follow=True)
    assert "Only this month&#x27;s plan can be edited here." in response.content.decode()
    theirs.refresh_from_db()
    assert theirs.expected_income == Decimal("25000000")


def test_an_activated_future_plan_stays_on_the_page(clock, alice, alice_web):
    plan_factories.plan(alice, active=True)
    upcoming = plan_factories.plan(alice, month="2026-12", active=True)
    page = alice_web.get("/plans").content.decode()
    assert f'id="plan-{upcoming.id}"' in page and "active from its first day" in page


def test_an_edit_of_the_active_plan_is_kept_with_the_plan_before_and_after(clock, alice, alice_web):
    plan = plan_factories.plan(alice, active=True)
    alice_web.post(f"/plans/{plan.id}/edit", _edit(**{"edit-expected_income": "30tr"}))
    alice_web.post(f"/plans/{plan.id}/edit", _edit(**{"edit-expected_income": "30tr"}))  # no change: no revision
    (revision,) = PlanRevision.objects.filter(plan=plan)
    assert revision.changed_by == alice
    assert revision.before["expected_income"] == "25000000" and revision.after["expected_income"] == "30000000"
    assert [line["name"] for line in revision.before["fixed_expenses"]] == ["Rent", "Utilities"]
    assert [line["name"] for line in revision.after["fixed_expenses"]] == ["Rent"]
    assert revision.before["allocations"]["safe_to_spend"] == "5310000"
    assert revision.after["allocations"]["safe_to_spend"] == "7050000"
    page = alice_web.get("/plans").content.decode()
    assert "Edited 1 time" in page
    assert "income ₫25,000,000 → ₫30,000,000; safe to spend ₫5,310,000 → ₫7,050,000" in page


def test_a_rest_patch_of_the_active_plan_is_kept_and_a_draft_edit_is_not(clock, alice, alice_api):
    active = plan_factories.plan(alice, active=True)
    draft = plan_factories.plan(alice, month="2026-12")
    response = alice_api.patch(f"/api/v1/plans/{active.id}", {"lifestyle_mode": "saver"}, format="json")
    assert response.status_code == 200
    alice_api.patch(f"/api/v1/plans/{draft.id}", {"lifestyle_mode": "saver"}, format="json")
    (revision,) = PlanRevision.objects.all()
    assert (revision.plan_id, revision.before["lifestyle_mode"], revision.after["lifestyle_mode"]) == (
        active.id, "balanced", "saver",
    )  # fmt: skip
    assert revision.after["allocations"]["safe_to_spend"] == response.json()["allocations"]["safe_to_spend"]
    bad = alice_api.patch(f"/api/v1/plans/{active.id}", {"expected_income": "1000"}, format="json")
    assert (bad.status_code, bad.json()["error"]["code"]) == (400, "FIXED_ABOVE_INCOME")
    assert PlanRevision.objects.count() == 1


def test_the_edit_form_and_its_history_read_in_vietnamese(clock, alice, alice_web):
    plan = plan_factories.plan(alice, active=True)
    alice_web.post(f"/plans/{plan.id}/edit", _edit(**{"edit-expected_income": "30tr"}))
    alice.profile.language = "vi"
    alice.profile.save()
    page = alice_web.get("/plans").content.decode().replace("\xa0", " ")  # Babel puts a no-break space before ₫
    assert "Sửa kế hoạch này" in page and "Đã sửa 1 lần" in page
    assert "thu nhập 25.000.000 ₫ → 30.000.000 ₫" in page
    assert "Edit this plan" not in page and "Spending is added" not in page
