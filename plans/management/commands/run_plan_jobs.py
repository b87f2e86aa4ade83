"""`manage.py run_plan_jobs [--user U] [--now ISO]`: the plan jobs, for staff, on the same code as the beat."""

import datetime as dt

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from plans.jobs import run_plan_jobs


def _instant(value: str) -> dt.datetime:
    try:
        instant = dt.datetime.fromisoformat(value.strip())
    except ValueError:
        raise CommandError(f"--now {value!r} is not an ISO 8601 instant, e.g. 2026-11-30T17:05:00+00:00.") from None
    if instant.tzinfo is None:
        raise CommandError("--now needs a UTC offset (e.g. +07:00 or Z), so the instant is unambiguous.")
    return instant


class Command(BaseCommand):
    help = "Finalizes plans whose month has ended and sends due reminders (both idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("--user", help="Only this username's plans.")
        parser.add_argument("--now", help="Run as of this ISO 8601 instant, with its offset (default: now).")

    def handle(self, *args, user=None, now=None, **options):
        instant = _instant(now) if now else timezone.now()
        user_ids = None
        if user is not None:
            found = get_user_model().objects.filter(username=user).values_list("id", flat=True).first()
            if found is None:
                raise CommandError(f"No user named {user!r}.")
            user_ids = [found]
        result = run_plan_jobs(now=instant, user_ids=user_ids)
        self.stdout.write(
            f"As of {instant.isoformat()}: {result.summaries} plan(s) finalized, {result.reminders} reminder(s) sent."
        )
