from django.core.management.base import BaseCommand

from suggestions.management.commands._users import user_ids_for
from suggestions.recurring.job import recurring_detect


class Command(BaseCommand):
    help = "Detects recurring series now (the nightly job): marks ended ones, raises price_change and bill_due."

    def add_arguments(self, parser):
        parser.add_argument("--user", help="only this username")

    def handle(self, *args, user=None, **options):
        result = recurring_detect(user_ids=user_ids_for(user))
        self.stdout.write(
            f"{result.series} series ({result.created} new, {result.ended} ended); {result.insights} new insight(s)."
        )
