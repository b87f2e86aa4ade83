"""CSV import of transactions as synced rows: all or nothing, idempotent on external_id."""

import csv
import io
from dataclasses import dataclass

from django.db import IntegrityError
from django.db import transaction as db_transaction

from assets import categories
from assets.models import Source, Transaction
from zeus.errors import Conflict, ValidationFailed
from zeus.money import parse_money
from zeus.selectors import user_currency
from zeus.services import profile_lock
from zeus.timeutil import parse_date

HEADER = ("date", "description", "amount", "direction", "category", "external_id")
MAX_BYTES = 5 * 1024 * 1024
MAX_ROWS = 20_000
# A file with thousands of bad rows would make an unreadable (and huge) report: name the first ones.
MAX_REPORTED_ROWS = 100
# Well under SQLite's bound on query parameters, so the duplicate check is a few queries, never one a row.
_LOOKUP_CHUNK = 1_000


@dataclass(frozen=True)
class ImportResult:
    imported: int
    skipped: int


class ImportRejected(ValidationFailed):
    code = "INVALID_CSV"


def transactions_import_csv(*, user, text: str) -> ImportResult:
    """Imports `date,description,amount,direction,category,external_id` rows in the user's currency.

    A row whose external_id is already in the ledger, or earlier in the file, is skipped. Any bad row
    rejects the whole file with a report keyed by CSV line number, and nothing is written.
    """
    try:
        too_large = len(text) > MAX_BYTES or len(text.encode("utf-8")) > MAX_BYTES
    except UnicodeEncodeError:
        raise ImportRejected("The file is not UTF-8 text.", code="CSV_NOT_UTF8") from None
    if too_large:
        raise ImportRejected(f"The file is larger than {MAX_BYTES // (1024 * 1024)} MB.", code="CSV_TOO_LARGE")
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise ImportRejected("The file is empty.", code="CSV_EMPTY")
    currency = user_currency(user)
    rows, errors, skipped = _read(text, currency)
    if errors:
        shown = dict(list(errors.items())[:MAX_REPORTED_ROWS])
        more = f" The first {MAX_REPORTED_ROWS} are listed." if len(errors) > MAX_REPORTED_ROWS else ""
        raise ImportRejected(
            f"{len(errors)} row(s) could not be read, so nothing was imported.{more}", fields={"rows": shown}
        )
    with db_transaction.atomic():
        # One import at a time per user: a second upload of the same file waits, then sees every
        # external_id as known, rather than colliding with the first on the unique constraint.
        profile_lock(user=user)
        known = _known_external_ids(user, [row["external_id"] for row in rows])
        new = [Transaction(user=user, **row) for row in rows if row["external_id"] not in known]
        try:
            with db_transaction.atomic():
                Transaction.objects.bulk_create(new, batch_size=1_000)
        except IntegrityError:
            raise Conflict(
                "Some of these transactions were being imported at the same moment; try again.",
                code="IMPORT_CONFLICT",
            ) from None
    return ImportResult(imported=len(new), skipped=skipped + len(rows) - len(new))


def _read(text: str, currency: str) -> tuple[list[dict], dict[str, dict], int]:
    reader = csv.reader(io.StringIO(text, newline=""))
    rows: list[dict] = []
    errors: dict[str, dict] = {}
    seen: set[str] = set()
    skipped = 0
    try:
        header = next(reader, None)
        if header is None or tuple(h.strip().lower() for h in header) != HEADER:
            raise ImportRejected(
                f"The first line must be the header {','.join(HEADER)}.",
                code="CSV_BAD_HEADER",
                fields={"header": [f"Expected {','.join(HEADER)}."]},
            )
        line = reader.line_num + 1
        for record in reader:
            if not any(cell.strip() for cell in record):
                line = reader.line_num + 1
                continue
            if len(rows) + skipped + len(errors) >= MAX_ROWS:
                raise ImportRejected(f"The file has more than {MAX_ROWS:,} rows.", code="CSV_TOO_LARGE")
            row, problems = _row(record, currency)
            if problems:
                errors[str(line)] = problems
            elif row["external_id"] in seen:
                skipped += 1
            else:
                seen.add(row["external_id"])
                rows.append(row)
            line = reader.line_num + 1
    except csv.Error as exc:
        raise ImportRejected(f"Line {reader.line_num}: the file is not valid CSV ({exc}).") from None
    return rows, errors, skipped


def _row(record: list[str], currency: str) -> tuple[dict, dict]:
    if len(record) != len(HEADER):
        return {}, {"row": [f"Expected {len(HEADER)} columns, found {len(record)}."]}
    date, description, amount, direction, category, external_id = (cell.strip() for cell in record)
    problems: dict[str, list[str]] = {}
    row: dict = {"currency": currency, "source": Source.SYNCED}

    def check(field, read):
        try:
            return read()
        except ValidationFailed as exc:
            problems[field] = [exc.message]
            return None

    row["occurred_on"] = check("date", lambda: parse_date(date, "date"))
    row["amount"] = check("amount", lambda: parse_money(amount, currency))
    direction = direction.lower() or Transaction.Direction.EXPENSE
    if direction not in Transaction.Direction.values:
        problems["direction"] = ["Must be expense or income."]
    row["direction"] = direction
    category = category.lower() or categories.default_for(direction)
    if category not in categories.ALL:
        problems["category"] = [f"{category!r} is not a category."]
    elif direction in Transaction.Direction.values and not categories.fits(category, direction):
        problems["category"] = [f"{category!r} is not an {direction} category."]
    row["category"] = category
    description = " ".join(description.split())
    if len(description) > 200:
        problems["description"] = ["At most 200 characters."]
    row["description"] = description
    if not external_id:
        problems["external_id"] = ["Required: it is how a re-import knows this row."]
    elif len(external_id) > 100:
        problems["external_id"] = ["At most 100 characters."]
    row["external_id"] = external_id
    if any("\x00" in cell for cell in record):
        problems["row"] = ["Contains a NUL character."]
    return row, problems


def _known_external_ids(user, external_ids: list[str]) -> set[str]:
    known: set[str] = set()
    for start in range(0, len(external_ids), _LOOKUP_CHUNK):
        chunk = external_ids[start : start + _LOOKUP_CHUNK]
        known.update(Transaction.objects.filter(user=user, external_id__in=chunk).values_list("external_id", flat=True))
    return known
