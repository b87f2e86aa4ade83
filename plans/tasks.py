"""Beat tasks (docs/contract/tasks.md). Thin: the work, its batching and its idempotency live in plans/jobs.py."""

from celery import shared_task
from django.utils import timezone

from plans import jobs


@shared_task(name="plans.send_due_reminders")
def send_due_reminders() -> int:
    return jobs.reminders_send_due(now=timezone.now()).reminders


@shared_task(name="plans.finalize_ended_plans")
def finalize_ended_plans() -> int:
    return jobs.plans_finalize_ended(now=timezone.now()).summaries
