"""What a shared or uploaded file is, from its bytes: a name or a browser's content type only says what the
file claims to be, and a file whose bytes say otherwise is refused rather than guessed at.

Sizes follow what reads each kind: the Messages API takes an image of at most 5 MB in base64 (3.75 MB of
bytes) and a request of at most 32 MB (a PDF's base64 and the rest); the statement importers read an XLSX whole,
up to their own cap (assets/importing.py)."""

import hashlib
import os
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from assets.importing import MAX_WHOLE_FILE_BYTES
from assets.statements.detect import HEAD_BYTES, detect
from assets.statements.rows import ImportRejected
from zeus.errors import ZeusError

IMAGE, PDF, STATEMENT = "image", "pdf", "statement"
IMAGE_TYPES = ("image/jpeg", "image/png", "image/webp", "image/gif")
MAX_IMAGE_BYTES = 3_750_000
MAX_PDF_BYTES = 10 * 1024 * 1024
MAX_STATEMENT_BYTES = MAX_WHOLE_FILE_BYTES
MAX_BYTES = max(MAX_IMAGE_BYTES, MAX_PDF_BYTES, MAX_STATEMENT_BYTES)
# A request carries one file and a multipart envelope (a share sheet's title and text besides).
MAX_BODY_BYTES = MAX_BYTES + 256 * 1024
ACCEPTED = gettext_lazy(
    "a JPEG, PNG, WebP or GIF image, a PDF, or a statement file (XLSX, CSV, OFX, QIF, CAMT, MT940, Norma 43, CODA, "
    "CFONB 120, BAI2, 1C client-bank exchange)"
)

# What a name's extension or a declared content type claims, by the media type it claims.
_EXTENSIONS = {
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".png": "image/png",
    ".webp": "image/webp",
    ".gif": "image/gif",
    ".pdf": "application/pdf",
    ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}
_STATEMENT_TYPES = {
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "ofx": "application/x-ofx",
    "qif": "application/qif",
    "mt940": "text/plain",
    "norma43": "text/plain",
    "coda": "text/plain",
    "cfonb120": "text/plain",
    "bai2": "text/plain",
    "1c": "text/plain",
    "csv": "text/csv",
}


class CaptureRejected(ZeusError):
    status = 400
    code = "CAPTURE_UNSUPPORTED"


class CaptureTooLarge(CaptureRejected):
    status = 413
    code = "CAPTURE_TOO_LARGE"


@dataclass(frozen=True)
class Sniffed:
    kind: str  # IMAGE, PDF or STATEMENT
    media_type: str
    size: int
    sha256: str


def _claimed(name: str, content_type: str) -> set[str]:
    claims = set()
    extension = os.path.splitext(name or "")[1].lower()
    if extension in _EXTENSIONS:
        claims.add(_EXTENSIONS[extension])
    if (content_type or "").lower() in _EXTENSIONS.values():
        claims.add(content_type.lower())
    return claims


def _media_type(head: bytes) -> tuple[str, str]:
    # Imported with the first file read, not at start: the package loads a matcher module per file type, and
    # every process imports this module with the URL conf (tests/test_startup.py).
    import filetype

    guess = filetype.guess(head)
    mime = guess.mime if guess else ""
    if mime in IMAGE_TYPES:
        return IMAGE, mime
    if mime == "application/pdf":
        return PDF, mime
    try:
        statement = detect(head)
    except ImportRejected as exc:
        raise CaptureRejected(
            _("This file is not %(ACCEPTED)s.") % {"ACCEPTED": ACCEPTED}, code="CAPTURE_UNSUPPORTED"
        ) from exc
    if statement in ("xls", "html"):
        # An old Excel workbook, or a bank's HTML table under an .xls name, is imported from the import page; a
        # capture keeps XLSX, CSV and the text formats.
        raise CaptureRejected(_("This file is not %(ACCEPTED)s.") % {"ACCEPTED": ACCEPTED}, code="CAPTURE_UNSUPPORTED")
    if statement == "csv" and guess is not None:
        # Some other binary (an archive, a video, an executable): the CSV reader is the importers' fallback,
        # not a claim that these bytes are text.
        raise CaptureRejected(_("This file is not %(ACCEPTED)s.") % {"ACCEPTED": ACCEPTED}, code="CAPTURE_UNSUPPORTED")
    return STATEMENT, _STATEMENT_TYPES.get(statement, "application/xml")


def sniff(upload, *, name: str = "", content_type: str = "") -> Sniffed:
    """The upload's kind and media type from its magic bytes, its size and digest (read in chunks, so a
    large file is never held whole). Refuses a file over its kind's size, one whose bytes are none of the
    accepted kinds, and one whose name or declared type says another kind than its bytes."""
    size = getattr(upload, "size", None)
    if size is not None and size > MAX_BYTES:
        raise CaptureTooLarge(_("The file is larger than %(value)s MB.") % {"value": MAX_BYTES // (1024 * 1024)})
    upload.seek(0)
    head = upload.read(HEAD_BYTES)
    if not head:
        raise CaptureRejected(_("The file is empty."), code="CAPTURE_EMPTY")
    kind, media_type = _media_type(head)
    claims = _claimed(name, content_type)
    if claims and media_type not in claims:
        raise CaptureRejected(
            _("The file's name or type says %(value)s, but its bytes are %(media_type)s.")
            % {"value": ", ".join(sorted(claims)), "media_type": media_type},
            code="CAPTURE_TYPE_MISMATCH",
        )
    digest = hashlib.sha256(head)
    total = len(head)
    limit = {IMAGE: MAX_IMAGE_BYTES, PDF: MAX_PDF_BYTES}.get(kind, MAX_STATEMENT_BYTES)
    while chunk := upload.read(256 * 1024):
        total += len(chunk)
        if total > limit:
            raise CaptureTooLarge(
                _("A file of this kind is at most %(value)s MB.") % {"value": format(limit / 1000000, ".2f")}
            )
        digest.update(chunk)
    upload.seek(0)
    return Sniffed(kind=kind, media_type=media_type, size=total, sha256=digest.hexdigest())
