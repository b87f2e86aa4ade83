import io
import os
import sys

from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = (
        "What `make run` needs before it serves, in one process: compiles the stale translation catalogs, applies "
        "the migrations, loads the demo data. Each step is idempotent."
    )

    def handle(self, *args, verbosity=1, **options):
        compiled = io.StringIO()
        call_command("compile_catalogs", stdout=compiled, verbosity=verbosity)
        self.stdout.write(compiled.getvalue(), ending="")
        if compiled.getvalue() and sys.argv[1:2] == ["prepare"]:
            # Django reads the default language's catalog while it sets up, before this command runs, so a catalog
            # compiled just now would be seen only by a new process: the demo's names would be written untranslated.
            # From the command line, the command starts again in a new process, which finds nothing stale.
            self.stdout.flush()
            os.execv(sys.executable, [sys.executable, *sys.argv])
        call_command("migrate", interactive=False, stdout=self.stdout, verbosity=verbosity)
        call_command("seed_demo", stdout=self.stdout, verbosity=verbosity)
