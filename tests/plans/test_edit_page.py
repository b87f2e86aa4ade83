"""The current plan is edited on /plans: its inputs change, its figures are recomputed and shown; a bad input
is a form error that changes nothing; an activated future plan stays on the page."""

import datetime as dt
from decimal import Decimal

import pytest

from plans.models import MonthlyPlan
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
