"""The suggestions app's panels on the home page (zeus/panels.py): the recent insights, each into the chat, and
the bills coming up."""

import datetime as dt

from django.utils.translation import gettext as _

from assets import labels
from plans.home import current_plan, upcoming_series
from suggestions.selectors import home_insights
from zeus.panels import shared

SHOWN = 5
# How far ahead the home looks for a recurring charge.
BILLS_WITHIN_DAYS = 30


def _insights(request, today) -> list:
    return shared(request, "suggestions.home_insights", lambda: home_insights(user=request.user, limit=SHOWN))


def insights_panel(request, today) -> dict:
    return {
        "insights": _insights(request, today),
        "prompt": _("What should I look at in my finances?"),
    }


def bills_panel(request, today) -> dict:
    """What goes out next: the detected bills and subscriptions due within a month, soonest first. A user whose
    history shows no series yet sees the fixed expenses named in this month's plan instead. The series are the
    forecast's read (plans.home.upcoming_series), so the page reads them once."""
    until = today + dt.timedelta(days=BILLS_WITHIN_DAYS)
    series = [s for s in upcoming_series(request, today) if today <= s.next_on <= until and s.kind != "income"]
    bills = [
        {
            "name": s.name,
            "amount": s.amount,
            "currency": s.currency,
            "next_on": s.next_on,
            "category": labels.category_label(s.category),
        }
        for s in series[:SHOWN]
    ]
    if not bills:
        plan = current_plan(request, today)
        for b in plan.fixed_expenses.all() if plan else []:
            bills.append(
                {
                    "name": b.name,
                    "amount": b.amount,
                    "currency": plan.currency,
                    "next_on": None,
                    "category": labels.category_label(b.category),
                }
            )
    return {"bills": bills, "from_plan": not series, "prompt": _("Which bills are coming up this month?")}
