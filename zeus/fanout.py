"""Nightly work spread across workers: a job's users cut into id ranges, one Celery task per range, enqueued
as one group by a small parent task (the one beat schedules). docs/scaling.md has the whole picture.

A range of width `size` holds at most `size` users, since ids are unique: every batch is bounded whatever
the gaps, and cutting the ranges costs one aggregate query, not a walk over the users. Each batch task must
be idempotent on its own (a claim row, a conditional update, a unique key), because with `acks_late` and
`reject_on_worker_lost` a batch whose worker dies is delivered again, to another worker.
"""

from celery import group
from django.contrib.auth import get_user_model
from django.db.models import Max, Min

# For the batch tasks: acknowledged after they finish, and put back on the queue when their worker dies
# mid-batch (SIGKILL, OOM), so another worker redoes it at once instead of after the visibility timeout.
BATCH_TASK_OPTIONS = {"acks_late": True, "reject_on_worker_lost": True}


def user_id_ranges(*, size: int) -> list[tuple[int, int]]:
    """[first, last] user id ranges of width `size` covering every user, in one query."""
    bounds = get_user_model().objects.aggregate(first=Min("id"), last=Max("id"))
    if bounds["first"] is None:
        return []
    first, last = bounds["first"], bounds["last"]
    return [(start, min(start + size - 1, last)) for start in range(first, last + 1, size)]


def fan_out(task, *, size: int, **kwargs) -> int:
    """Enqueues `task(first=..., last=..., **kwargs)` for every user id range as one Celery group and
    returns how many batches it enqueued. The caller never waits for the group: a task that blocked on
    other tasks could hold every worker. Without a broker (tasks eager) the batches run here, in order."""
    ranges = user_id_ranges(size=size)
    if ranges:
        group(task.si(first=first, last=last, **kwargs) for first, last in ranges).apply_async()
    return len(ranges)
