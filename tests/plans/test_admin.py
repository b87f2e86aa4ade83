import datetime as dt

import pytest

from plans.models import MonthlyPlan, Rebalance
from tests import factories
from tests.plans import factories as plan_factories
from zeus.models import Notification

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, staff):
    client.force_login(staff)
    return client


def test_the_plan_changelist_and_change_page_open_for_a_superuser(clock, staff_client, alice):
    plan = plan_factories.plan(alice, active=True)
    plan_factories.plan(alice, month="2026-12")
    response = staff_client.get("/admin/plans/monthlyplan/?status__exact=active&q=alice")
    assert response.status_code == 200
    assert f"/admin/plans/monthlyplan/{plan.id}/change/" in response.content.decode()
    response = staff_client.get(f"/admin/plans/monthlyplan/{plan.id}/change/")
    assert response.status_code == 200
    assert "Rent" in response.content.decode()
    for model in ("planentry", "rebalance", "reminderlog", "idempotencyrecord"):
        assert staff_client.get(f"/admin/plans/{model}/").status_code == 200


def test_the_admin_runs_plan_jobs_for_the_selected_plans_users(clock, staff_client, alice, bob):
    alices = plan_factories.plan(alice, active=True, reminder_time="00:00")
    plan_factories.plan(bob, active=True, reminder_time="00:00")
    clock.set("2026-11-10T17:30:00+00:00")  # 00:30 in Saigon
    response = staff_client.post(
        "/admin/plans/monthlyplan/",
        {"action": "run_plan_jobs_for_users", "_selected_action": [alices.id]},
        follow=True,
    )
    assert response.status_code == 200
    assert "1 reminder(s) sent" in response.content.decode()
    assert list(Notification.objects.values_list("user__username", flat=True)) == ["alice"]


def test_the_admin_accepts_a_rebalance_on_the_users_behalf(clock, staff, staff_client, alice, bob):
    plan = plan_factories.plan(alice, active=True)
    quiet = plan_factories.plan(bob, active=True)
    factories.txn(alice, amount="6000000", category="shopping", occurred_on=dt.date(2026, 11, 5))
    response = staff_client.post(
        "/admin/plans/monthlyplan/",
        {"action": "accept_rebalance", "_selected_action": [plan.id, quiet.id]},
        follow=True,
    )
    body = response.content.decode()
    assert "accepted cover_overspend" in body
    assert "nothing to rebalance" in body
    rebalance = Rebalance.objects.get()
    assert rebalance.plan_id == plan.id and rebalance.accepted_by == staff
    assert MonthlyPlan.objects.get(id=plan.id).alloc_safe == 6000000
