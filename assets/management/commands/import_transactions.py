import json
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from assets.importing import transactions_import
from zeus.errors import ZeusError


class Command(BaseCommand):
    help = (
        "Imports a statement for a user: CSV (Zeus's header, or a bank's with --mapping), OFX/QFX, QIF or "
        "CAMT.053, recognised by content. All or nothing; rows already imported are skipped."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="Path to the statement file.")
        parser.add_argument("--user", required=True, help="Username to import for.")
        parser.add_argument("--asset", help="An asset id of the user's to file the rows under.")
        parser.add_argument(
            "--mapping",
            help='For a bank CSV: JSON such as {"date": "Ngày", "description": "Nội dung", "amount": "Số tiền", '
            '"date_format": "DD/MM/YYYY"}.',
        )

    def handle(self, *args, file, user, asset=None, mapping=None, **options):
        owner = get_user_model().objects.filter(username=user).first()
        if owner is None:
            raise CommandError(f"No user named {user!r}.")
        if mapping is not None:
            try:
                mapping = json.loads(mapping)
            except ValueError:
                raise CommandError("--mapping must be JSON.") from None
        # A staff command: the services' refusals in English, as the rest of its output (docs/i18n.md).
        try:
            with Path(file).open("rb") as handle, translation.override("en"):
                result = transactions_import(user=owner, source=handle, mapping=mapping, asset_id=asset)
        except OSError as exc:
            raise CommandError(f"Cannot read {file}: {exc.strerror or exc}.") from None
        except ZeusError as exc:
            raise CommandError(_describe(exc)) from None
        self.stdout.write(f"Imported {result.imported}, skipped {result.skipped} already known ({result.format}).")


def _describe(exc: ZeusError) -> str:
    lines = [exc.message]
    for line, problems in exc.fields.get("rows", {}).items():
        detail = "; ".join(f"{field}: {' '.join(messages)}" for field, messages in problems.items())
        lines.append(f"  line {line}: {detail}")
    return "\n".join(lines)
