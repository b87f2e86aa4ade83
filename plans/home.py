"""The plan's panels on the home page (zeus/panels.py): safe to spend today, and the month's bills."""

from django.db.models import prefetch_related_objects
from django.utils.translation import gettext as _

from assets import labels
from plans.pages import WARNING_TEXT
from plans.selectors import plan_current, plan_ledgers, plan_state
from zeus.money import from_minor
from zeus.panels import shared


def _current(request, today):
    def read():
        plan = plan_current(user=request.user, today=today)
        if plan is None or plan.status != "active":
            return None
        prefetch_related_objects([plan], "fixed_expenses")  # the plan's arithmetic and the bills panel
        return plan

    return shared(request, ("plans.current", today), read)


def safe_to_spend_panel(request, today) -> dict:
    plan = _current(request, today)
    if plan is None:
        return {"plan": None, "prompt": _("Help me make a plan for this month")}
    state = plan_state(plan, today=today, ledger=plan_ledgers([plan])[plan.id])
    c = plan.currency
    return {
        "plan": plan,
        "currency": c,
        "left_today": from_minor(state.guide.left_today, c),
        "guide": from_minor(state.guide.guide, c),
        "safe_left": from_minor(state.safe_left, c),
        "days_left": state.guide.days_left,
        "warning": state.warning,
        "warning_text": WARNING_TEXT.get(state.warning, ""),
        "prompt": _("What can I spend today?"),
    }


def bills_panel(request, today) -> dict:
    """The fixed expenses of this month's plan: the bills the person named. The recurring series the ledger
    shows (suggestions) can join them here once they are read through a selector of their own."""
    plan = _current(request, today)
    bills = list(plan.fixed_expenses.all()) if plan else []
    return {
        "currency": plan.currency if plan else None,
        "bills": [{"name": b.name, "amount": b.amount, "category": labels.category_label(b.category)} for b in bills],
        "prompt": _("Which bills are coming up this month?"),
    }
