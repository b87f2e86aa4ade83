from django.core.management.base import BaseCommand

from demo.seed import DEMO_USERNAME, SUPPORT_USERNAME, seed_demo


class Command(BaseCommand):
    help = "Loads the demo account (90 days of VND data ending today) and the support account. Idempotent."

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true", help="delete the demo user's data and load it afresh")
        parser.add_argument(
            "--language", choices=["vi", "en"], default="vi", help="the language the demo user reads (default vi)"
        )

    def handle(self, *args, reset=False, language="vi", **options):
        ctx = seed_demo(reset=reset, language=language)
        added = ", ".join(f"{count} {what}" for what, count in sorted(ctx.added.items())) or "nothing (already loaded)"
        self.stdout.write(f"Demo data ending {ctx.today}: added {added}.")
        self.stdout.write(
            f"Log in as {DEMO_USERNAME}/{DEMO_USERNAME}; the admin as {SUPPORT_USERNAME}/{SUPPORT_USERNAME}."
        )
