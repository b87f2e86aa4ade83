"""/budgets and /goals: create, edit, delete and see progress, without the chat (docs/pages.md)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from assets import labels
from goals import labels as goal_labels
from goals import services
from goals.debts import pages as debt_pages
from goals.forms import BudgetForm, ContributionForm, GoalForm
from goals.selectors import budget_list, budget_statuses, goal_list, goal_progress_of
from zeus.errors import Conflict, ZeusError
from zeus.forms import add_service_error, form_saved, page_paths, query_int, service_action
from zeus.selectors import user_currency
from zeus.timeutil import user_today


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
    edit_id = edit_id if edit_id is not None else query_int(request.GET.get("edit"))
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
        "delete_id": query_int(request.GET.get("delete")),
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
    saved = form_saved(
        request,
        form,
        lambda: services.budget_create(user=request.user, **form.cleaned_data),
        done=_("Budget added."),
        to="/budgets",
        on_error=_budget_error,
    )
    return saved or render(request, "goals/budgets.html", _budgets_context(request, create_form=form), status=400)


@login_required
@require_POST
def budget_edit(request, budget_id: int):
    budget = budget_list(user=request.user).filter(id=budget_id).first()
    if budget is None:
        messages.error(request, _("That budget does not exist."))
        return HttpResponseRedirect("/budgets")
    form = BudgetForm(request.POST, currency=budget.currency, prefix=f"b{budget.id}")
    saved = form_saved(
        request,
        form,
        lambda: services.budget_update(user=request.user, budget_id=budget.id, **form.cleaned_data),
        done=_("Budget saved."),
        to="/budgets",
        on_error=_budget_error,
    )
    return saved or render(
        request, "goals/budgets.html", _budgets_context(request, edit_form=form, edit_id=budget.id), status=400
    )


budget_remove = service_action(
    services.budget_delete,
    done=gettext_lazy("Budget deleted."),
    to="/budgets",
    refused=lambda exc: _("That budget does not exist."),
)


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
    edit_id = edit_id if edit_id is not None else query_int(request.GET.get("edit"))
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
        "delete_id": query_int(request.GET.get("delete")),
    }


@login_required
def goals_page(request):
    if request.method != "POST":
        return render(request, "goals/goals.html", _goals_context(request))
    today = user_today(request.user)
    form = GoalForm(request.POST, currency=user_currency(request.user), today=today, prefix="new")
    saved = form_saved(
        request,
        form,
        lambda: services.goal_create(user=request.user, **form.service_values()),
        done=_("Goal added."),
        to="/goals",
    )
    return saved or render(request, "goals/goals.html", _goals_context(request, create_form=form), status=400)


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
    saved = form_saved(
        request,
        form,
        lambda: services.goal_update(user=request.user, goal_id=goal.id, **form.service_values()),
        done=_("Goal saved."),
        to=f"/goals#goal-{goal.id}",
    )
    return saved or render(
        request, "goals/goals.html", _goals_context(request, edit_form=form, edit_id=goal.id), status=400
    )


@login_required
@require_POST
def goal_add_money(request, goal_id: int):
    goal = _own_goal(request, goal_id)
    if goal is None:
        messages.error(request, _("That goal does not exist."))
        return HttpResponseRedirect("/goals")
    form = ContributionForm(request.POST, currency=goal.currency, prefix=f"a{goal.id}")
    if form.is_valid() and not form.cleaned_data["amount"]:
        form.add_error("amount", _("Enter an amount."))
    saved = form_saved(
        request,
        form,
        lambda: services.goal_contribute(user=request.user, goal_id=goal.id, amount=form.cleaned_data["amount"]),
        done=_("Added to %(goal)s.") % {"goal": goal.name},
        to=f"/goals#goal-{goal.id}",
    )
    return saved or render(
        request, "goals/goals.html", _goals_context(request, add_form=form, add_id=goal.id), status=400
    )


goal_remove = service_action(
    services.goal_delete,
    done=gettext_lazy("Goal deleted."),
    to="/goals",
    refused=lambda exc: _("That goal does not exist."),
)


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
