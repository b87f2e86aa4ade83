"""Reading a plan's inputs as the services take them: each bad value is a ValidationFailed naming its field."""

import datetime as dt
import re

from django.utils.translation import gettext as _

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
        _("month must be a month as YYYY-MM, such as 2026-11."),
        code="INVALID_MONTH",
        fields={"month": [_("Use YYYY-MM.")]},
    )


def parse_reminder_time(value) -> dt.time:
    if isinstance(value, dt.time):
        return value.replace(second=0, microsecond=0)
    match = _TIME_RE.match(value.strip()) if isinstance(value, str) else None
    if match and int(match[1]) < 24 and int(match[2]) < 60:
        return dt.time(int(match[1]), int(match[2]))
    raise ValidationFailed(
        _("reminder_time must be a local time as HH:MM."), fields={"reminder_time": [_("Use HH:MM, such as 20:00.")]}
    )


def parse_bool(value, field: str) -> bool:
    if not isinstance(value, bool):
        raise ValidationFailed(
            _("%(field)s must be true or false.") % {"field": field}, fields={field: [_("Must be true or false.")]}
        )
    return value


def parse_mode(value) -> str:
    if value not in MonthlyPlan.Mode.values:
        raise ValidationFailed(
            _("lifestyle_mode must be saver, balanced or relaxed."), fields={"lifestyle_mode": [_("Not a mode.")]}
        )
    return value


def parse_fixed_lines(value, currency: str) -> list[FixedExpense]:
    if not isinstance(value, list | tuple):
        raise ValidationFailed(_("fixed_expenses must be a list."), fields={"fixed_expenses": [_("Must be a list.")]})
    if len(value) > MAX_FIXED_EXPENSES:
        raise ValidationFailed(
            _("At most %(max_fixed_expenses)s fixed expenses.") % {"max_fixed_expenses": MAX_FIXED_EXPENSES},
            fields={"fixed_expenses": [_("Too many lines.")]},
        )
    lines = []
    for index, item in enumerate(value):
        prefix = f"fixed_expenses[{index}]"
        if not isinstance(item, dict):
            raise ValidationFailed(
                _("%(prefix)s must be an object.") % {"prefix": prefix}, fields={prefix: [_("Must be an object.")]}
            )
        name = item.get("name")
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > 100:
            raise ValidationFailed(
                _("%(prefix)s.name is required (at most 100 characters).") % {"prefix": prefix},
                fields={f"{prefix}.name": [_("Required.")]},
            )
        category = item.get("category")
        if category not in categories.EXPENSE:
            raise ValidationFailed(
                _("%(prefix)s.category must be an expense category.") % {"prefix": prefix},
                fields={f"{prefix}.category": [_("Not an expense category.")]},
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
            _("primary_goal_id is not one of your goals."),
            code="INVALID_GOAL",
            fields={"primary_goal_id": [_("No such goal.")]},
        ) from None
    if goal.currency != currency:
        raise ValidationFailed(
            _("The primary goal is in %(goal_currency)s; this plan is in %(currency)s.")
            % {
                "goal_currency": goal.currency,
                "currency": currency,
            },
            code="INVALID_GOAL",
            fields={"primary_goal_id": [_("Currency differs from the plan's.")]},
        )
    return goal
