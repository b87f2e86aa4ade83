"""Reading a plan's inputs as the services take them: each bad value is a ValidationFailed naming its field."""

import datetime as dt
import re

from assets import categories
from goals.models import Goal
from goals.selectors import goal_get
from plans.models import FixedExpense, MonthlyPlan
from zeus.errors import NotFound, ValidationFailed
from zeus.money import parse_money

MAX_FIXED_EXPENSES = 50
_MONTH_RE = re.compile(r"^(\d{4})-(\d{2})$")
_TIME_RE = re.compile(r"^(\d{2}):(\d{2})$")


def parse_month(value) -> dt.date:
    """`YYYY-MM` → the month's first day."""
    match = _MONTH_RE.match(value.strip()) if isinstance(value, str) else None
    if match and 2000 <= int(match[1]) <= 2100 and 1 <= int(match[2]) <= 12:
        return dt.date(int(match[1]), int(match[2]), 1)
    raise ValidationFailed(
        "month must be a month as YYYY-MM, such as 2026-11.", code="INVALID_MONTH", fields={"month": ["Use YYYY-MM."]}
    )


def parse_reminder_time(value) -> dt.time:
    if isinstance(value, dt.time):
        return value.replace(second=0, microsecond=0)
    match = _TIME_RE.match(value.strip()) if isinstance(value, str) else None
    if match and int(match[1]) < 24 and int(match[2]) < 60:
        return dt.time(int(match[1]), int(match[2]))
    raise ValidationFailed(
        "reminder_time must be a local time as HH:MM.", fields={"reminder_time": ["Use HH:MM, such as 20:00."]}
    )


def parse_bool(value, field: str) -> bool:
    if not isinstance(value, bool):
        raise ValidationFailed(f"{field} must be true or false.", fields={field: ["Must be true or false."]})
    return value


def parse_mode(value) -> str:
    if value not in MonthlyPlan.Mode.values:
        raise ValidationFailed(
            "lifestyle_mode must be saver, balanced or relaxed.", fields={"lifestyle_mode": ["Not a mode."]}
        )
    return value


def parse_fixed_lines(value, currency: str) -> list[FixedExpense]:
    if not isinstance(value, list | tuple):
        raise ValidationFailed("fixed_expenses must be a list.", fields={"fixed_expenses": ["Must be a list."]})
    if len(value) > MAX_FIXED_EXPENSES:
        raise ValidationFailed(
            f"At most {MAX_FIXED_EXPENSES} fixed expenses.", fields={"fixed_expenses": ["Too many lines."]}
        )
    lines = []
    for index, item in enumerate(value):
        prefix = f"fixed_expenses[{index}]"
        if not isinstance(item, dict):
            raise ValidationFailed(f"{prefix} must be an object.", fields={prefix: ["Must be an object."]})
        name = item.get("name")
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > 100:
            raise ValidationFailed(
                f"{prefix}.name is required (at most 100 characters).", fields={f"{prefix}.name": ["Required."]}
            )
        category = item.get("category")
        if category not in categories.EXPENSE:
            raise ValidationFailed(
                f"{prefix}.category must be an expense category.",
                fields={f"{prefix}.category": ["Not an expense category."]},
            )
        amount = parse_money(item.get("amount"), currency, field=f"{prefix}.amount")
        lines.append(FixedExpense(name=" ".join(name.split()), amount=amount, category=category, position=index))
    return lines


def parse_primary_goal(user, goal_id, currency: str) -> Goal | None:
    """Another user's goal answers 400 naming the field (the plan is the resource addressed, not the goal)."""
    if goal_id in (None, ""):
        return None
    try:
        goal = goal_get(user=user, goal_id=goal_id)
    except NotFound:
        raise ValidationFailed(
            "primary_goal_id is not one of your goals.",
            code="INVALID_GOAL",
            fields={"primary_goal_id": ["No such goal."]},
        ) from None
    if goal.currency != currency:
        raise ValidationFailed(
            f"The primary goal is in {goal.currency}; this plan is in {currency}.",
            code="INVALID_GOAL",
            fields={"primary_goal_id": ["Currency differs from the plan's."]},
        )
    return goal
