"""The plan's panel on the home page (zeus/panels.py): safe to spend today."""

from django.utils.translation import gettext as _

from assets.home import this_month_days
from plans.forecast_plan import forecast_facts
from plans.forecast_read import WINDOW, ActivePlan
from plans.forecast_sources import Series, series_of
from plans.pages import WARNING_TEXT
from plans.selectors import plan_current, plan_glance, plan_ledger, plan_ledger_of
from zeus.money import from_minor
from zeus.panels import shared
from zeus.selectors import user_currency


def current_plan(request, today):
    """This month's active plan, read once per request whichever panel asks first."""

    def read():
        # With its fixed expenses attached: the plan's arithmetic and the bills panel (suggestions) read them; and
        # with the user's cushion and whether they owe on an open debt, which the forecast reads from the plan's
        # row instead of two queries of its own (a user who owes nothing has no debts read).
        plan = plan_current(user=request.user, today=today, annotations=forecast_facts())
        return plan if plan is not None and plan.status == "active" else None

    return shared(request, ("plans.current", today), read)


def current_active_plan(request, today) -> ActivePlan:
    """The active plan with its ledger, read once per request for the safe-to-spend panel and the forecast."""

    def read():
        plan = current_plan(request, today)
        if plan is None:
            return ActivePlan(plan=None, ledger=None)
        if plan.currency != user_currency(request.user):
            return ActivePlan(plan=plan, ledger=plan_ledger(plan))
        # This month in the plan's currency is in the ledger summary the net worth panel reads: no second read.
        return ActivePlan(plan=plan, ledger=plan_ledger_of(plan, read=this_month_days(request, plan.currency, today)))

    return shared(request, ("plans.active", today), read)


def upcoming_series(request, today) -> list[Series]:
    """The recurring series due by the forecast's window (soonest first, transfers between one's own accounts
    left out), read once per request for the forecast and the bills panel (suggestions/home.py)."""
    return shared(
        request,
        ("plans.series", today),
        lambda: series_of(user_ids=[request.user.pk], until=today + WINDOW)[request.user.pk],
    )


def safe_to_spend_panel(request, today) -> dict:
    active = current_active_plan(request, today)
    plan = active.plan
    if plan is None:
        return {"plan": None, "prompt": _("Help me make a plan for this month")}
    state = plan_glance(plan, today=today, ledger=active.ledger)
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
