"""The plan arithmetic of docs/contract/plans.md, pure: no ORM, no clock, no Decimal.

Every amount is a whole number of minor units (đồng, cents) in the plan's currency; callers convert at the
edges with zeus.money.to_minor / from_minor. Dates come in as arguments ("today" is the user's today).
docs/plans.md explains each rule and every reading of an ambiguous contract line.
"""

import calendar
import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

SAVER, BALANCED, RELAXED = "saver", "balanced", "relaxed"
# Shares of the flexible money (income - fixed) in percent: essential, goal, safe-to-spend.
MODE_SHARES = {SAVER: (50, 30, 20), BALANCED: (50, 20, 30), RELAXED: (50, 10, 40)}

ON_TRACK, SPEND_PACE, OVERSPENT, GOAL_DRIFT = "on_track", "spend_pace", "overspent", "goal_drift"
WARNING_STATES = (ON_TRACK, SPEND_PACE, OVERSPENT, GOAL_DRIFT)
COVER_OVERSPEND, TIGHTEN_SPENDING, BOOST_GOAL = "cover_overspend", "tighten_spending", "boost_goal"
OVER_BUDGET, UNDER_BUDGET, ON_BUDGET = "over_budget", "under_budget", "on_budget"
LOWER_SPENDING, KEEP_GOING = "lower_spending", "keep_going"


class PlanMathError(ValueError):
    """Inputs the arithmetic cannot honour; the services turn it into a 400 naming `field`."""

    def __init__(self, message: str, *, field: str):
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Allocations:
    fixed: int
    essential: int
    goal: int
    safe: int

    @property
    def total(self) -> int:
        return self.fixed + self.essential + self.goal + self.safe


@dataclass(frozen=True)
class Actuals:
    fixed: int
    essential: int
    discretionary: int
    goal: int


@dataclass(frozen=True)
class DailyGuide:
    days_left: int
    guide: int
    spent_today: int
    left_today: int


@dataclass(frozen=True)
class Recommendation:
    kind: str
    amount: int
    daily_guide: int  # the guide for today once the recommendation is applied
    warning_state: str  # the state it answers; one accepted rebalance per state


@dataclass(frozen=True)
class MonthEndSummary:
    planned: Allocations
    actual: Actuals
    days_on_track: int
    days_tracked: int
    final_streak: int
    result: str
    suggestion_kind: str
    suggestion_amount: int


# Calendar


def month_first(day: dt.date) -> dt.date:
    return day.replace(day=1)


def days_in_month(first: dt.date) -> int:
    return calendar.monthrange(first.year, first.month)[1]


def month_last(first: dt.date) -> dt.date:
    return first.replace(day=days_in_month(first))


def elapsed_day(first: dt.date, today: dt.date) -> int:
    """Today's day of the plan's month: 0 before the month starts, the month's length after it ends."""
    if today < first:
        return 0
    if today > month_last(first):
        return days_in_month(first)
    return today.day


# Allocations


def split_largest_remainder(total: int, weights: Sequence[int]) -> list[int]:
    """Splits `total` units in proportion to `weights`: floors each share, then hands the leftover units one
    by one to the largest fractional parts, ties to the earlier weight. The parts sum to `total` exactly."""
    if total < 0:
        raise ValueError("total must not be negative")
    weight_sum = sum(weights)
    if weight_sum <= 0:
        raise ValueError("weights must add up to more than zero")
    floors = [total * w // weight_sum for w in weights]
    remainders = [total * w % weight_sum for w in weights]
    leftover = total - sum(floors)
    for index in sorted(range(len(weights)), key=lambda i: (-remainders[i], i))[:leftover]:
        floors[index] += 1
    return floors


def allocate(
    *,
    income: int,
    fixed: int,
    mode: str,
    essential_override: int | None = None,
    goal_need: int | None = None,
) -> Allocations:
    """fixed + essential + goal + safe == income.

    `essential_override` takes that much of the flexible money for essentials and splits the rest in the
    mode's goal : safe ratio. `goal_need` (with a primary goal: what the goal still needs) caps the goal
    contribution; the excess goes to safe-to-spend.
    """
    if mode not in MODE_SHARES:
        raise PlanMathError(f"lifestyle_mode must be one of {', '.join(MODE_SHARES)}.", field="lifestyle_mode")
    if income < 0 or fixed < 0:
        raise PlanMathError("Amounts must not be negative.", field="expected_income")
    flexible = income - fixed
    if flexible < 0:
        raise PlanMathError("Fixed expenses are above the expected income.", field="fixed_expenses")
    essential_share, goal_share, safe_share = MODE_SHARES[mode]
    if essential_override is None:
        essential, goal, safe = split_largest_remainder(flexible, (essential_share, goal_share, safe_share))
    else:
        if essential_override < 0 or essential_override > flexible:
            raise PlanMathError(
                "essential_spending must be between 0 and income minus fixed expenses.", field="essential_spending"
            )
        essential = essential_override
        goal, safe = split_largest_remainder(flexible - essential, (goal_share, safe_share))
    if goal_need is not None and goal > max(goal_need, 0):
        safe += goal - max(goal_need, 0)
        goal = max(goal_need, 0)
    return Allocations(fixed=fixed, essential=essential, goal=goal, safe=safe)


# Actuals


def bucket_actuals(
    *,
    expenses_by_category: Mapping[str, int],
    fixed_categories: Iterable[str],
    essential_categories: Iterable[str],
    discretionary_categories: Iterable[str],
    goal_entries: int = 0,
) -> Actuals:
    """A category named by a fixed expense line counts as fixed, whatever its kind; income categories never
    reach here (expenses only)."""
    fixed_set = set(fixed_categories)
    essential_set = set(essential_categories) - fixed_set
    discretionary_set = set(discretionary_categories) - fixed_set
    return Actuals(
        fixed=sum(v for c, v in expenses_by_category.items() if c in fixed_set),
        essential=sum(v for c, v in expenses_by_category.items() if c in essential_set),
        discretionary=sum(v for c, v in expenses_by_category.items() if c in discretionary_set),
        goal=goal_entries,
    )


# Daily guide


def _spent_before(discretionary_by_day: Mapping[dt.date, int], first: dt.date, day: dt.date) -> int:
    return sum(v for d, v in discretionary_by_day.items() if first <= d < day)


def guide_for_day(*, safe: int, first: dt.date, day: dt.date, discretionary_by_day: Mapping[dt.date, int]) -> int:
    """floor(max(0, safe - discretionary spent before `day`) / days left from `day` to the month's end)."""
    days_left = (month_last(first) - day).days + 1
    if days_left <= 0:
        return 0
    return max(0, safe - _spent_before(discretionary_by_day, first, day)) // days_left


def daily_guide(
    *, safe: int, first: dt.date, today: dt.date, discretionary_by_day: Mapping[dt.date, int]
) -> DailyGuide:
    """Before the month starts the guide is the one for its first day; after it ends everything is 0."""
    last = month_last(first)
    if today > last:
        return DailyGuide(days_left=0, guide=0, spent_today=0, left_today=0)
    day = max(today, first)
    guide = guide_for_day(safe=safe, first=first, day=day, discretionary_by_day=discretionary_by_day)
    spent_today = discretionary_by_day.get(today, 0) if today >= first else 0
    return DailyGuide(
        days_left=(last - day).days + 1, guide=guide, spent_today=spent_today, left_today=guide - spent_today
    )


# Warning


def warning_state(*, allocations: Allocations, actuals: Actuals, first: dt.date, today: dt.date) -> str:
    """The first that holds: overspent, spend_pace, goal_drift, on_track. Compared in integers:
    `d > 1.10 * safe * day / n` is `100*d*n > 110*safe*day`."""
    safe, spent, n = allocations.safe, actuals.discretionary, days_in_month(first)
    day = elapsed_day(first, today)
    if spent > safe:
        return OVERSPENT
    if day >= 3 and 100 * spent * n > 110 * safe * day:
        return SPEND_PACE
    if day >= 7 and 100 * actuals.goal * n < 80 * allocations.goal * day:
        return GOAL_DRIFT
    return ON_TRACK


# Rebalance


def recommend(
    *,
    allocations: Allocations,
    actuals: Actuals,
    first: dt.date,
    today: dt.date,
    discretionary_by_day: Mapping[dt.date, int],
    answered_states: Iterable[str] = (),
    goal_room: int | None = None,
) -> Recommendation | None:
    """The rebalance for the current warning state, or None (goal_drift, nothing to move, or the state was
    already answered by an accepted rebalance). `goal_room` (with a primary goal: what it still needs beyond
    the planned contribution) caps a boost."""
    state = warning_state(allocations=allocations, actuals=actuals, first=first, today=today)
    if state in set(answered_states):
        return None
    safe, spent, n = allocations.safe, actuals.discretionary, days_in_month(first)
    day = elapsed_day(first, today)
    goal_money_left = max(0, allocations.goal - actuals.goal)
    if state == OVERSPENT and goal_money_left > 0:
        kind, amount = COVER_OVERSPEND, min(spent - safe, goal_money_left)
    elif state in (OVERSPENT, SPEND_PACE):
        kind, amount = TIGHTEN_SPENDING, 0
    elif state == ON_TRACK and day >= 10 and 100 * spent * n < 80 * safe * day:
        # floor((safe - spent * n / day) / 2), exactly, in integers.
        kind, amount = BOOST_GOAL, (safe * day - spent * n) // (2 * day)
        if goal_room is not None:
            amount = min(amount, max(goal_room, 0))
        if amount <= 0:
            return None
    else:
        return None
    after = apply_move(allocations, kind, amount)
    guide = daily_guide(safe=after.safe, first=first, today=today, discretionary_by_day=discretionary_by_day).guide
    return Recommendation(kind=kind, amount=amount, daily_guide=guide, warning_state=state)


def apply_move(allocations: Allocations, kind: str, amount: int) -> Allocations:
    """Moves money between goal and safe-to-spend; the total never changes."""
    if amount < 0:
        raise ValueError("a rebalance moves a positive amount")
    if kind == COVER_OVERSPEND:
        if amount > allocations.goal:
            raise ValueError("cannot move more than the goal contribution")
        return replace(allocations, goal=allocations.goal - amount, safe=allocations.safe + amount)
    if kind == BOOST_GOAL:
        if amount > allocations.safe:
            raise ValueError("cannot move more than the safe-to-spend")
        return replace(allocations, goal=allocations.goal + amount, safe=allocations.safe - amount)
    if kind == TIGHTEN_SPENDING:
        return allocations
    raise ValueError(f"unknown rebalance kind {kind!r}")


# Streak


def _days_on_track(
    *, safe: int, first: dt.date, start: dt.date, end: dt.date, discretionary_by_day: Mapping[dt.date, int]
) -> list[bool]:
    """For each day from start to end inclusive: was that day's spend within that day's guide?"""
    out = []
    spent_before = _spent_before(discretionary_by_day, first, start)
    last = month_last(first)
    day = start
    while day <= end:
        days_left = (last - day).days + 1
        guide = max(0, safe - spent_before) // days_left
        spent = discretionary_by_day.get(day, 0)
        out.append(spent <= guide)
        spent_before += spent
        day += dt.timedelta(days=1)
    return out


def _tracked_span(first: dt.date, activated_on: dt.date | None, today: dt.date) -> tuple[dt.date, dt.date] | None:
    if activated_on is None:
        return None
    start = max(first, activated_on)
    end = min(today - dt.timedelta(days=1), month_last(first))
    return (start, end) if start <= end else None


def streak(
    *,
    safe: int,
    first: dt.date,
    activated_on: dt.date | None,
    today: dt.date,
    discretionary_by_day: Mapping[dt.date, int],
) -> int:
    """Consecutive days ending yesterday, from the later of the month's first day and the activation day,
    on which the day's discretionary spend was within the day's guide."""
    span = _tracked_span(first, activated_on, today)
    if span is None:
        return 0
    flags = _days_on_track(
        safe=safe, first=first, start=span[0], end=span[1], discretionary_by_day=discretionary_by_day
    )
    count = 0
    for ok in reversed(flags):
        if not ok:
            break
        count += 1
    return count


# Month end


def budget_result(*, safe: int, discretionary: int) -> str:
    if discretionary > safe:
        return OVER_BUDGET
    if 100 * discretionary < 95 * safe:
        return UNDER_BUDGET
    return ON_BUDGET


def month_end_summary(
    *,
    allocations: Allocations,
    actuals: Actuals,
    first: dt.date,
    activated_on: dt.date | None,
    discretionary_by_day: Mapping[dt.date, int],
) -> MonthEndSummary:
    """Planned vs actual, days on track over the tracked days, the final streak (as of the day after the
    month's last), the result and one suggestion for next month with the amount it is about."""
    after_end = month_last(first) + dt.timedelta(days=1)
    span = _tracked_span(first, activated_on, after_end)
    flags = (
        _days_on_track(
            safe=allocations.safe, first=first, start=span[0], end=span[1], discretionary_by_day=discretionary_by_day
        )
        if span
        else []
    )
    final = streak(
        safe=allocations.safe,
        first=first,
        activated_on=activated_on,
        today=after_end,
        discretionary_by_day=discretionary_by_day,
    )
    result = budget_result(safe=allocations.safe, discretionary=actuals.discretionary)
    if result == OVER_BUDGET:
        kind, amount = LOWER_SPENDING, actuals.discretionary - allocations.safe
    elif result == UNDER_BUDGET:
        kind, amount = BOOST_GOAL, allocations.safe - actuals.discretionary
    else:
        kind, amount = KEEP_GOING, 0
    return MonthEndSummary(
        planned=allocations,
        actual=actuals,
        days_on_track=sum(flags),
        days_tracked=len(flags),
        final_streak=final,
        result=result,
        suggestion_kind=kind,
        suggestion_amount=amount,
    )
