"""Thin tasks: ids in, services do the work. Without ids a task is the small one beat schedules: it fans out
one batch task per user id range as a Celery group (zeus.fanout), so every worker takes a share."""

import datetime as dt

from django.utils import timezone

from suggestions import services
from suggestions.batches import user_batches
from suggestions.digest.job import weekly_digest_send
from suggestions.insights.job import insights_generate
from suggestions.recurring.job import recurring_detect
from suggestions.thresholds import BATCH_SIZE
from zeus.celery import app
from zeus.fanout import BATCH_TASK_OPTIONS, fan_out


@app.task(name="suggestions.refresh_suggestions")
def refresh_suggestions(user_ids: list[int] | None = None) -> int:
    """With ids: refreshes them (a goal was created). Without: returns how many batches it enqueued."""
    if user_ids is None:
        return fan_out(refresh_suggestions_batch, size=BATCH_SIZE)
    return services.suggestions_refresh_users(user_ids=user_ids)


@app.task(name="suggestions.refresh_suggestions_batch", **BATCH_TASK_OPTIONS)
def refresh_suggestions_batch(*, first: int, last: int) -> int:
    done = 0
    for batch in user_batches(user_id_range=(first, last)):
        done += services.suggestions_refresh_users(user_ids=[user.id for user in batch])
    return done


@app.task(name="suggestions.generate_insights")
def generate_insights(user_ids: list[int] | None = None) -> int:
    """With ids: their insights. Without: returns how many batches it enqueued, all at one instant."""
    if user_ids is None:
        return fan_out(generate_insights_batch, size=BATCH_SIZE, now=timezone.now().isoformat())
    return insights_generate(user_ids=user_ids)


@app.task(name="suggestions.generate_insights_batch", **BATCH_TASK_OPTIONS)
def generate_insights_batch(*, first: int, last: int, now: str) -> int:
    return insights_generate(user_id_range=(first, last), now=dt.datetime.fromisoformat(now))


@app.task(name="suggestions.detect_recurring")
def detect_recurring(user_ids: list[int] | None = None) -> int:
    """With ids: their series. Without: returns how many batches it enqueued, all at one instant."""
    if user_ids is None:
        return fan_out(detect_recurring_batch, size=BATCH_SIZE, now=timezone.now().isoformat())
    return recurring_detect(user_ids=user_ids).series


@app.task(name="suggestions.detect_recurring_batch", **BATCH_TASK_OPTIONS)
def detect_recurring_batch(*, first: int, last: int, now: str) -> int:
    return recurring_detect(user_id_range=(first, last), now=dt.datetime.fromisoformat(now)).series


@app.task(name="suggestions.send_weekly_digest")
def send_weekly_digest(user_ids: list[int] | None = None) -> int:
    """With ids: their review, if due. Without: returns how many batches it enqueued, all at one instant."""
    if user_ids is None:
        return fan_out(send_weekly_digest_batch, size=BATCH_SIZE, now=timezone.now().isoformat())
    return weekly_digest_send(user_ids=user_ids)


@app.task(name="suggestions.send_weekly_digest_batch", **BATCH_TASK_OPTIONS)
def send_weekly_digest_batch(*, first: int, last: int, now: str) -> int:
    return weekly_digest_send(user_id_range=(first, last), now=dt.datetime.fromisoformat(now))
