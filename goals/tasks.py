"""Beat tasks of the goals app (docs/contract/tasks.md). Thin: the work and its idempotency live in
goals/debts/reminders.py."""

import datetime as dt

from django.utils import timezone

from goals.debts import reminders
from zeus.celery import app
from zeus.fanout import BATCH_TASK_OPTIONS, fan_out


@app.task(name="goals.send_debt_reminders")
def send_debt_reminders() -> int:
    """Returns how many batches it enqueued."""
    return fan_out(send_debt_reminders_batch, size=reminders.RANGE, now=timezone.now().isoformat())


@app.task(name="goals.send_debt_reminders_batch", **BATCH_TASK_OPTIONS)
def send_debt_reminders_batch(*, first: int, last: int, now: str) -> int:
    return reminders.debt_reminders_send(now=dt.datetime.fromisoformat(now), user_id_range=(first, last))
