"""Signals other apps listen to. Goals cannot import upward (docs/architecture.md), so the suggestions app
subscribes to `goal_created` to refresh a user's suggestions after a goal lands."""

from django.dispatch import Signal

goal_created = Signal()  # kwargs: goal_id, user_id; sent on commit
