"""This month's active plan as the single-user forecast reads it (plans/forecast_read.py's cash_forecast): one
query whose row carries what the forecast needs beside the plan's own columns, its goal entries' total, its fixed
expenses' categories and the user's cushion, where plans_current reads the plan's goal, its rebalances and, in a
second query, its fixed lines, none of which the forecast uses, and the cushion is a query of its own."""

import datetime as dt
from decimal import Decimal

from django.contrib.postgres.expressions import ArraySubquery
from django.db.models import OuterRef, Subquery, Sum

from plans import math as pm
from plans.forecast_models import ForecastWatch
from plans.models import FixedExpense, MonthlyPlan
from zeus.money import to_minor


def forecast_plan(*, user, today: dt.date) -> MonthlyPlan | None:
    """The user's active plan for the month of `today` (at most one: plan_one_active_per_user_month), None
    without one; its `fixed_categories` as state.fixed_categories reads them, its `goal_entries_total` as
    selectors.plan_ledgers does, and `stored_cushion` for carried_cushion."""
    fixed = ArraySubquery(FixedExpense.objects.filter(plan=OuterRef("pk")).order_by().values("category"))
    cushion = Subquery(ForecastWatch.objects.filter(user=OuterRef("user")).values("cushion"))
    return (
        MonthlyPlan.objects.filter(user=user, month=pm.month_first(today), status=MonthlyPlan.Status.ACTIVE)
        .annotate(goal_entries_total=Sum("entries__amount", default=0), fixed_categories=fixed, stored_cushion=cushion)
        .first()
    )


def carried_cushion(plan: MonthlyPlan | None, currency: str) -> int | None:
    """The cushion (minor units, 0 without a watch) the plan's row carries when forecast_plan read it; None when
    it carries none (no plan, or one read elsewhere): then the cushion is read alone."""
    if plan is None or not hasattr(plan, "stored_cushion"):
        return None
    stored: Decimal | None = plan.stored_cushion
    return to_minor(stored, currency) if stored is not None else 0
