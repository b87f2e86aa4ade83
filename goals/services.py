import datetime as dt

from django.db import IntegrityError
from django.db import transaction as db_transaction
from django.utils.translation import gettext

from assets import categories
from goals.models import Budget, Goal
from goals.progress import resolve_deadline
from goals.signals import goal_created
from zeus.errors import Conflict, NotFound, ValidationFailed
from zeus.money import MAX_AMOUNT, InvalidAmount, parse_money
from zeus.timeutil import user_today
from zeus.validation import clean_text, record_id, write_currency

_UNSET = object()


def _name(value) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValidationFailed(gettext("name is required."), fields={"name": [gettext("This field is required.")]})
    return clean_text(value, "name", max_length=100, required=True)


def _kind(value) -> str:
    if value not in Goal.Kind.values:
        raise ValidationFailed(
            gettext("kind must be one of: %(value)s.") % {"value": ", ".join(Goal.Kind.values)},
            fields={"kind": [gettext("Not valid.")]},
        )
    return value


def _deadline(value, today: dt.date) -> dt.date:
    deadline = resolve_deadline(value, today=today)
    if deadline <= today:
        raise ValidationFailed(
            gettext("The deadline must be in the future."), fields={"deadline": [gettext("Must be in the future.")]}
        )
    return deadline


def _get_goal(user, goal_id, *, for_update=False) -> Goal:
    qs = Goal.objects.select_for_update() if for_update else Goal.objects
    goal = qs.filter(user=user, id=record_id(goal_id)).first()
    if goal is None:
        raise NotFound(gettext("No such goal."))
    return goal


def _status_for(goal: Goal) -> str:
    return Goal.Status.ACHIEVED if goal.current_amount >= goal.target_amount else Goal.Status.ACTIVE


def goal_create(
    *, user, name: str, kind: str, target_amount, deadline, current_amount=0, currency: str | None = None
) -> Goal:
    currency = write_currency(user, currency)
    today = user_today(user)
    goal = Goal(
        user=user,
        name=_name(name),
        kind=_kind(kind),
        target_amount=parse_money(target_amount, currency, field="target_amount"),
        current_amount=parse_money(current_amount or 0, currency, field="current_amount", allow_zero=True),
        currency=currency,
        deadline=_deadline(deadline, today),
        started_on=today,
    )
    goal.status = _status_for(goal)
    goal.save()
    db_transaction.on_commit(lambda: goal_created.send(sender=Goal, goal_id=goal.id, user_id=user.id))
    return goal


def goal_update(
    *, user, goal_id, name=_UNSET, kind=_UNSET, target_amount=_UNSET, current_amount=_UNSET, deadline=_UNSET
) -> Goal:
    with db_transaction.atomic():
        goal = _get_goal(user, goal_id, for_update=True)
        if name is not _UNSET:
            goal.name = _name(name)
        if kind is not _UNSET:
            goal.kind = _kind(kind)
        if target_amount is not _UNSET:
            goal.target_amount = parse_money(target_amount, goal.currency, field="target_amount")
        if current_amount is not _UNSET:
            goal.current_amount = parse_money(current_amount, goal.currency, field="current_amount", allow_zero=True)
        if deadline is not _UNSET:
            goal.deadline = _deadline(deadline, user_today(user))
        goal.status = _status_for(goal)
        goal.save()
    return goal


def goal_contribute(*, user, goal_id, amount) -> Goal:
    """Adds money to a goal (a plan's goal entry); the row is locked so concurrent adds both count."""
    with db_transaction.atomic():
        goal = _get_goal(user, goal_id, for_update=True)
        goal.current_amount += parse_money(amount, goal.currency)
        if goal.current_amount > MAX_AMOUNT:
            raise InvalidAmount(gettext("That would take the goal past the largest amount Zeus stores."))
        goal.status = _status_for(goal)
        goal.save(update_fields=["current_amount", "status", "updated_at"])
    return goal


def goal_delete(*, user, goal_id) -> None:
    _get_goal(user, goal_id).delete()


def _category(value) -> str:
    if value not in categories.EXPENSE:
        raise ValidationFailed(
            gettext("category must be an expense category."), fields={"category": [gettext("Not an expense category.")]}
        )
    return value


def budget_create(*, user, category: str, amount, currency: str | None = None) -> Budget:
    currency = write_currency(user, currency)
    budget = Budget(user=user, category=_category(category), amount=parse_money(amount, currency), currency=currency)
    try:
        with db_transaction.atomic():
            budget.save()
    except IntegrityError:
        raise Conflict(
            gettext("There is already a budget for %(category)s.") % {"category": category},
            code="BUDGET_EXISTS",
            fields={"category": [gettext("Already budgeted.")]},
        ) from None
    return budget


def budget_update(*, user, budget_id, amount=_UNSET, category=_UNSET) -> Budget:
    try:
        with db_transaction.atomic():
            budget = Budget.objects.select_for_update().filter(user=user, id=record_id(budget_id)).first()
            if budget is None:
                raise NotFound(gettext("No such budget."))
            if amount is not _UNSET:
                budget.amount = parse_money(amount, budget.currency)
            if category is not _UNSET:
                budget.category = _category(category)
            budget.save()
    except IntegrityError:
        raise Conflict(gettext("There is already a budget for that category."), code="BUDGET_EXISTS") from None
    return budget


def budget_delete(*, user, budget_id) -> None:
    deleted, _ = Budget.objects.filter(user=user, id=record_id(budget_id)).delete()
    if not deleted:
        raise NotFound(gettext("No such budget."))
