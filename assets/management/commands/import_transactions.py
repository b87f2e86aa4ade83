from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from assets.importing import MAX_BYTES, transactions_import_csv
from zeus.errors import ZeusError


class Command(BaseCommand):
    help = "Imports a CSV of transactions (date,description,amount,direction,category,external_id) for a user."

    def add_arguments(self, parser):
        parser.add_argument("file", help="Path to the CSV file, UTF-8.")
        parser.add_argument("--user", required=True, help="Username to import for.")

    def handle(self, *args, file, user, **options):
        owner = get_user_model().objects.filter(username=user).first()
        if owner is None:
            raise CommandError(f"No user named {user!r}.")
        path = Path(file)
        try:
            with path.open("rb") as handle:
                raw = handle.read(MAX_BYTES + 1)
        except OSError as exc:
            raise CommandError(f"Cannot read {file}: {exc.strerror or exc}.") from None
        if len(raw) > MAX_BYTES:
            raise CommandError(f"{file} is larger than {MAX_BYTES // (1024 * 1024)} MB.")
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise CommandError(f"{file} is not UTF-8 text; save it as CSV UTF-8.") from None
        try:
            result = transactions_import_csv(user=owner, text=text)
        except ZeusError as exc:
            raise CommandError(_describe(exc)) from None
        self.stdout.write(f"Imported {result.imported}, skipped {result.skipped} already known.")


def _describe(exc: ZeusError) -> str:
    lines = [exc.message]
    for line, problems in exc.fields.get("rows", {}).items():
        detail = "; ".join(f"{field}: {' '.join(messages)}" for field, messages in problems.items())
        lines.append(f"  line {line}: {detail}")
    return "\n".join(lines)
