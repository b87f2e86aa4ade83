"""Reactions to lower apps' signals (they cannot import us, docs/architecture.md)."""

import logging

from django.dispatch import receiver

from goals.signals import goal_created
from plans.recurring import RecurringCharge, recurring_charges
from suggestions.recurring.detection import monthly_cost
from suggestions.recurring.selectors import recurring_list

log = logging.getLogger(__name__)


@receiver(goal_created, dispatch_uid="suggestions.refresh_after_goal_created")
def refresh_after_goal_created(sender, goal_id, user_id, **kwargs):
    """The goal is committed before this runs; a refresh that fails (or a broker that is down) is logged and
    never reaches the request that created the goal. The nightly refresh catches up."""
    from suggestions.tasks import refresh_suggestions

    try:
        refresh_suggestions.delay(user_ids=[user_id])
    except Exception:
        log.exception("refreshing suggestions after goal %s of user %s failed", goal_id, user_id)


@receiver(recurring_charges, dispatch_uid="suggestions.recurring_charges")
def answer_recurring_charges(sender, user, due_since=None, due_until=None, **kwargs):
    """The user's active expense series for the plans (plans/recurring.py). A transfer series (a savings
    deposit) is no bill: like every transfer, it is not spending."""
    due = {}
    if due_since is not None:
        due["next_on__gte"] = due_since
    if due_until is not None:
        due["next_on__lte"] = due_until
    qs = recurring_list(user=user, status="active").filter(direction="expense", **due).exclude(kind="transfer")
    # The charge's fields alone, as plain values: a series row's other columns are never shown here.
    fields = ("merchant", "kind", "amount", "interval", "currency", "category", "next_on")
    return [
        RecurringCharge(
            name=merchant,
            kind=kind,
            amount=amount,
            monthly_amount=monthly_cost(amount, interval),
            currency=currency,
            category=category,
            due_on=next_on,
        )
        for merchant, kind, amount, interval, currency, category, next_on in qs.values_list(*fields)
    ]
