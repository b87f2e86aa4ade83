"""The users a background job may act for: everyone whose erasure is not pending.

An account whose erasure is scheduled is locked for its whole grace period (erasure.py): no job reminds it,
sums up its month, mails or pushes it anything, reads its ledger for insights or series, or pulls its bank
feed. Every job selects its users or rows through the two functions below, so the rule lives in one query:
cancelling the erasure deletes the `ErasureRequest`, and the next run of each job sees the user again.
Webhooks are not jobs: money that arrives during the grace is still recorded (and erased with the rest).

Only Django and the models are imported here, so zeus.mail and zeus.push can read through it without a cycle.
"""

from django.contrib.auth import get_user_model
from django.db.models import QuerySet


def unlocked_users() -> QuerySet:
    """Every user not locked for erasure (a user queryset; narrow it further as a job needs)."""
    return get_user_model().objects.filter(erasure_request__isnull=True)


def of_unlocked_users(rows: QuerySet, *, user_field: str = "user") -> QuerySet:
    """`rows` narrowed to those whose user (reached through `user_field`, e.g. "notification__user") is not
    locked for erasure."""
    return rows.filter(**{f"{user_field}__in": unlocked_users()})
