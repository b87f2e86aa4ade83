"""This month's active plan as the single-user forecast reads it (plans/forecast_read.py's cash_forecast): one
query whose row carries what the forecast needs beside the plan's own columns: its goal entries' total, its fixed
expenses' categories, the user's cushion and whether they owe on any open debt. plans_current reads the plan's
goal, its rebalances and, in a second query, its fixed lines, none of which the forecast uses; without
forecast_facts the cushion is a query of its own, and so are the debts, which a user who owes nothing need not
have read (the home, which needs plans_current's read, adds forecast_facts to it)."""

import datetime as dt
from decimal import Decimal

from django.contrib.postgres.expressions import ArraySubquery
from django.db.models import Exists, OuterRef, Subquery, Sum

from goals.debts.models import Debt
from plans import math as pm
from plans.forecast_models import ForecastWatch
from plans.models import FixedExpense, MonthlyPlan
from zeus.money import to_minor


def forecast_plan(*, user, today: dt.date) -> MonthlyPlan | None:
    """The user's active plan for the month of `today` (at most one: plan_one_active_per_user_month), None
    without one; its `fixed_categories` as state.fixed_categories reads them, its `goal_entries_total` as
    selectors.plan_ledgers does, `stored_cushion` for carried_cushion and `owes` for owes_nothing."""
    fixed = ArraySubquery(FixedExpense.objects.filter(plan=OuterRef("pk")).order_by().values("category"))
    return (
        MonthlyPlan.objects.filter(user=user, month=pm.month_first(today), status=MonthlyPlan.Status.ACTIVE)
        .annotate(goal_entries_total=Sum("entries__amount", default=0), fixed_categories=fixed, **forecast_facts())
        .first()
    )


def forecast_facts() -> dict:
    """What the forecast reads of a plan's user besides the plan, as annotations of the plan's row:
    `stored_cushion` (carried_cushion) and `owes` (owes_nothing). A read of plans that feeds a forecast adds them
    (forecast_plan; the home's plan read, plans/home.py), so the cushion and the debts are not read apart."""
    return {
        "stored_cushion": Subquery(ForecastWatch.objects.filter(user=OuterRef("user")).values("cushion")),
        "owes": Exists(
            Debt.objects.filter(user=OuterRef("user"), status=Debt.Status.OPEN, direction=Debt.Direction.I_OWE)
        ),
    }


def carried_cushion(plan: MonthlyPlan | None, currency: str) -> int | None:
    """The cushion (minor units, 0 without a watch) the plan's row carries when read with forecast_facts; None when
    it carries none (no plan, or one read elsewhere): then the cushion is read alone."""
    if plan is None or not hasattr(plan, "stored_cushion"):
        return None
    stored: Decimal | None = plan.stored_cushion
    return to_minor(stored, currency) if stored is not None else 0


def owes_nothing(plan: MonthlyPlan | None) -> bool:
    """Whether the plan's row, when read with forecast_facts, says the user owes on no open debt: no instalment of
    theirs can fall in the forecast (it counts only what the user owes), so the debts need no read."""
    return plan is not None and hasattr(plan, "owes") and not plan.owes
