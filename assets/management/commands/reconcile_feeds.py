"""Staff twin of the daily `assets.reconcile_feeds` task: pull the bank-feed providers' last days now."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from assets.feeds.reconcile import DEFAULT_DAYS, feeds_reconcile


class Command(BaseCommand):
    help = "Ask each connected SePay and Casso account for its last days and land what a lost webhook missed."

    def add_arguments(self, parser):
        parser.add_argument("--user", help="Only this username's connections.")
        parser.add_argument("--days", type=int, default=DEFAULT_DAYS, help=f"How far back (default {DEFAULT_DAYS}).")

    def handle(self, *args, user=None, days=DEFAULT_DAYS, **options):
        owner = None
        if user:
            owner = get_user_model().objects.filter(username=user).first()
            if owner is None:
                raise CommandError(f"No user named {user!r}.")
        if not 1 <= days <= 31:
            raise CommandError("--days must be between 1 and 31.")
        report = feeds_reconcile(days=days, user=owner)
        self.stdout.write(
            f"Pulled {report.connections} connection(s): landed {report.landed}, already known {report.known}, "
            f"failed {len(report.failed)}."
        )
