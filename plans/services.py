"""Writes to plans. Every caller (REST, the /plans page, admin actions, jobs, the demo seed) goes through these."""

import datetime as dt
from collections.abc import Iterable
from dataclasses import asdict

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from assets import categories
from assets.models import Transaction
from assets.selectors import spending_accounts
from assets.services import transaction_create
from goals.services import goal_contribute
from plans import math as pm
from plans.inputs import parse_bool, parse_fixed_lines, parse_mode, parse_month, parse_primary_goal, parse_reminder_time
from plans.models import EntryKind, FixedExpense, MonthlyPlan, PlanEntry, PlanRevision, Rebalance
from plans.recurring import merge_fixed_lines, suggested_fixed_expenses
from plans.selectors import plan_get, plan_state
from plans.state import plan_goal_need
from zeus.errors import Conflict, NotFound, ValidationFailed
from zeus.money import from_minor, parse_money, quantize, to_minor
from zeus.selectors import user_currency
from zeus.timeutil import user_today

_UNSET = object()


def _require_not_ended(month: dt.date, today: dt.date) -> None:
    if month < pm.month_first(today):
        raise ValidationFailed(
            _("That month has already ended."),
            code="MONTH_ENDED",
            fields={"month": [_("Pick this month or a later one.")]},
        )


# Allocations


def _allocate(plan: MonthlyPlan, lines: Iterable[FixedExpense]) -> None:
    """Recomputes the allocation columns from the plan's inputs; earlier rebalances are not carried over."""
    c = plan.currency
    goal_entries = 0
    if plan.pk and plan.primary_goal_id:
        goal_entries = sum(to_minor(e.amount, c) for e in plan.entries.all())
    try:
        result = pm.allocate(
            income=to_minor(plan.expected_income, c),
            fixed=sum(to_minor(line.amount, c) for line in lines),
            mode=plan.lifestyle_mode,
            essential_override=None if plan.essential_spending is None else to_minor(plan.essential_spending, c),
            goal_need=plan_goal_need(plan, goal_entries=goal_entries),
        )
    except pm.PlanMathError as exc:
        code = "FIXED_ABOVE_INCOME" if exc.field == "fixed_expenses" else "VALIDATION_ERROR"
        message = math_refusal(exc)
        raise ValidationFailed(message, code=code, fields={exc.field: [message]}) from None
    plan.alloc_fixed = from_minor(result.fixed, c)
    plan.alloc_essential = from_minor(result.essential, c)
    plan.alloc_goal = from_minor(result.goal, c)
    plan.alloc_safe = from_minor(result.safe, c)


def _replace_lines(plan: MonthlyPlan, lines: list[FixedExpense]) -> None:
    plan.fixed_expenses.all().delete()
    for line in lines:
        line.plan = plan
    FixedExpense.objects.bulk_create(lines)


# Plans


@transaction.atomic
def plan_create(
    *,
    user,
    month,
    expected_income,
    fixed_expenses=(),
    lifestyle_mode: str = MonthlyPlan.Mode.BALANCED,
    primary_goal_id=None,
    essential_spending=None,
    reminder_time=None,
    reminders_enabled: bool = True,
    prefill_fixed_from_recurring: bool = False,
    today: dt.date | None = None,
) -> MonthlyPlan:
    """A draft plan for `month` (YYYY-MM) in the user's currency, with its allocations computed. With
    `prefill_fixed_from_recurring`, the user's recurring bills join the fixed expenses given
    (plans.recurring.merge_fixed_lines)."""
    today = today or user_today(user)
    currency = user_currency(user)
    first = parse_month(month)
    _require_not_ended(first, today)
    plan = MonthlyPlan(
        user=user,
        month=first,
        currency=currency,
        lifestyle_mode=parse_mode(lifestyle_mode),
        expected_income=parse_money(expected_income, currency, field="expected_income"),
        essential_spending=None
        if essential_spending in (None, "")
        else parse_money(essential_spending, currency, field="essential_spending", allow_zero=True),
        primary_goal=parse_primary_goal(user, primary_goal_id, currency),
        reminders_enabled=parse_bool(reminders_enabled, "reminders_enabled"),
    )
    if reminder_time not in (None, ""):
        plan.reminder_time = parse_reminder_time(reminder_time)
    given = list(fixed_expenses or [])
    if parse_bool(prefill_fixed_from_recurring, "prefill_fixed_from_recurring"):
        given = merge_fixed_lines(given, suggested_fixed_expenses(user=user, currency=currency))
    lines = parse_fixed_lines(given, currency)
    _allocate(plan, lines)
    plan.save()
    _replace_lines(plan, lines)
    return plan


def _locked_plan(user, plan_id) -> MonthlyPlan:
    try:
        plan = MonthlyPlan.objects.select_for_update().filter(user=user, id=int(plan_id)).first()
    except (TypeError, ValueError):
        plan = None
    if plan is None:
        raise NotFound(_("No such plan."))
    return plan


def _snapshot(plan: MonthlyPlan, lines: list[FixedExpense]) -> dict:
    """A plan's inputs and allocations as a revision keeps them (amounts as strings, as the API shows them)."""
    c = plan.currency
    return {
        "expected_income": str(quantize(plan.expected_income, c)),
        "lifestyle_mode": plan.lifestyle_mode,
        "essential_spending": None if plan.essential_spending is None else str(quantize(plan.essential_spending, c)),
        "primary_goal_id": plan.primary_goal_id,
        "reminders_enabled": plan.reminders_enabled,
        "reminder_time": f"{plan.reminder_time:%H:%M}",
        "fixed_expenses": [
            {"name": line.name, "amount": str(quantize(line.amount, c)), "category": line.category} for line in lines
        ],
        "allocations": {
            "fixed": str(quantize(plan.alloc_fixed, c)),
            "essential": str(quantize(plan.alloc_essential, c)),
            "goal": str(quantize(plan.alloc_goal, c)),
            "safe_to_spend": str(quantize(plan.alloc_safe, c)),
        },
    }


@transaction.atomic
def plan_update(
    *,
    user,
    plan_id,
    month=_UNSET,
    expected_income=_UNSET,
    fixed_expenses=_UNSET,
    lifestyle_mode=_UNSET,
    primary_goal_id=_UNSET,
    essential_spending=_UNSET,
    reminder_time=_UNSET,
    reminders_enabled=_UNSET,
    today: dt.date | None = None,
) -> MonthlyPlan:
    """Changes inputs or reminder settings of a draft or active plan and recomputes its allocations.
    The month moves only while the plan is a draft. An edit that changes an active plan is kept as a
    PlanRevision with the plan before and after."""
    plan = _locked_plan(user, plan_id)
    if plan.status == MonthlyPlan.Status.COMPLETED:
        raise Conflict(_("A completed plan cannot change."), code="PLAN_COMPLETED")
    c = plan.currency
    before = _snapshot(plan, list(plan.fixed_expenses.all()))
    if month is not _UNSET:
        first = parse_month(month)
        if first != plan.month:
            if plan.status != MonthlyPlan.Status.DRAFT:
                raise Conflict(_("Only a draft plan can move to another month."), code="PLAN_NOT_DRAFT")
            _require_not_ended(first, today or user_today(user))
            plan.month = first
    if expected_income is not _UNSET:
        plan.expected_income = parse_money(expected_income, c, field="expected_income")
    if lifestyle_mode is not _UNSET:
        plan.lifestyle_mode = parse_mode(lifestyle_mode)
    if primary_goal_id is not _UNSET:
        plan.primary_goal = parse_primary_goal(user, primary_goal_id, c)
    if essential_spending is not _UNSET:
        plan.essential_spending = (
            None
            if essential_spending in (None, "")
            else parse_money(essential_spending, c, field="essential_spending", allow_zero=True)
        )
    if reminder_time is not _UNSET:
        plan.reminder_time = parse_reminder_time(reminder_time)
    if reminders_enabled is not _UNSET:
        plan.reminders_enabled = parse_bool(reminders_enabled, "reminders_enabled")
    lines = parse_fixed_lines(fixed_expenses, c) if fixed_expenses is not _UNSET else list(plan.fixed_expenses.all())
    _allocate(plan, lines)
    plan.save()
    if fixed_expenses is not _UNSET:
        _replace_lines(plan, lines)
    after = _snapshot(plan, lines)
    if plan.status == MonthlyPlan.Status.ACTIVE and after != before:
        PlanRevision.objects.create(plan=plan, changed_by=user, before=before, after=after)
    return plan


@transaction.atomic
def plan_delete(*, user, plan_id) -> None:
    plan = _locked_plan(user, plan_id)
    if plan.status != MonthlyPlan.Status.DRAFT:
        raise Conflict(_("Only a draft plan can be deleted."), code="PLAN_NOT_DRAFT")
    plan.delete()


def plan_activate(*, user, plan_id, today: dt.date | None = None) -> MonthlyPlan:
    """Draft → active, with allocations recomputed against the goal as it stands today. The database
    refuses a second active plan for the same user and month."""
    today = today or user_today(user)
    try:
        with transaction.atomic():
            plan = _locked_plan(user, plan_id)
            if plan.status != MonthlyPlan.Status.DRAFT:
                raise Conflict(_("Only a draft plan can be activated."), code="PLAN_NOT_DRAFT")
            if plan.month < pm.month_first(today):
                raise Conflict(_("That month has already ended."), code="MONTH_ENDED")
            if MonthlyPlan.objects.filter(user=user, month=plan.month, status=MonthlyPlan.Status.ACTIVE).exists():
                raise _active_exists(plan)
            _allocate(plan, list(plan.fixed_expenses.all()))
            plan.status = MonthlyPlan.Status.ACTIVE
            plan.activated_on = today
            plan.save()
    except IntegrityError:
        raise _active_exists(plan) from None
    return plan


def math_refusal(exc: pm.PlanMathError) -> str:
    """The plan arithmetic's refusal in the reader's language (plans/math.py stays pure: no catalog there)."""
    texts = {
        "lifestyle_mode": _("lifestyle_mode must be one of %(modes)s.") % {"modes": ", ".join(pm.MODE_SHARES)},
        "expected_income": _("Amounts must not be negative."),
        "fixed_expenses": _("Fixed expenses are above the expected income."),
        "essential_spending": _("essential_spending must be between 0 and income minus fixed expenses."),
    }
    return texts.get(exc.field, str(exc))


def _active_exists(plan: MonthlyPlan) -> Conflict:
    return Conflict(
        _("There is already an active plan for %(month)s.") % {"month": f"{plan.month:%Y-%m}"},
        code="ACTIVE_PLAN_EXISTS",
    )


def _require_active(plan: MonthlyPlan) -> None:
    if plan.status != MonthlyPlan.Status.ACTIVE:
        raise Conflict(_("The plan is not active."), code="PLAN_NOT_ACTIVE")


def _note(value) -> str:
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > 200:
        raise ValidationFailed(_("note is text of at most 200 characters."), fields={"note": [_("Too long.")]})
    return " ".join(value.split())


def _spending_account(user, asset_id, currency: str):
    """The account a spending entry comes from: the one named, which must be one of the user's spending
    accounts in the plan's currency, else the default one (or none when the user has none)."""
    accounts = spending_accounts(user=user, currency=currency)
    if asset_id in (None, ""):
        return accounts[0].id if accounts else None
    chosen = next((a for a in accounts if str(a.id) == str(asset_id)), None)
    if chosen is None:
        raise ValidationFailed(
            _("asset_id is not one of your open spending accounts in %(currency)s.") % {"currency": currency},
            code="INVALID_ACCOUNT",
            fields={"asset_id": [_("Not a spending account in the plan's currency.")]},
        )
    return chosen.id


@transaction.atomic
def plan_entry_create(
    *, user, plan_id, kind: str, amount, note: str = "", category=None, asset_id=None, today: dt.date | None = None
) -> Transaction | PlanEntry:
    """Logs progress on an active plan, on the user's local today. Spending becomes a row of the ledger: a
    manual expense on the account named, else the default one (assets.selectors.spending_accounts), in
    `category` (else "other"), so /transactions, budgets, the plan's actuals, the review and the chat count
    it once. A goal contribution is no spending (the money stays the user's): it is the plan's own entry and
    adds to the primary goal's current amount."""
    plan = _locked_plan(user, plan_id)
    _require_active(plan)
    today = today or user_today(user)
    if pm.month_first(today) != plan.month:
        raise Conflict(_("Progress is logged during the plan's own month."), code="OUTSIDE_PLAN_MONTH")
    if kind not in EntryKind.values:
        raise ValidationFailed(_("kind must be discretionary or goal."), fields={"kind": [_("Not a kind.")]})
    note = _note(note)
    amount = parse_money(amount, plan.currency)
    if kind == EntryKind.DISCRETIONARY:
        return transaction_create(
            user=user,
            amount=amount,
            description=note,
            category=category or categories.DEFAULT_EXPENSE,
            occurred_on=today,
            currency=plan.currency,
            asset_id=_spending_account(user, asset_id, plan.currency),
        )
    if category not in (None, "") or asset_id not in (None, ""):
        field = "category" if category not in (None, "") else "asset_id"
        raise ValidationFailed(
            _("A goal contribution takes no category or account; those are for spending."),
            fields={field: [_("Only for spending.")]},
        )
    entry = PlanEntry.objects.create(plan=plan, amount=amount, note=note, logged_on=today)
    if plan.primary_goal_id:
        goal_contribute(user=user, goal_id=plan.primary_goal_id, amount=entry.amount)
    return entry


def _alloc_dict(allocations: pm.Allocations, currency: str) -> dict:
    return {name: str(from_minor(units, currency)) for name, units in asdict(allocations).items()}


def plan_rebalance(*, user, plan_id, accepted_by=None, today: dt.date | None = None) -> Rebalance:
    """Applies the current recommendation: moves its amount between goal and safe-to-spend and records the
    allocations before and after. One accepted rebalance per warning state (the database refuses a second)."""
    today = today or user_today(user)
    try:
        with transaction.atomic():
            plan = _locked_plan(user, plan_id)
            _require_active(plan)
            state = plan_state(plan_get(user=user, plan_id=plan.id), today=today)
            recommendation = state.recommendation
            if recommendation is None:
                raise Conflict(_("There is nothing to rebalance right now."), code="NOTHING_TO_REBALANCE")
            after = pm.apply_move(state.allocations, recommendation.kind, recommendation.amount)
            plan.alloc_goal = from_minor(after.goal, plan.currency)
            plan.alloc_safe = from_minor(after.safe, plan.currency)
            plan.save(update_fields=["alloc_goal", "alloc_safe", "updated_at"])
            return Rebalance.objects.create(
                plan=plan,
                kind=recommendation.kind,
                warning_state=recommendation.warning_state,
                amount=from_minor(recommendation.amount, plan.currency),
                before=_alloc_dict(state.allocations, plan.currency),
                after=_alloc_dict(after, plan.currency),
                accepted_by=accepted_by or user,
            )
    except IntegrityError:
        raise Conflict(_("That warning was already rebalanced."), code="NOTHING_TO_REBALANCE") from None


@transaction.atomic
def plan_dismiss_warning(*, user, plan_id, today: dt.date | None = None) -> MonthlyPlan:
    """Hides the current warning until the state changes."""
    plan = _locked_plan(user, plan_id)
    _require_active(plan)
    state = plan_state(plan_get(user=user, plan_id=plan.id), today=today or user_today(user))
    if state.warning == pm.ON_TRACK:
        raise Conflict(_("There is no warning to dismiss."), code="NO_WARNING")
    plan.dismissed_warning = state.warning
    plan.save(update_fields=["dismissed_warning", "updated_at"])
    return plan
