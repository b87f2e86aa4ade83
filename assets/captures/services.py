"""Captures made and closed. A capture is all or nothing: the file is sniffed, read (the model for an image
or a PDF, the statement importers in a dry run for a statement file) and checked before anything is written;
then the file, its row and its drafts are stored together, and the file is removed again if the rows cannot
be. Its drafts are bank-text drafts, confirmed or discarded through assets.banktexts like any other."""

import datetime as dt
import os
from decimal import Decimal

from django.db import transaction as db_transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from assets.banktexts.services import bank_text_draft_from_parsed
from assets.captures import reader
from assets.captures.answer import CaptureAnswerInvalid, Reading, reading_from_answer
from assets.captures.files import STATEMENT, Sniffed, sniff
from assets.captures.models import Capture
from assets.importing import ImportResult, transactions_import
from assets.models import BankTextDraft
from zeus.errors import Conflict, NotFound
from zeus.services import profile_lock
from zeus.text import parse_json
from zeus.timeutil import user_tz
from zeus.validation import record_id


class CaptureDuplicate(Conflict):
    code = "CAPTURE_DUPLICATE"


class _DryRun(Exception):
    def __init__(self, result: ImportResult):
        self.result = result


def _name(name: str) -> str:
    """The shared file's own name, for its owner to recognise it: the last path part, printable, short."""
    base = os.path.basename((name or "").replace("\\", "/"))
    return "".join(c for c in base if c.isprintable() and not 0xD800 <= ord(c) <= 0xDFFF)[:200]


def _answer_json(answer) -> object:
    """A reader may hand back the model's text or its parsed JSON; numbers are read as Decimal either way."""
    if isinstance(answer, str | bytes):
        try:
            # Depth-bounded: json.loads recurses, and a reply nesting brackets deep enough was a RecursionError.
            return parse_json(answer.decode() if isinstance(answer, bytes) else answer, parse_float=Decimal)
        except ValueError as exc:
            raise CaptureAnswerInvalid(_("The model's reading of this file is not JSON.")) from exc
    return answer


def capture_read(*, user, sniffed: Sniffed, data: bytes, now: dt.datetime | None = None) -> Reading:
    """What the model reads in an image or a PDF, checked (answer.py); writes nothing."""
    answer = _answer_json(reader.read(user=user, kind=sniffed.kind, media_type=sniffed.media_type, data=data))
    tz = user_tz(user)
    return reading_from_answer(answer, today=(now or timezone.now()).astimezone(tz).date(), tz=tz)


def _statement_preview(user, upload, name: str) -> ImportResult:
    """What importing the statement would do, by the importers' own rules, rolled back: a file they refuse
    (a zip bomb, rows in error, too many rows) is refused now, before it is kept."""
    try:
        with db_transaction.atomic():
            upload.seek(0)
            raise _DryRun(transactions_import(user=user, source=upload, filename=name))
    except _DryRun as dry:
        return dry.result


def _already_kept(user, sniffed: Sniffed) -> None:
    """The same bytes shared again while their first capture stands: pointed at it, not read twice."""
    known = (
        Capture.objects.filter(user=user, sha256=sniffed.sha256)
        .exclude(status=Capture.Status.DISCARDED)
        .values_list("id", flat=True)
        .first()
    )
    if known is not None:
        raise CaptureDuplicate(
            _("This file was already shared; its drafts are on its capture."), fields={"capture": [str(known)]}
        )


def _store(user, upload, sniffed: Sniffed, name: str, fill) -> Capture:
    capture = Capture(
        user=user,
        kind=sniffed.kind,
        media_type=sniffed.media_type,
        name=name,
        size=sniffed.size,
        sha256=sniffed.sha256,
    )
    try:
        with db_transaction.atomic():
            # One user's captures one at a time from here: two shares of the same file, read side by side, keep
            # one capture, and the second is told where it is.
            profile_lock(user=user)
            _already_kept(user, sniffed)
            upload.seek(0)
            capture.file.save("capture", upload, save=False)
            fill(capture)
    except BaseException:
        if capture.file.name:
            capture.file.storage.delete(capture.file.name)
        raise
    return capture


def capture_create(*, user, upload, name: str = "", content_type: str = "", now: dt.datetime | None = None) -> Capture:
    """A shared or uploaded file → a capture: an image or a PDF with its drafts (status `drafted`), or a
    statement file waiting for its owner to import it (status `pending`, with what the import would do)."""
    name = _name(name or getattr(upload, "name", ""))
    sniffed = sniff(upload, name=name, content_type=content_type)
    _already_kept(user, sniffed)
    if sniffed.kind == STATEMENT:
        preview = _statement_preview(user, upload, name)

        def fill(capture):
            capture.status = Capture.Status.PENDING
            capture.imported, capture.skipped = preview.imported, preview.skipped
            capture.read_as = "statement"
            capture.save()

        return _store(user, upload, sniffed, name, fill)
    upload.seek(0)
    reading = capture_read(user=user, sniffed=sniffed, data=upload.read(), now=now)

    def fill(capture):
        capture.status = Capture.Status.DRAFTED
        capture.read_as = reading.read_as
        capture.save()
        for row in reading.rows:
            bank_text_draft_from_parsed(user=user, parsed=row, parsed_by=BankTextDraft.ParsedBy.MODEL, capture=capture)

    return _store(user, upload, sniffed, name, fill)


def capture_get(*, user, capture_id) -> Capture:
    capture = Capture.objects.filter(user=user, id=record_id(capture_id)).first()
    if capture is None:
        raise NotFound(_("No such capture."))
    return capture


def capture_with_file(*, user, capture_id) -> Capture:
    capture = capture_get(user=user, capture_id=capture_id)
    if not capture.file:
        raise NotFound(_("This capture's file was discarded."))
    return capture


def _closed(capture: Capture) -> str:
    if capture.status == Capture.Status.IMPORTED:
        return _("This capture was already imported; only a statement waiting to be imported can be.")
    if capture.status == Capture.Status.DISCARDED:
        return _("This capture was discarded; only a statement waiting to be imported can be.")
    return _("This capture was read into drafts; only a statement waiting to be imported can be.")


def _pending(user, capture_id) -> Capture:
    capture = Capture.objects.select_for_update().filter(user=user, id=record_id(capture_id)).first()
    if capture is None:
        raise NotFound(_("No such capture."))
    if capture.kind != STATEMENT or capture.status != Capture.Status.PENDING:
        raise Conflict(_closed(capture), code="CAPTURE_CLOSED")
    return capture


def capture_import(*, user, capture_id) -> Capture:
    """The owner's confirmation of a statement file: its rows land through the statement importers."""
    with db_transaction.atomic():
        capture = _pending(user, capture_id)
        with capture.file.open("rb") as source:
            result = transactions_import(user=user, source=source, filename=capture.name)
        capture.status = Capture.Status.IMPORTED
        capture.imported, capture.skipped = result.imported, result.skipped
        capture.save(update_fields=["status", "imported", "skipped"])
    return capture


def capture_discard(*, user, capture_id) -> Capture:
    """A statement file its owner does not want: the row stays (what was shared, when), the file goes."""
    with db_transaction.atomic():
        capture = _pending(user, capture_id)
        name, storage = capture.file.name, capture.file.storage
        capture.status = Capture.Status.DISCARDED
        capture.file.name = ""
        capture.save(update_fields=["status", "file"])
        db_transaction.on_commit(lambda: storage.delete(name))
    return capture


def capture_for_transaction(*, user, transaction_id) -> Capture | None:
    """The file a transaction was confirmed from, if it came from a capture."""
    draft = (
        BankTextDraft.objects.filter(user=user, transaction_id=record_id(transaction_id), capture__isnull=False)
        .select_related("capture")
        .first()
    )
    return draft.capture if draft else None
