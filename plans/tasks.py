"""Beat tasks (docs/contract/tasks.md). Thin: the work, its batching and its idempotency live in plans/jobs.py.

Each beat task is small: it cuts the users into id ranges and enqueues one batch task per range as a group
(zeus.fanout), so every worker takes a share. The instant is fixed by the beat task and handed to every
batch, so a batch redelivered later still does the work of that instant.
"""

import datetime as dt

from django.utils import timezone

from plans import jobs
from zeus.celery import app
from zeus.fanout import BATCH_TASK_OPTIONS, fan_out


@app.task(name="plans.send_due_reminders")
def send_due_reminders() -> int:
    """Returns how many batches it enqueued."""
    return fan_out(send_due_reminders_batch, size=jobs.REMINDER_RANGE, now=timezone.now().isoformat())


@app.task(name="plans.send_due_reminders_batch", **BATCH_TASK_OPTIONS)
def send_due_reminders_batch(*, first: int, last: int, now: str) -> int:
    at = dt.datetime.fromisoformat(now)
    return jobs.reminders_send_due(now=at, user_id_range=(first, last)).reminders


@app.task(name="plans.finalize_ended_plans")
def finalize_ended_plans() -> int:
    """Returns how many batches it enqueued."""
    return fan_out(finalize_ended_plans_batch, size=jobs.FINALIZE_RANGE, now=timezone.now().isoformat())


@app.task(name="plans.finalize_ended_plans_batch", **BATCH_TASK_OPTIONS)
def finalize_ended_plans_batch(*, first: int, last: int, now: str) -> int:
    at = dt.datetime.fromisoformat(now)
    return jobs.plans_finalize_ended(now=at, user_id_range=(first, last)).summaries


@app.task(name="plans.watch_cash_shortfall")
def watch_cash_shortfall() -> int:
    """Returns how many batches it enqueued."""
    from plans import forecast_jobs

    return fan_out(watch_cash_shortfall_batch, size=forecast_jobs.RANGE, now=timezone.now().isoformat())


@app.task(name="plans.watch_cash_shortfall_batch", **BATCH_TASK_OPTIONS)
def watch_cash_shortfall_batch(*, first: int, last: int, now: str) -> int:
    from plans import forecast_jobs

    return forecast_jobs.shortfall_watch_run(now=dt.datetime.fromisoformat(now), user_id_range=(first, last))
