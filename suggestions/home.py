"""The suggestions app's panels on the home page (zeus/panels.py): the recent insights, each into the chat, and
the bills coming up."""

from django.utils.translation import gettext as _

from assets import labels
from plans.home import current_plan
from suggestions.selectors import home_insights_query, home_recurring_due_query

SHOWN = 5
# How far ahead the home looks for a recurring charge.
BILLS_WITHIN_DAYS = 30


def insights_panel(request, today) -> dict:
    return {
        "insights": list(home_insights_query(user=request.user, limit=SHOWN)),
        "prompt": _("What should I look at in my finances?"),
    }


def bills_panel(request, today) -> dict:
    """What goes out next: the detected bills and subscriptions due within a month, soonest first. A user whose
    history shows no series yet sees the fixed expenses named in this month's plan instead."""
    due = home_recurring_due_query(user=request.user, today=today, within_days=BILLS_WITHIN_DAYS, limit=SHOWN * 2)
    series = [s for s in due if s.kind != "income"][:SHOWN]
    bills = [
        {
            "name": s.merchant,
            "amount": s.amount,
            "currency": s.currency,
            "next_on": s.next_on,
            "category": labels.category_label(s.category),
        }
        for s in series
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
