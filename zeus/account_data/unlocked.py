"""The users a background job may act for: everyone whose erasure is not pending.

An account whose erasure is scheduled is locked for its whole grace period (erasure.py): no job reminds it,
sums up its month, mails or pushes it anything, reads its ledger for insights or series, or pulls its bank
feed. Every job selects its users or rows through `unlocked_users` or `of_unlocked_users`, both one
expression (`locked_for_erasure`), so the rule lives in one place: cancelling the erasure deletes the
`ErasureRequest`, and the next run of each job sees the user again. Webhooks are not jobs: money that arrives
during the grace is still recorded (and erased with the rest).

A NOT EXISTS against the erasure requests (a handful of rows), not a join through every user: a job's query
keeps its own plan. Only Django and the models are imported here, so zeus.mail and zeus.push can read through
it without a cycle.
"""

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, QuerySet

from zeus.models import ErasureRequest


def locked_for_erasure(user_ref: str) -> Exists:
    """True for a row whose user (the outer query's `user_ref`: "pk" on users, "user", "notification__user")
    has an erasure pending."""
    return Exists(ErasureRequest.objects.filter(user_id=OuterRef(user_ref)))


def unlocked_users() -> QuerySet:
    """Every user not locked for erasure (a user queryset; narrow it further as a job needs)."""
    return get_user_model().objects.filter(~locked_for_erasure("pk"))


def of_unlocked_users(rows: QuerySet, *, user_field: str = "user") -> QuerySet:
    """`rows` narrowed to those whose user (reached through `user_field`) is not locked for erasure."""
    return rows.filter(~locked_for_erasure(user_field))
