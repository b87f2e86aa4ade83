"""Reactions to lower apps' signals (they cannot import us, DESIGN.md)."""

import datetime as dt
import logging

from django.dispatch import receiver

from goals.signals import goal_created
from plans.recurring import DueRead, RecurringCharge, due_read_register, recurring_charges
from zeus.prepared import Prepared

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


def _expense_series(user_id: int, since: dt.date, until: dt.date):
    from suggestions import selectors

    return selectors.recurring_list(user=user_id, status="active").filter(
        direction="expense", next_on__gte=since, next_on__lte=until
    )


# The plans' usual question (a plan's bills still due this month, every plan view and page of the list):
# compiled once (zeus/prepared.py), since building the queryset cost more than PostgreSQL took to answer it.
_DUE_READ = Prepared(_expense_series, int, dt.date, dt.date)


def _charge_from_row(row: dict) -> RecurringCharge:
    from suggestions import recurring

    amount = row["amount"]
    return RecurringCharge(
        name=row["merchant"],
        kind=row["kind"],
        amount=amount,
        monthly_amount=recurring.monthly_cost(amount, row["interval"]),
        currency=row["currency"],
        category=row["category"],
        due_on=dt.date.fromisoformat(row["next_on"]),
    )


def _due_rows(user_id: int, since: dt.date, until: dt.date):
    # Only what a charge shows: the plan view's statement stays short enough for psycopg to keep its parse.
    return _expense_series(user_id, since, until).values(
        "merchant", "kind", "amount", "interval", "currency", "category", "next_on"
    )


# The same read for the plan view, which carries it in its own statement (plans.selectors.plan_detail).
due_read_register(DueRead(query=_due_rows, charge=_charge_from_row))


@receiver(recurring_charges, dispatch_uid="suggestions.recurring_charges")
def answer_recurring_charges(sender, user, due_since=None, due_until=None, **kwargs):
    """The user's active expense series for the plans (plans/recurring.py)."""
    from suggestions import recurring, selectors

    if due_since is not None and due_until is not None:
        qs = _DUE_READ.run(user.pk, due_since, due_until)
    else:
        qs = selectors.recurring_list(user=user, status="active").filter(direction="expense")
        if due_since is not None:
            qs = qs.filter(next_on__gte=due_since)
        if due_until is not None:
            qs = qs.filter(next_on__lte=due_until)
    return [
        RecurringCharge(
            name=s.merchant,
            kind=s.kind,
            amount=s.amount,
            monthly_amount=recurring.monthly_cost(s.amount, s.interval),
            currency=s.currency,
            category=s.category,
            due_on=s.next_on,
        )
        for s in qs
    ]
