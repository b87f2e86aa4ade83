"""A plan's figures as of a day: plans/math.py's arithmetic over the plan's row and its month's ledger.

No queries and no clock: the plan comes with its fixed expenses and answered warning states read
(plans.selectors), the ledger as plans.selectors.plan_ledgers sums it, and `today` as an argument.
"""

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from assets import categories
from plans import math as pm
from plans.models import MonthlyPlan
from zeus.money import from_minor, to_minor


@dataclass
class Ledger:
    """What happened in a plan's month, in minor units: the ledger's expenses that count per category and
    its discretionary spend per day (a spending entry is a ledger row), and the goal entries' total."""

    expenses_by_category: dict[str, int] = field(default_factory=dict)
    discretionary_by_day: dict[dt.date, int] = field(default_factory=lambda: defaultdict(int))
    goal_entries: int = 0
    # The month's expenses in other currencies: converted at each row's day's rate (conversion_summary's shape),
    # and what no rate converts, left out of every figure, never taken at 1:1 (missing_summary's).
    converted: list[dict] = field(default_factory=list)
    rate_missing: list[dict] = field(default_factory=list)


@dataclass(frozen=True)
class MonthSoFar:
    """The plan's arithmetic up to today, shared by the whole state, the home's glance and the jobs'
    summaries."""

    allocations: pm.Allocations
    actuals: pm.Actuals
    discretionary_by_day: dict[dt.date, int]
    guide: pm.DailyGuide
    warning: str

    @property
    def safe_left(self) -> int:
        return self.allocations.safe - self.actuals.discretionary


@dataclass(frozen=True)
class PlanState:
    """A plan's figures as of `today` (the user's local date), all in minor units."""

    plan: MonthlyPlan
    today: dt.date
    allocations: pm.Allocations
    actuals: pm.Actuals
    guide: pm.DailyGuide
    warning: str
    dismissed: bool
    streak: int
    recommendation: pm.Recommendation | None
    discretionary_by_day: dict
    converted: list[dict] = field(default_factory=list)  # the Ledger's
    rate_missing: list[dict] = field(default_factory=list)  # the Ledger's

    @property
    def safe_left(self) -> int:
        return self.allocations.safe - self.actuals.discretionary


@dataclass(frozen=True)
class PlanGlance:
    """What the home shows of a plan, in minor units: plan_state's guide, safe_left and warning."""

    guide: pm.DailyGuide
    safe_left: int
    warning: str


@dataclass(frozen=True)
class PlanSummary:
    """A user's active plan for their month as of their today, in the plan's currency (Decimal)."""

    plan_id: int
    currency: str
    safe_left: Decimal  # the safe-to-spend allocation less the discretionary spent so far, never below zero
    guide: Decimal  # today's daily guide
    warning: str
    streak: int


def plan_allocations(plan: MonthlyPlan) -> pm.Allocations:
    c = plan.currency
    return pm.Allocations(
        fixed=to_minor(plan.alloc_fixed, c),
        essential=to_minor(plan.alloc_essential, c),
        goal=to_minor(plan.alloc_goal, c),
        safe=to_minor(plan.alloc_safe, c),
    )


def plan_goal_need(plan: MonthlyPlan, *, goal_entries: int) -> int | None:
    """What the primary goal still needed when this plan's contributions began: the goal's remaining amount
    plus what this plan already added to it (goal entries raise the goal's current amount)."""
    goal = plan.primary_goal
    if goal is None:
        return None
    remaining = to_minor(max(goal.target_amount - goal.current_amount, Decimal(0)), plan.currency)
    return remaining + goal_entries


def fixed_categories(plan: MonthlyPlan) -> set[str]:
    """The categories of the plan's fixed expenses: a column of the plan's row when the forecast read it
    (plans/forecast_plan.py), else its fixed lines as every other read prefetches them."""
    if hasattr(plan, "fixed_categories"):
        return set(plan.fixed_categories)
    return {line.category for line in plan.fixed_expenses.all()}


def month_so_far(plan: MonthlyPlan, ledger: Ledger, today: dt.date) -> MonthSoFar:
    allocations = plan_allocations(plan)
    actuals = pm.bucket_actuals(
        expenses_by_category=ledger.expenses_by_category,
        fixed_categories=fixed_categories(plan),
        essential_categories=categories.ESSENTIAL,
        discretionary_categories=categories.DISCRETIONARY,
        goal_entries=ledger.goal_entries,
    )
    by_day = dict(ledger.discretionary_by_day)
    return MonthSoFar(
        allocations=allocations,
        actuals=actuals,
        discretionary_by_day=by_day,
        guide=pm.daily_guide(safe=allocations.safe, first=plan.month, today=today, discretionary_by_day=by_day),
        warning=pm.warning_state(allocations=allocations, actuals=actuals, first=plan.month, today=today),
    )


def _streak(plan: MonthlyPlan, so_far: MonthSoFar, today: dt.date) -> int:
    return pm.streak(
        safe=so_far.allocations.safe,
        first=plan.month,
        activated_on=plan.activated_on,
        today=today,
        discretionary_by_day=so_far.discretionary_by_day,
    )


def state_of(plan: MonthlyPlan, *, today: dt.date, ledger: Ledger, answered_states: list[str]) -> PlanState:
    """The whole state: plan_glance's figures, the streak and, for an active plan in its month, the
    recommendation (`answered_states`: the warning states the plan's accepted rebalances answered)."""
    so_far = month_so_far(plan, ledger, today)
    recommendation = None
    if plan.status == MonthlyPlan.Status.ACTIVE and today <= pm.month_last(plan.month):
        need = plan_goal_need(plan, goal_entries=ledger.goal_entries)
        recommendation = pm.recommend(
            allocations=so_far.allocations,
            actuals=so_far.actuals,
            first=plan.month,
            today=today,
            discretionary_by_day=so_far.discretionary_by_day,
            answered_states=answered_states,
            goal_room=None if need is None else need - so_far.allocations.goal,
        )
    return PlanState(
        plan=plan,
        today=today,
        allocations=so_far.allocations,
        actuals=so_far.actuals,
        guide=so_far.guide,
        warning=so_far.warning,
        dismissed=bool(plan.dismissed_warning) and plan.dismissed_warning == so_far.warning,
        streak=_streak(plan, so_far, today),
        recommendation=recommendation,
        discretionary_by_day=so_far.discretionary_by_day,
        converted=ledger.converted,
        rate_missing=ledger.rate_missing,
    )


def glance_of(plan: MonthlyPlan, *, today: dt.date, ledger: Ledger) -> PlanGlance:
    """Today's guide, the safe-to-spend left and the warning, as state_of gives them, without the
    recommendation and the streak the home does not show."""
    so_far = month_so_far(plan, ledger, today)
    return PlanGlance(guide=so_far.guide, safe_left=so_far.safe_left, warning=so_far.warning)


def summary_of(plan: MonthlyPlan, *, today: dt.date, ledger: Ledger) -> PlanSummary:
    """What the nightly and weekly jobs say of a user's plan, in the plan's currency."""
    so_far, c = month_so_far(plan, ledger, today), plan.currency
    return PlanSummary(
        plan_id=plan.id,
        currency=c,
        safe_left=from_minor(max(0, so_far.safe_left), c),
        guide=from_minor(so_far.guide.guide, c),
        warning=so_far.warning,
        streak=_streak(plan, so_far, today),
    )
