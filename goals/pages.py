"""/budgets and /goals: create, edit, delete and see progress, without the chat (docs/pages.md)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from assets import labels
from goals import labels as goal_labels
from goals import services
from goals.debts import pages as debt_pages
from goals.forms import BudgetForm, ContributionForm, GoalForm
from goals.selectors import budget_list, budget_statuses, goal_list, goal_progress_of
from zeus.errors import Conflict, NotFound, ZeusError
from zeus.forms import add_service_error, page_paths
from zeus.selectors import user_currency
from zeus.timeutil import user_today


def _int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def budget_rows(statuses) -> list[dict]:
    """Each budget as the page (and the home) draws it: spent, left and how full its bar is."""
    rows = []
    for s in statuses:
        b = s.budget
        pct = int(min(100, s.spent * 100 / b.amount)) if b.amount else 0
        rows.append(
            {
                "budget": b,
                "label": labels.category_label(b.category),
                "spent": s.spent,
                "remaining": s.remaining,
                "pct": pct,
                "used_pct": int(s.spent * 100 / b.amount) if b.amount else 0,
                "state": "over" if s.remaining < 0 else "warn" if pct >= 80 else "good",
                "converted": s.converted,
                "rate_missing": s.rate_missing,
            }
        )
    return sorted(rows, key=lambda r: -r["used_pct"])


def _budgets_context(request, *, create_form=None, edit_form=None, edit_id=None) -> dict:
    user = request.user
    currency = user_currency(user)
    edit_id = edit_id if edit_id is not None else _int(request.GET.get("edit"))
    statuses = budget_statuses(user=user)
    rows = budget_rows(statuses)
    for row in rows:
        if row["budget"].id == edit_id:
            b = row["budget"]
            row["form"] = edit_form or BudgetForm(
                initial={"category": b.category, "amount": f"{b.amount.normalize():f}"},
                currency=b.currency,
                prefix=f"b{b.id}",
            )
    return {
        "rows": rows,
        "create_form": create_form or BudgetForm(currency=currency, prefix="new"),
        "delete_id": _int(request.GET.get("delete")),
        "today": user_today(user),
    }


def _budget_error(form, exc: ZeusError) -> None:
    if isinstance(exc, Conflict):
        form.add_error("category", _("There is already a budget for this category."))
    else:
        add_service_error(form, exc)


@login_required
def budgets_page(request):
    if request.method != "POST":
        return render(request, "goals/budgets.html", _budgets_context(request))
    form = BudgetForm(request.POST, currency=user_currency(request.user), prefix="new")
    if form.is_valid():
        try:
            services.budget_create(user=request.user, **form.cleaned_data)
        except ZeusError as exc:
            _budget_error(form, exc)
        else:
            messages.success(request, _("Budget added."))
            return HttpResponseRedirect("/budgets")
    return render(request, "goals/budgets.html", _budgets_context(request, create_form=form), status=400)


@login_required
@require_POST
def budget_edit(request, budget_id: int):
    budget = budget_list(user=request.user).filter(id=budget_id).first()
    if budget is None:
        messages.error(request, _("That budget does not exist."))
        return HttpResponseRedirect("/budgets")
    form = BudgetForm(request.POST, currency=budget.currency, prefix=f"b{budget.id}")
    if form.is_valid():
        try:
            services.budget_update(user=request.user, budget_id=budget.id, **form.cleaned_data)
        except ZeusError as exc:
            _budget_error(form, exc)
        else:
            messages.success(request, _("Budget saved."))
            return HttpResponseRedirect("/budgets")
    context = _budgets_context(request, edit_form=form, edit_id=budget.id)
    return render(request, "goals/budgets.html", context, status=400)


@login_required
@require_POST
def budget_remove(request, budget_id: int):
    try:
        services.budget_delete(user=request.user, budget_id=budget_id)
    except NotFound:
        messages.error(request, _("That budget does not exist."))
    else:
        messages.success(request, _("Budget deleted."))
    return HttpResponseRedirect("/budgets")


def goal_rows(goals, *, today) -> list[dict]:
    rows = []
    for goal in goals:
        progress = goal_progress_of(goal, today=today)
        rows.append(
            {
                "goal": goal,
                "kind": goal_labels.GOAL_KIND.get(goal.kind, goal.kind),
                "progress": progress,
                "pct": int(progress.progress_pct),
                "achieved": goal.status == "achieved",
            }
        )
    return rows


def _goals_context(request, *, create_form=None, edit_form=None, edit_id=None, add_form=None, add_id=None) -> dict:
    user = request.user
    today = user_today(user)
    currency = user_currency(user)
    edit_id = edit_id if edit_id is not None else _int(request.GET.get("edit"))
    rows = goal_rows(goal_list(user=user), today=today)
    for row in rows:
        g = row["goal"]
        if g.id == edit_id:
            row["form"] = edit_form or GoalForm(
                initial={
                    "name": g.name,
                    "kind": g.kind,
                    "target_amount": f"{g.target_amount.normalize():f}",
                    "current_amount": f"{g.current_amount.normalize():f}",
                    "deadline": g.deadline,
                },
                currency=g.currency,
                today=today,
                prefix=f"g{g.id}",
            )
        row["add_form"] = add_form if add_id == g.id else ContributionForm(currency=g.currency, prefix=f"a{g.id}")
    return {
        "rows": rows,
        "create_form": create_form or GoalForm(currency=currency, today=today, prefix="new"),
        "create_open": create_form is not None or not rows,
        "delete_id": _int(request.GET.get("delete")),
    }


@login_required
def goals_page(request):
    if request.method != "POST":
        return render(request, "goals/goals.html", _goals_context(request))
    today = user_today(request.user)
    form = GoalForm(request.POST, currency=user_currency(request.user), today=today, prefix="new")
    if form.is_valid():
        try:
            services.goal_create(user=request.user, **form.service_values())
        except ZeusError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, _("Goal added."))
            return HttpResponseRedirect("/goals")
    return render(request, "goals/goals.html", _goals_context(request, create_form=form), status=400)


def _own_goal(request, goal_id):
    return goal_list(user=request.user).filter(id=goal_id).first()


@login_required
@require_POST
def goal_edit(request, goal_id: int):
    goal = _own_goal(request, goal_id)
    if goal is None:
        messages.error(request, _("That goal does not exist."))
        return HttpResponseRedirect("/goals")
    form = GoalForm(request.POST, currency=goal.currency, today=user_today(request.user), prefix=f"g{goal.id}")
    if form.is_valid():
        try:
            services.goal_update(user=request.user, goal_id=goal.id, **form.service_values())
        except ZeusError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, _("Goal saved."))
            return HttpResponseRedirect(f"/goals#goal-{goal.id}")
    return render(request, "goals/goals.html", _goals_context(request, edit_form=form, edit_id=goal.id), status=400)


@login_required
@require_POST
def goal_add_money(request, goal_id: int):
    goal = _own_goal(request, goal_id)
    if goal is None:
        messages.error(request, _("That goal does not exist."))
        return HttpResponseRedirect("/goals")
    form = ContributionForm(request.POST, currency=goal.currency, prefix=f"a{goal.id}")
    if form.is_valid() and form.cleaned_data["amount"]:
        try:
            services.goal_contribute(user=request.user, goal_id=goal.id, amount=form.cleaned_data["amount"])
        except ZeusError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, _("Added to %(goal)s.") % {"goal": goal.name})
            return HttpResponseRedirect(f"/goals#goal-{goal.id}")
    elif form.is_valid():
        form.add_error("amount", _("Enter an amount."))
    return render(request, "goals/goals.html", _goals_context(request, add_form=form, add_id=goal.id), status=400)


@login_required
@require_POST
def goal_remove(request, goal_id: int):
    try:
        services.goal_delete(user=request.user, goal_id=goal_id)
    except NotFound:
        messages.error(request, _("That goal does not exist."))
    else:
        messages.success(request, _("Goal deleted."))
    return HttpResponseRedirect("/goals")


urlpatterns = [
    *page_paths("budgets", budgets_page, name="budgets"),
    path("budgets/<int:budget_id>/edit", budget_edit, name="budget-edit"),
    path("budgets/<int:budget_id>/delete", budget_remove, name="budget-delete"),
    *page_paths("goals", goals_page, name="goals"),
    path("goals/<int:goal_id>/edit", goal_edit, name="goal-edit"),
    path("goals/<int:goal_id>/add", goal_add_money, name="goal-add"),
    path("goals/<int:goal_id>/delete", goal_remove, name="goal-delete"),
    *debt_pages.urlpatterns,
]
