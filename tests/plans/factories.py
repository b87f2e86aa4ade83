"""Plans made through the services, as a user would make them."""

from plans.models import MonthlyPlan
from plans.services import plan_activate, plan_create

RENT = {"name": "Rent", "amount": "6500000", "category": "housing"}
UTILITIES = {"name": "Utilities", "amount": "800000", "category": "utilities"}


def plan(owner, *, month="2026-11", income="25000000", fixed=(RENT, UTILITIES), active=False, **extra) -> MonthlyPlan:
    made = plan_create(user=owner, month=month, expected_income=income, fixed_expenses=list(fixed), **extra)
    if active:
        made = plan_activate(user=owner, plan_id=made.id)
    return made
