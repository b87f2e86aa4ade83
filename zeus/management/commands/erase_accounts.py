import datetime as dt

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from zeus.account_data.erasure import accounts_erase_due


class Command(BaseCommand):
    help = "Erases the accounts whose seven days since the erasure request have passed (the daily job's work)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--now", help="Run as of this moment, ISO 8601 with an offset (2026-12-10T04:00:00+00:00); default: now."
        )

    def handle(self, *args, now=None, **options):
        moment = timezone.now() if now is None else _moment(now)
        erased = accounts_erase_due(now=moment, limit=10_000)
        self.stdout.write(f"erased {erased} account(s) due by {moment.isoformat()}")


def _moment(text: str) -> dt.datetime:
    try:
        moment = dt.datetime.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--now {text!r} is not an ISO 8601 date and time (2026-12-10T04:00:00+00:00).") from None
    if moment.tzinfo is None:
        raise CommandError(f"--now {text!r} has no offset: add one (+00:00 or Z), so the moment is unambiguous.")
    return moment
