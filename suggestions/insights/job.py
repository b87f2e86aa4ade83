"""The nightly insights job (docs/contract/tasks.md, `suggestions.generate_insights`): the users in bounded
batches, each batch's drafts (suggestions/insights/drafts.py) stored with their notifications once."""

import datetime as dt

from django.utils import timezone

from suggestions.batches import BatchUser, user_batches
from suggestions.insights.drafts import batch_drafts
from suggestions.services import insights_store


def insights_generate(
    *,
    user_ids: list[int] | None = None,
    user_id_range: tuple[int, int] | None = None,
    now: dt.datetime | None = None,
) -> int:
    """Runs the insights over the users (default: every active one; or those ids; or the ids in a fan-out
    batch's range) in bounded batches; returns how many new insights landed. A re-run adds nothing."""
    now = now or timezone.now()
    created = 0
    for batch in user_batches(user_ids=user_ids, user_id_range=user_id_range):
        created += insights_generate_batch(users=batch, now=now)
    return created


def insights_generate_batch(*, users: list[BatchUser], now: dt.datetime) -> int:
    return insights_store(batch_drafts(users, now=now))
