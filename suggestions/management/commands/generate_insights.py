from django.core.management.base import BaseCommand

from suggestions.insights.job import insights_generate
from suggestions.management.commands._users import user_ids_for


class Command(BaseCommand):
    help = "Finds category spikes, duplicate charges and budget thresholds now (the nightly job), once each."

    def add_arguments(self, parser):
        parser.add_argument("--user", help="only this username")

    def handle(self, *args, user=None, **options):
        created = insights_generate(user_ids=user_ids_for(user))
        self.stdout.write(f"{created} new insight(s).")
