"""The demo user's plan for `make run` (the demo app's seed_demo calls this)."""

import datetime as dt

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from goals.selectors import goal_list
from plans import math as pm
from plans.models import MonthlyPlan
from plans.services import plan_activate, plan_create
from zeus.errors import Conflict
from zeus.selectors import user_currency

DEMO_INCOME = "25000000"
# Named in the active language: the demo seeds under its profile's.
DEMO_FIXED = [
    {"name": _("Rent"), "amount": "6500000", "category": "housing"},
    {"name": _("Utilities"), "amount": "800000", "category": "utilities"},
]


def _active(user, first: dt.date) -> MonthlyPlan | None:
    return MonthlyPlan.objects.filter(user=user, month=first, status=MonthlyPlan.Status.ACTIVE).first()


def seed_demo_plan(*, user, today: dt.date) -> MonthlyPlan:
    """An active, balanced plan for `today`'s month: 25,000,000 VND income, rent and utilities fixed, the
    user's first active goal (in the plan's currency) as primary. Returns the existing one on a re-run."""
    first = pm.month_first(today)
    existing = _active(user, first)
    if existing is not None:
        return existing
    currency = user_currency(user)
    goal = goal_list(user=user, status="active").filter(currency=currency).order_by("created_at", "id").first()
    try:
        with transaction.atomic():
            plan = plan_create(
                user=user,
                month=f"{first:%Y-%m}",
                expected_income=DEMO_INCOME,
                fixed_expenses=[{**line, "name": str(line["name"])} for line in DEMO_FIXED],
                lifestyle_mode=MonthlyPlan.Mode.BALANCED,
                primary_goal_id=goal.id if goal else None,
                today=today,
            )
            return plan_activate(user=user, plan_id=plan.id, today=today)
    except Conflict:
        # Another seed won the race for this month's active plan.
        return _active(user, first)
