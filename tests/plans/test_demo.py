import datetime as dt
from decimal import Decimal

import pytest
from django.utils import translation

from plans.demo import seed_demo_plan
from plans.models import MonthlyPlan
from tests import factories

pytestmark = pytest.mark.django_db


def test_the_demo_plan_is_active_for_this_month_and_seeded_once(alice):
    factories.goal(alice, name="Emergency fund", kind="emergency_fund")
    first_goal = alice.goals.order_by("created_at", "id").first()
    factories.goal(alice, name="Trip", kind="other")
    today = dt.date(2026, 11, 29)
    with translation.override("en"):  # the lines are named in the active language (the demo seeds under its own)
        plan = seed_demo_plan(user=alice, today=today)
    assert (plan.status, plan.month, plan.lifestyle_mode) == ("active", dt.date(2026, 11, 1), "balanced")
    assert plan.expected_income == Decimal("25000000")
    assert [(x.name, x.amount, x.category) for x in plan.fixed_expenses.all()] == [
        ("Rent", Decimal("6500000"), "housing"),
        ("Utilities", Decimal("800000"), "utilities"),
    ]
    assert plan.primary_goal_id == first_goal.id
    assert plan.activated_on == today
    assert seed_demo_plan(user=alice, today=today).id == plan.id
    assert MonthlyPlan.objects.filter(user=alice).count() == 1


def test_the_demo_plan_works_without_goals(bob):
    plan = seed_demo_plan(user=bob, today=dt.date(2027, 2, 1))
    assert plan.primary_goal is None
    assert plan.alloc_safe == Decimal("5310000")
