from django.core.management.base import BaseCommand

from suggestions.batches import user_batches
from suggestions.management.commands._users import user_ids_for
from suggestions.services import suggestions_refresh_users


class Command(BaseCommand):
    help = "Refreshes the rule-based suggestions now (the nightly job)."

    def add_arguments(self, parser):
        parser.add_argument("--user", help="only this username")

    def handle(self, *args, user=None, **options):
        ids = user_ids_for(user)
        batches = [ids] if ids else ([u.id for u in batch] for batch in user_batches())
        done = sum(suggestions_refresh_users(user_ids=batch) for batch in batches)
        self.stdout.write(f"Refreshed suggestions for {done} user(s).")
