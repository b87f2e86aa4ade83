"""Statement import: any supported format (assets/statements), all or nothing, idempotent, streamed.

The file is read row by row; valid rows are inserted in batches inside one transaction while reading goes
on, and the first bad row stops the inserts (reading continues, to report every bad row), so a rejected file
rolls back whole and an accepted one never sits in memory. Limits: MAX_BYTES and MAX_ROWS (docs/feeds.md).
"""

import io
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from django.db import IntegrityError
from django.db import transaction as db_transaction
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from assets.ledger.models import ImportBatch
from assets.ledger.pairing import transfer_pair_arrivals
from assets.models import Asset, ImportMapping, Source, Transaction
from assets.rules.services import categorize, rules_for
from assets.statements import detect
from assets.statements.read import statement_rows
from assets.statements.rows import ImportRejected, Row, storable_row
from zeus.errors import Conflict, NotFound
from zeus.money import format_number
from zeus.selectors import user_currency
from zeus.services import profile_lock
from zeus.timeutil import user_today

__all__ = ["ImportRejected", "ImportResult", "transactions_import", "transactions_import_csv"]

# A year of a busy account is a few MB in any format; 100,000 rows of CSV about 10 MB.
MAX_BYTES = 32 * 1024 * 1024
MAX_ROWS = 250_000
# OFX, QIF, MT940, XLS and an HTML table are read whole (CAMT, CSV and XLSX stream): a smaller cap keeps that
# bounded.
MAX_WHOLE_FILE_BYTES = 16 * 1024 * 1024
_WHOLE = (detect.OFX, detect.QIF, detect.MT940, detect.XLS, detect.HTML)
# A file with thousands of bad rows would make an unreadable (and huge) report: name the first ones.
MAX_REPORTED_ROWS = 100
BATCH = 2_000


@dataclass(frozen=True)
class ImportResult:
    imported: int
    skipped: int
    format: str = detect.CSV


def transactions_import_csv(*, user, text: str) -> ImportResult:
    """The same import from text already in memory (tests, small callers)."""
    try:
        raw = text.encode("utf-8")
    except UnicodeEncodeError:
        raise ImportRejected(_("The file is not UTF-8 text."), code="CSV_NOT_UTF8") from None
    return transactions_import(user=user, source=io.BytesIO(raw))


def upload_refused(why: str) -> ImportRejected:
    """A statement upload refused before it is read (`too_large`, `missing`, `bad_mapping`), in the reader's
    language: for the REST upload as for the service."""
    if why == "too_large":
        return ImportRejected(
            _("The file is larger than %(value)s MB.") % {"value": MAX_BYTES // (1024 * 1024)}, code="CSV_TOO_LARGE"
        )
    if why == "missing":
        return ImportRejected(
            _("Send the statement as the multipart field `file` or as the request body."),
            code="CSV_MISSING",
            fields={"file": [_("No file was sent.")]},
        )
    return ImportRejected(_("mapping must be JSON."), code="MAPPING_INVALID", fields={"mapping": [_("Not JSON.")]})


def transactions_import(
    *, user, source: BinaryIO, mapping: dict | None = None, asset_id=None, filename: str = ""
) -> ImportResult:
    """Imports a statement file (a seekable binary file) as synced transactions. `mapping` maps a bank CSV's
    or XLSX's columns (remembered per user and header for next time); `asset_id` files the rows under an
    asset."""
    size = source.seek(0, io.SEEK_END)
    source.seek(0)
    if size > MAX_BYTES:
        raise upload_refused("too_large")
    asset = _own_asset(user, asset_id)
    currency = asset.currency if asset else user_currency(user)
    head = source.read(detect.HEAD_BYTES)
    source.seek(0)
    if not head.strip():
        raise ImportRejected(_("The file is empty."), code="CSV_EMPTY")
    kind = detect.detect(head)
    if kind in _WHOLE and size > MAX_WHOLE_FILE_BYTES:
        raise ImportRejected(
            _("%(upper)s files are read whole: at most %(value)s MB.")
            % {"upper": kind.upper(), "value": MAX_WHOLE_FILE_BYTES // (1024 * 1024)},
            code="CSV_TOO_LARGE",
        )
    rows, remember = statement_rows(
        source,
        kind=kind,
        head=head,
        currency=currency,
        mapping=mapping,
        saved=_saved_mapping(user),
        today=user_today(user),
        card_account=asset is not None and asset.kind == Asset.Kind.CREDIT_CARD,
    )
    return _land(user, rows, kind=kind, asset=asset, remember=remember, filename=filename)


def _saved_mapping(user):
    def saved(key: str) -> dict | None:
        return ImportMapping.objects.filter(user=user, header_key=key).values_list("mapping", flat=True).first()

    return saved


def _own_asset(user, asset_id) -> Asset | None:
    if asset_id in (None, ""):
        return None
    try:
        return Asset.objects.get(user=user, id=int(asset_id))
    except (Asset.DoesNotExist, TypeError, ValueError):
        raise NotFound(_("No such asset."), fields={"asset": [_("No such asset.")]}) from None


def _land(
    user,
    rows: Iterator[Row],
    *,
    kind: str,
    asset: Asset | None,
    remember: tuple[str, dict] | None = None,
    filename: str = "",
) -> ImportResult:
    errors: dict[str, dict] = {}
    error_count = 0
    pending: list[Row] = []
    imported = total = 0
    with db_transaction.atomic():
        # One import at a time per user: a second upload of the same file waits, then sees every
        # external_id as known, rather than colliding with the first on the unique constraint.
        profile_lock(user=user)
        rules = rules_for(user=user)
        # The file's ids landed so far: a repeat within the file is skipped like one the ledger holds.
        seen: set[str | None] = set()
        # Every import is one batch: deleting it removes exactly the rows it added (docs/ledger.md).
        batch_record = ImportBatch.objects.create(user=user, format=kind, filename=filename[:200], asset=asset)
        landed: list[int] = []

        def land(rows: list[Row]) -> int:
            fresh = _fresh_rows(user, rows, seen)
            return _insert([_transaction(user, row, rules, asset, batch_record) for row in fresh], landed)

        try:
            for row in rows:
                total += 1
                if total > MAX_ROWS:
                    raise ImportRejected(
                        _("The file has more than %(MAX_ROWS)s rows.")
                        % {"MAX_ROWS": format_number(MAX_ROWS, locale=get_language())},
                        code="CSV_TOO_LARGE",
                    )
                storable_row(row)
                if row.problems:
                    error_count += 1
                    if len(errors) < MAX_REPORTED_ROWS:
                        errors[row.key] = row.problems
                    continue
                if error_count:
                    continue  # the file is rejected already; read on only to report its other bad rows
                pending.append(row)
                if len(pending) >= BATCH:
                    imported += land(pending)
                    pending = []
        except UnicodeDecodeError:
            raise ImportRejected(
                _("The file's text is not in the encoding it starts in; save it as CSV UTF-8."), code="CSV_NOT_UTF8"
            ) from None
        except ArithmeticError:
            # A figure a parser could not compare or convert (a NaN met by `<`, an overflow): the file's fault.
            raise ImportRejected(
                _("A figure in the file is not a number Zeus can store."), code=f"INVALID_{kind.upper()}"
            ) from None
        if error_count:
            said = ngettext(
                "%(error_count)s row could not be read, so nothing was imported.",
                "%(error_count)s rows could not be read, so nothing was imported.",
                error_count,
            ) % {"error_count": error_count}
            if error_count > MAX_REPORTED_ROWS:
                said += " " + _("The first %(listed)s are listed.") % {"listed": MAX_REPORTED_ROWS}
            raise ImportRejected(
                said,
                code=f"INVALID_{kind.upper()}",
                fields={"rows": errors},
            )
        imported += land(pending)
        ImportBatch.objects.filter(pk=batch_record.pk).update(imported=imported, skipped=total - imported)
        if asset is not None:  # rows on no account are never one side of a transfer
            transfer_pair_arrivals(user_id=user.pk, transaction_ids=landed)
        # The mapping is remembered in the rows' transaction: the answer comes after the one commit it reports.
        if remember is not None:
            ImportMapping.objects.update_or_create(user=user, header_key=remember[0], defaults={"mapping": remember[1]})
    return ImportResult(imported=imported, skipped=total - imported, format=kind)


def _transaction(user, row: Row, rules, asset, batch_record: ImportBatch) -> Transaction:
    category = (
        row.category
        or categorize(rules=rules, text=row.description, amount=row.amount, direction=row.direction).category
    )
    # By id: assigning the user, asset and batch objects would run Django's related-object checks every row.
    return Transaction(
        user_id=user.pk,
        amount=row.amount,
        currency=row.currency,
        direction=row.direction,
        description=row.description,
        category=category,
        occurred_on=row.occurred_on,
        asset_id=asset.pk if asset else None,
        source=Source.SYNCED,
        external_id=row.external_id,
        import_batch_id=batch_record.pk,
    )


def _insert(batch: list[Transaction], landed: list[int]) -> int:
    if not batch:
        return 0
    try:
        Transaction.objects.bulk_create(batch, batch_size=BATCH)
    except IntegrityError:
        # A row with one of these ids landed since the ids were read (a bank feed's delivery): the whole
        # import rolls back with this error.
        raise Conflict(
            _("Some of these transactions were being imported at the same moment; try again."), code="IMPORT_CONFLICT"
        ) from None
    landed.extend(txn.pk for txn in batch)
    return len(batch)


def _fresh_rows(user, rows: list[Row], seen: set[str | None]) -> list[Row]:
    """The rows of one batch whose external id neither the ledger nor an earlier row of the file holds, in
    the file's order; their ids join `seen`. The ledger is asked for this batch's ids only, on the unique
    (user, external_id) index, so an import costs the file's size whatever the user's history. Under the
    import's lock no other import adds ids meanwhile."""
    ids = {row.external_id for row in rows if row.external_id is not None}
    known = set(
        Transaction.objects.filter(user=user, external_id__isnull=False, external_id__in=ids).values_list(
            "external_id", flat=True
        )
    )
    fresh = []
    for row in rows:
        if row.external_id in known or row.external_id in seen:
            continue
        seen.add(row.external_id)
        fresh.append(row)
    return fresh
