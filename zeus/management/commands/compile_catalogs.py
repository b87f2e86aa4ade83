from django.conf import settings
from django.core.management.base import BaseCommand

from zeus.catalogs import compile_catalogs


class Command(BaseCommand):
    help = "Compiles locale/*/LC_MESSAGES/*.po into .mo files with Babel (no GNU gettext needed)."

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="Rewrite every .mo, even an up-to-date one.")

    def handle(self, *args, force=False, **options):
        for locale_dir in settings.LOCALE_PATHS:
            for mo in compile_catalogs(locale_dir, force=force):
                self.stdout.write(f"compiled {mo.relative_to(settings.BASE_DIR)}")
