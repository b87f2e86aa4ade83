"""Beat tasks of the goals app (docs/contract/tasks.md). Thin: the work and its idempotency live in
goals/debts/reminders.py."""

import datetime as dt

from celery import shared_task
from django.utils import timezone

from goals.debts import reminders
from zeus.fanout import BATCH_TASK_OPTIONS, fan_out


@shared_task(name="goals.send_debt_reminders")
def send_debt_reminders() -> int:
    """Returns how many batches it enqueued."""
    return fan_out(send_debt_reminders_batch, size=reminders.RANGE, now=timezone.now().isoformat())


@shared_task(name="goals.send_debt_reminders_batch", **BATCH_TASK_OPTIONS)
def send_debt_reminders_batch(*, first: int, last: int, now: str) -> int:
    return reminders.debt_reminders_send(now=dt.datetime.fromisoformat(now), user_id_range=(first, last))
