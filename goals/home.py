"""The goals app's panels on the home page (zeus/panels.py): budgets with their bars, goals with progress."""

from django.utils.translation import gettext as _

from assets.home import spending_by_category
from goals.pages import budget_rows, goal_rows
from goals.selectors import budget_statuses, home_budgets, home_goals
from zeus.selectors import user_currency

SHOWN = 5


def budgets_panel(request, today) -> dict:
    currency = user_currency(request.user)
    this_month = {code: now for code, (now, _before) in spending_by_category(request, currency, today).items()}
    statuses = budget_statuses(
        user=request.user, budgets=home_budgets(user=request.user), month=(today.year, today.month),
        spent={currency: this_month},
    )  # fmt: skip
    rows = budget_rows(statuses)
    return {
        "rows": rows[:SHOWN],
        "more": max(0, len(rows) - SHOWN),
        "prompt": _("How are my budgets doing this month?"),
    }


def goals_panel(request, today) -> dict:
    rows = goal_rows(home_goals(user=request.user, limit=SHOWN + 1), today=today)
    return {"rows": rows[:SHOWN], "more": len(rows) > SHOWN, "prompt": _("Am I on track for my goals?")}
