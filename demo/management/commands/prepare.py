from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = (
        "What `make run` needs before it serves, in one process: compiles the stale translation catalogs, applies "
        "the migrations, loads the demo data. Each step is idempotent."
    )

    def handle(self, *args, verbosity=1, **options):
        call_command("compile_catalogs", stdout=self.stdout, verbosity=verbosity)
        call_command("migrate", interactive=False, stdout=self.stdout, verbosity=verbosity)
        call_command("seed_demo", stdout=self.stdout, verbosity=verbosity)
