"""The goals app's panels on the home page (zeus/panels.py): budgets with their bars, goals with progress."""

from django.utils.translation import gettext as _

from goals.pages import budget_rows, goal_rows
from goals.selectors import budget_statuses, goal_list

SHOWN = 5


def budgets_panel(request, today) -> dict:
    rows = budget_rows(budget_statuses(user=request.user, month=(today.year, today.month)))
    return {
        "rows": rows[:SHOWN],
        "more": max(0, len(rows) - SHOWN),
        "prompt": _("How are my budgets doing this month?"),
    }


def goals_panel(request, today) -> dict:
    rows = goal_rows(goal_list(user=request.user, status="active")[: SHOWN + 1], today=today)
    return {"rows": rows[:SHOWN], "more": len(rows) > SHOWN, "prompt": _("Am I on track for my goals?")}
