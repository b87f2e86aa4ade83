"""Reactions to lower apps' signals (they cannot import us, DESIGN.md)."""

import logging

from django.dispatch import receiver

from goals.signals import goal_created

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
