"""/plans: the current plan drawn as bars, a form to create and activate a plan, and past months."""

from decimal import Decimal

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.formats import date_format
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from assets.selectors import spending_accounts
from goals.selectors import goal_list, goal_progress_of
from plans import math as pm
from plans import services
from plans.forms import EntryForm, FixedExpenseFormSet, PlanEditForm, PlanForm
from plans.messages import refusal_text
from plans.models import MonthlyPlan
from plans.presenters import bills_outlook
from plans.recurring import bills_still_due, suggested_fixed_expenses
from plans.selectors import plan_current, plan_list, plan_revisions, plan_state
from zeus.errors import ZeusError
from zeus.forms import add_service_error, page_paths, service_action
from zeus.money import format_amount, from_minor
from zeus.selectors import user_currency
from zeus.timeutil import user_today


def _pct(part: int, whole: int) -> int:
    if whole <= 0:
        return 100 if part > 0 else 0
    return max(0, min(100, round(100 * part / whole)))


def _bars(state) -> dict:
    c = state.plan.currency

    def money(units: int) -> str:
        return format_amount(from_minor(units, c), c, locale=get_language())

    safe, spent = state.allocations.safe, state.actuals.discretionary
    goal_planned, goal_done = state.allocations.goal, state.actuals.goal
    guide = state.guide
    elapsed = max(0, (state.today - max(state.plan.month, state.plan.activated_on or state.plan.month)).days)
    rows = [
        {
            "key": "safe",
            "label": _("%(left)s left of %(safe)s safe-to-spend") % {"left": money(safe - spent), "safe": money(safe)},
            "pct": _pct(spent, safe),
            "over": spent > safe,
        },
        {
            "key": "guide",
            "label": ngettext(
                "Today: %(spent)s spent of a %(guide)s guide (%(days)d day left)",
                "Today: %(spent)s spent of a %(guide)s guide (%(days)d days left)",
                guide.days_left,
            )
            % {"spent": money(guide.spent_today), "guide": money(guide.guide), "days": guide.days_left},
            "pct": _pct(guide.spent_today, guide.guide),
            "over": guide.left_today < 0,
        },
        {
            "key": "goal",
            "label": _("%(done)s put towards the goal of %(planned)s planned")
            % {"done": money(goal_done), "planned": money(goal_planned)},
            "pct": _pct(goal_done, goal_planned),
            "over": False,
        },
        {
            "key": "streak",
            "label": ngettext(
                "%(days)d day in a row within the guide", "%(days)d days in a row within the guide", state.streak
            )
            % {"days": state.streak},
            "pct": _pct(state.streak, elapsed),
            "over": False,
        },
    ]
    rec = state.recommendation
    return {
        "rows": rows,
        "recommendation_amount": money(rec.amount) if rec else "",
        "recommendation_guide": money(rec.daily_guide) if rec else "",
    }


WARNING_TEXT = {
    "on_track": gettext_lazy("On track."),
    "spend_pace": gettext_lazy("You are spending faster than the month allows."),
    "overspent": gettext_lazy("You have spent more than this month's safe-to-spend."),
    "goal_drift": gettext_lazy("Your goal contributions are behind pace."),
}


RESULT_TEXT = {
    "over_budget": gettext_lazy("Over budget"),
    "under_budget": gettext_lazy("Under budget"),
    "on_budget": gettext_lazy("On budget"),
}
RECOMMENDATION_TEXT = {
    "cover_overspend": gettext_lazy("Cover the overspend from your goal money"),
    "tighten_spending": gettext_lazy("Tighten spending"),
    "boost_goal": gettext_lazy("Boost your goal"),
}
STATUS_TEXT = {
    "draft": gettext_lazy("Draft"),
    "active": gettext_lazy("Active"),
    "completed": gettext_lazy("Completed"),
}
MODE_TEXT = {
    "saver": gettext_lazy("Saver"),
    "balanced": gettext_lazy("Balanced"),
    "relaxed": gettext_lazy("Relaxed"),
}


def _past(plan: MonthlyPlan) -> dict:
    """A completed plan's summary with its amounts formatted for people."""
    summary, c = plan.summary or {}, plan.currency

    def money(section: str, key: str) -> str:
        value = (summary.get(section) or {}).get(key)
        return format_amount(Decimal(value), c, locale=get_language()) if value is not None else "—"

    return {
        "plan": plan,
        "result": RESULT_TEXT.get(summary.get("result"), _("No summary")),
        "rows": [
            (_("Fixed"), money("planned", "fixed"), money("actual", "fixed")),
            (_("Essential"), money("planned", "essential"), money("actual", "essential")),
            (_("Safe to spend / discretionary"), money("planned", "safe_to_spend"), money("actual", "discretionary")),
            (_("Goal"), money("goal", "planned"), money("goal", "contributed")),
        ],
        "summary": summary,
    }


def _edit_forms(current: MonthlyPlan, goals: list, data=None) -> tuple[PlanEditForm, FixedExpenseFormSet]:
    """The current plan's inputs, as a form and its fixed-expense lines (prefixed apart from the new plan's)."""
    lines = [
        {"name": x.name, "amount": f"{x.amount.normalize():f}", "category": x.category}
        for x in current.fixed_expenses.all()
    ]
    form = PlanEditForm(
        data, goals=goals, currency=current.currency, initial=PlanEditForm.initial_for(current), prefix="edit"
    )
    return form, FixedExpenseFormSet(data, prefix="edit-lines", initial=lines)


def _context(request, *, plan_form=None, lines=None, entry_form=None, edit=None) -> dict:
    user = request.user
    today = user_today(user)
    goals = list(goal_list(user=user, status="active"))
    current = plan_current(user=user, today=today)
    state = plan_state(current, today=today) if current else None
    bills = None
    if state:
        due = bills_still_due(
            user=user, currency=current.currency, today=today, month_last=pm.month_last(current.month)
        )
        bills = bills_outlook(state, due)
    plans = list(plan_list(user=user))
    goal = current.primary_goal if current else None
    return {
        "today": today,
        "state": state,
        "bars": _bars(state) if state else None,
        "warning_text": WARNING_TEXT.get(state.warning) if state else "",
        "goal": goal,
        "goal_progress": goal_progress_of(goal, today=today) if goal else None,
        "drafts": [p for p in plans if p.status == MonthlyPlan.Status.DRAFT and p != current],
        # A plan activated ahead of its month waits here until the month begins.
        "upcoming": [p for p in plans if p.status == MonthlyPlan.Status.ACTIVE and p != current and p.month > today],
        "past": [_past(p) for p in plans if p.status == MonthlyPlan.Status.COMPLETED],
        "status_text": STATUS_TEXT,
        "mode_text": MODE_TEXT,
        "recommendation_text": RECOMMENDATION_TEXT.get(state.recommendation.kind)
        if state and state.recommendation
        else "",
        "plan_form": plan_form or PlanForm(goals=goals, initial={"month": f"{today:%Y-%m}"}),
        "bills": bills,
        # A new plan's fixed expenses start from the user's recurring bills (docs/plans.md).
        "lines": lines
        or FixedExpenseFormSet(
            prefix="lines", initial=suggested_fixed_expenses(user=user, currency=user_currency(user))
        ),
        "entry_form": entry_form or _entry_form(user, current),
        # The current plan's inputs, editable while it is a draft or active; saving recomputes its figures.
        "edit": edit or (_edit_forms(current, goals) if current else None),
        "revisions": _revisions(current) if current else [],
    }


def _revisions(plan: MonthlyPlan) -> list[dict]:
    """The current plan's edits as the page lists them: when, and its income and safe-to-spend before and after."""

    def money(value: str) -> str:
        return format_amount(Decimal(value), plan.currency, locale=get_language())

    return [
        {
            "at": r.created_at,
            "income": (money(r.before["expected_income"]), money(r.after["expected_income"])),
            "safe": (money(r.before["allocations"]["safe_to_spend"]), money(r.after["allocations"]["safe_to_spend"])),
        }
        for r in plan_revisions(plan=plan)
    ]


def _entry_form(user, plan: MonthlyPlan | None, data=None) -> EntryForm:
    currency = plan.currency if plan else user_currency(user)
    return EntryForm(data, accounts=spending_accounts(user=user, currency=currency), currency=currency)


def _filled_lines(lines: FixedExpenseFormSet) -> list[dict]:
    return [
        {"name": line["name"], "amount": line["amount"], "category": line["category"]}
        for line in lines.cleaned_data
        if line and (line.get("name") or line.get("amount"))
    ]


@login_required
def plans_page(request):
    if request.method != "POST":
        return render(request, "plans/plans.html", _context(request))
    goals = list(goal_list(user=request.user, status="active"))
    form = PlanForm(request.POST, goals=goals)
    lines = FixedExpenseFormSet(request.POST, prefix="lines")
    if form.is_valid() and lines.is_valid():
        fixed = _filled_lines(lines)
        try:
            with transaction.atomic():
                plan = services.plan_create(
                    user=request.user,
                    month=form.cleaned_data["month"],
                    expected_income=form.cleaned_data["expected_income"],
                    fixed_expenses=fixed,
                    lifestyle_mode=form.cleaned_data["lifestyle_mode"],
                    primary_goal_id=form.cleaned_data["primary_goal"],
                    reminder_time=form.cleaned_data["reminder_time"] or None,
                )
                if request.POST.get("activate"):
                    services.plan_activate(user=request.user, plan_id=plan.id)
        except ZeusError as exc:
            add_service_error(form, exc, fields_map={"primary_goal_id": "primary_goal"})
        else:
            messages.success(
                request, _("Plan for %(month)s saved.") % {"month": date_format(plan.month, "YEAR_MONTH_FORMAT")}
            )
            return redirect("/plans")
    return render(request, "plans/plans.html", _context(request, plan_form=form, lines=lines), status=400)


def _own_current(request, plan_id: int) -> MonthlyPlan | None:
    current = plan_current(user=request.user, today=user_today(request.user))
    return current if current is not None and current.id == plan_id else None


@login_required
@require_POST
def log_entry(request, plan_id: int):
    form = _entry_form(request.user, _own_current(request, plan_id), request.POST)
    if form.is_valid():
        try:
            services.plan_entry_create(user=request.user, plan_id=plan_id, **form.service_values())
        except ZeusError as exc:
            add_service_error(form, exc, fields_map={"asset_id": "asset"})
        else:
            messages.success(request, _("Logged."))
            return redirect("/plans")
    return render(request, "plans/plans.html", _context(request, entry_form=form), status=400)


@login_required
@require_POST
def edit_plan(request, plan_id: int):
    """Saves the current plan's inputs; the page then shows the recomputed allocations."""
    current = _own_current(request, plan_id)
    if current is None:
        messages.error(request, _("Only this month's plan can be edited here."))
        return redirect("/plans")
    form, lines = _edit_forms(current, list(goal_list(user=request.user, status="active")), request.POST)
    if form.is_valid() and lines.is_valid():
        d = form.cleaned_data
        try:
            plan = services.plan_update(
                user=request.user,
                plan_id=plan_id,
                expected_income=d["expected_income"],
                lifestyle_mode=d["lifestyle_mode"],
                essential_spending=d["essential_spending"] or None,
                primary_goal_id=d["primary_goal"],
                reminder_time=d["reminder_time"],
                reminders_enabled=d["reminders_enabled"],
                fixed_expenses=_filled_lines(lines),
            )
        except ZeusError as exc:
            add_service_error(form, exc, fields_map={"primary_goal_id": "primary_goal"})
        else:
            safe = format_amount(plan.alloc_safe, plan.currency, locale=get_language())
            messages.success(request, _("Plan updated. Safe to spend this month: %(safe)s.") % {"safe": safe})
            return redirect("/plans")
    return render(request, "plans/plans.html", _context(request, edit=(form, lines)), status=400)


urlpatterns = [
    *page_paths("plans", plans_page, name="plans"),
    path(
        "plans/<int:plan_id>/activate",
        service_action(services.plan_activate, done=gettext_lazy("Plan activated."), to="/plans", refused=refusal_text),
        name="plan-activate",
    ),
    path("plans/<int:plan_id>/entries", log_entry, name="plan-entries"),
    path("plans/<int:plan_id>/edit", edit_plan, name="plan-edit"),
    path(
        "plans/<int:plan_id>/rebalance",
        service_action(services.plan_rebalance, done=gettext_lazy("Rebalanced."), to="/plans", refused=refusal_text),
        name="plan-rebalance",
    ),
    path(
        "plans/<int:plan_id>/dismiss-warning",
        service_action(
            services.plan_dismiss_warning, done=gettext_lazy("Warning dismissed."), to="/plans", refused=refusal_text
        ),
        name="plan-dismiss-warning",
    ),
]
