import datetime as dt

from django.core.management.base import BaseCommand, CommandError

from suggestions.digest.job import weekly_digest_send
from suggestions.management.commands._users import user_ids_for


class Command(BaseCommand):
    help = "Sends the weekly review now (the hourly job) to users for whom it is Sunday from 09:00, once a week."

    def add_arguments(self, parser):
        parser.add_argument("--user", help="only this username")
        parser.add_argument("--now", help="the instant to act at, ISO 8601 with its offset (default: now)")

    def handle(self, *args, user=None, now=None, **options):
        at = None
        if now:
            try:
                at = dt.datetime.fromisoformat(now)
            except ValueError:
                raise CommandError(f"--now {now!r} is not an ISO 8601 instant.") from None
            if at.tzinfo is None:
                raise CommandError("--now needs its offset, e.g. 2026-11-29T09:00:00+07:00.")
        sent = weekly_digest_send(user_ids=user_ids_for(user), now=at)
        self.stdout.write(f"{sent} weekly review(s) sent.")
