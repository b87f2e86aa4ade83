import datetime as dt
import re

import pytest

from plans import jobs
from plans.models import MonthlyPlan
from tests import factories
from tests.plans import factories as plan_factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice_web(client, alice):
    client.force_login(alice)
    return client


def _form(**changes):
    data = {
        "month": "2026-11",
        "expected_income": "25tr",
        "lifestyle_mode": "balanced",
        "primary_goal": "",
        "reminder_time": "20:00",
        "lines-TOTAL_FORMS": "3",
        "lines-INITIAL_FORMS": "0",
        "lines-MIN_NUM_FORMS": "0",
        "lines-MAX_NUM_FORMS": "20",
        "lines-0-name": "Rent",
        "lines-0-amount": "6.500.000",
        "lines-0-category": "housing",
        "lines-1-name": "Utilities",
        "lines-1-amount": "800k",
        "lines-1-category": "utilities",
        "lines-2-name": "",
        "lines-2-amount": "",
        "lines-2-category": "housing",
    }
    data.update(changes)
    return data


def test_the_page_needs_a_login(client):
    response = client.get("/plans")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_without_a_plan_the_page_offers_the_form(clock, alice_web):
    response = alice_web.get("/plans")
    body = response.content.decode()
    assert response.status_code == 200
    assert "No plan for November 2026 yet" in body
    assert 'value="2026-11"' in body
    # Nothing from another origin and no inline script: every script is a static file of our own.
    assert not re.search(r'(src|href)="(https?:)?//', body)
    assert all(' src="/' in tag for tag in re.findall(r"<script[^>]*>", body))


def test_it_creates_and_activates_a_plan_from_the_form(clock, alice, alice_web):
    goal = factories.goal(alice, name="Flat")
    response = alice_web.post("/plans", _form(primary_goal=str(goal.id), activate="1"))
    assert response.status_code == 302
    plan = MonthlyPlan.objects.get(user=alice)
    assert (plan.status, plan.primary_goal_id, plan.alloc_safe) == ("active", goal.id, 5310000)
    assert [line.name for line in plan.fixed_expenses.all()] == ["Rent", "Utilities"]
    body = alice_web.get("/plans").content.decode()
    assert "₫5,310,000 left of ₫5,310,000 safe-to-spend" in body
    assert "Today: ₫0 spent of a ₫252,857 guide (21 days left)" in body
    assert "Your goal contributions are behind pace." in body
    assert "0 days in a row within the guide" in body
    assert "Primary goal: Flat" in body


def test_form_errors_are_shown_on_the_form(clock, alice_web):
    response = alice_web.post("/plans", _form(expected_income="5tr"))
    assert response.status_code == 400
    assert "Fixed expenses are above the expected income." in response.content.decode()
    response = alice_web.post("/plans", _form(month="2026/11"))
    assert response.status_code == 400
    assert "Use YYYY-MM." in response.content.decode()
    assert not MonthlyPlan.objects.exists()


def test_a_draft_is_activated_from_the_page(clock, alice, alice_web):
    plan = plan_factories.plan(alice)
    assert "Activate this plan" in alice_web.get("/plans").content.decode()
    alice_web.post(f"/plans/{plan.id}/activate")
    plan.refresh_from_db()
    assert plan.status == "active"


def test_logging_overspending_shows_the_warning_and_the_rebalance(clock, alice, alice_web):
    plan = plan_factories.plan(alice, active=True)
    response = alice_web.post(f"/plans/{plan.id}/entries", {"kind": "discretionary", "amount": "6tr"})
    assert response.status_code == 302
    body = alice_web.get("/plans").content.decode()
    assert "You have spent more than this month&#x27;s safe-to-spend." in body
    assert "Move ₫690,000 from your goal to safe-to-spend" in body
    alice_web.post(f"/plans/{plan.id}/rebalance")
    plan.refresh_from_db()
    assert plan.alloc_safe == 6000000
    alice_web.post(f"/plans/{plan.id}/dismiss-warning")
    assert "(dismissed)" in alice_web.get("/plans").content.decode()
    response = alice_web.post(f"/plans/{plan.id}/entries", {"kind": "discretionary", "amount": "nope"})
    assert response.status_code == 400
    assert "Enter an amount in VND" in response.content.decode()


def test_another_users_plan_cannot_be_touched_from_the_page(clock, bob, alice_web):
    plan = plan_factories.plan(bob)
    response = alice_web.post(f"/plans/{plan.id}/activate", follow=True)
    assert "That plan does not exist." in response.content.decode()
    plan.refresh_from_db()
    assert plan.status == "draft"


def test_a_refused_action_is_said_in_the_readers_language(clock, alice, alice_web):
    plan_factories.plan(alice, active=True)
    second = plan_factories.plan(alice)
    alice.profile.language = "vi"
    alice.profile.save()
    page = alice_web.post(f"/plans/{second.id}/activate", follow=True).content.decode()
    assert "There is already" not in page
    assert "Tháng đó đã có một kế hoạch đang áp dụng." in page or "Chỉ kế hoạch nháp" in page


def test_past_months_show_their_summaries(clock, alice, alice_web):
    plan_factories.plan(alice, active=True)
    factories.txn(alice, amount="6000000", category="dining", occurred_on=dt.date(2026, 11, 12))
    jobs.plans_finalize_ended(now=dt.datetime(2026, 12, 2, tzinfo=dt.UTC))
    clock.set("2026-12-02T05:00:00+00:00")
    alice_web.force_login(alice)  # the session from 10 November has expired by now
    body = alice_web.get("/plans").content.decode()
    assert "Past months" in body
    assert "November 2026 — Over budget" in body
    assert "You spent ₫690,000 more than your safe-to-spend." in body


def test_a_plan_activated_ahead_of_its_month_is_still_shown(clock, alice, alice_web):
    plan_factories.plan(alice, active=True)
    december = plan_factories.plan(alice, month="2026-12", active=True)
    page = alice_web.get("/plans").content.decode()
    assert f'id="plan-{december.id}"' in page and "active from its first day" in page
