"""The export: one ZIP of every record a user owns (docs/contract/account-data.md).

    manifest.json                 format, version, when, the account's own fields, a count per record type
    records/<app>.<Model>.json    the rows, oldest id first, each field by column name (`asset_id`)
    csv/...                       the files apps add (the ledger as the /transactions.csv export writes it)

Built into a temporary file, then saved to Django's default storage; the job that calls `account_export_build`
claims the row first, so a redelivered task builds nothing twice.
"""

import datetime as dt
import hashlib
import json
import logging
import tempfile
import zipfile

from django.core import signing
from django.core.files import File
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from zeus.account_data.registry import export_files, exported
from zeus.account_data.rows import encode, row_to_dict
from zeus.i18n import user_language
from zeus.models import AccountExport, Notification
from zeus.services import notification_create
from zeus.wording import NotificationWords

log = logging.getLogger(__name__)

FORMAT = "zeus-account-export"
VERSION = 1
KEEP_FOR = dt.timedelta(days=7)
MANIFEST = "manifest.json"
# The manifest's `seal` signs (with the site's SECRET_KEY) the SHA-256 of every member: an import takes back only
# what this Zeus wrote, unaltered, so a row it restores is a row the database once held through the services.
SEAL_SALT = "zeus.account_data.export"


def seal(*, account_id, counts: dict, digests: dict) -> str:
    return signing.dumps({"account": account_id, "records": counts, "digests": digests}, salt=SEAL_SALT)


def seal_open(value) -> dict:
    """The sealed facts of a manifest, or signing.BadSignature."""
    if not isinstance(value, str):
        raise signing.BadSignature("no seal")
    return signing.loads(value, salt=SEAL_SALT)


def download_path(export: AccountExport) -> str:
    return f"/account/exports/{export.id}/download"


def account_fields(user) -> dict:
    """The account row's own fields (never its password): for the reader; a restore keeps the new account's."""
    fields = ("username", "email", "first_name", "last_name", "date_joined", "last_login")
    return {"id": user.pk, **{name: encode(getattr(user, name, None)) for name in fields}}


def archive_write(*, user, out, now: dt.datetime) -> dict[str, int]:
    """Writes the user's export as a ZIP into the binary file `out`; returns the row count per record type."""
    counts: dict[str, int] = {}
    digests: dict[str, str] = {}
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for record in exported():
            name = f"records/{record.label}.json"
            counts[record.label], digests[name] = _write_rows(archive, name, record, user)
        files = []
        for export_file in export_files():
            data = export_file.build(user).encode("utf-8")
            archive.writestr(export_file.name, data)
            digests[export_file.name] = hashlib.sha256(data).hexdigest()
            files.append(export_file.name)
        manifest = {
            "format": FORMAT,
            "version": VERSION,
            "exported_at": now.isoformat(),
            "account": account_fields(user),
            "records": counts,
            "files": files,
            "seal": seal(account_id=user.pk, counts=counts, digests=digests),
        }
        archive.writestr(MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1, sort_keys=True))
    return counts


def _write_rows(archive: zipfile.ZipFile, name: str, record, user) -> tuple[int, str]:
    """Writes one record type's rows as they are read; returns their count and the member's SHA-256."""
    count, digest = 0, hashlib.sha256()
    with archive.open(name, "w", force_zip64=True) as member:

        def write(chunk: bytes) -> None:
            member.write(chunk)
            digest.update(chunk)

        write(b"[")
        for obj in record.rows(user).order_by("pk").iterator(chunk_size=2000):
            line = json.dumps(row_to_dict(obj, record.omit), ensure_ascii=False, sort_keys=True)
            write((b",\n" if count else b"\n") + line.encode())
            count += 1
        write(b"\n]\n")
    return count, digest.hexdigest()


def account_export_build(*, export_id) -> str:
    """The job's work: claims a pending export, writes its ZIP to storage and tells the owner in the inbox."""
    claimed = AccountExport.objects.filter(id=export_id, status=AccountExport.Status.PENDING).update(
        status=AccountExport.Status.RUNNING
    )
    if not claimed:
        return "skipped"
    export = AccountExport.objects.select_related("user").get(id=export_id)
    now = timezone.now()
    try:
        with tempfile.TemporaryFile() as out:
            archive_write(user=export.user, out=out, now=now)
            export.size = out.tell()
            out.seek(0)
            export.file.save(f"{export.user_id}/{export.id}.zip", File(out), save=False)
    except Exception:
        log.exception("building export %s failed", export_id)
        AccountExport.objects.filter(id=export_id).update(status=AccountExport.Status.FAILED, finished_at=now)
        raise
    export.status = AccountExport.Status.READY
    export.finished_at = now
    export.expires_at = now + KEEP_FOR
    with transaction.atomic():
        export.save(update_fields=["status", "file", "size", "finished_at", "expires_at"])
        _tell_owner(export)
    return "ready"


def _tell_owner(export: AccountExport) -> None:
    user = export.user
    with translation.override(user_language(user)):
        words = export_ready_words({})
        notification_create(
            user=user,
            kind=Notification.Kind.ACCOUNT_EXPORT_READY,
            title=words.title,
            body=words.body,
            cta_url=download_path(export),
            dedupe_key=f"account-export:{export.id}",
            facts={"words": "account_export_ready"},
        )


def exports_expire(*, now: dt.datetime) -> int:
    """Deletes the files of exports past their 7 days; the rows stay, so their link answers 410, not 404."""
    expired = AccountExport.objects.filter(expires_at__lte=now).exclude(file="")
    count = 0
    for export in expired.iterator():
        export.file.delete(save=False)
        AccountExport.objects.filter(id=export.id).update(file="")
        count += 1
    return count


def export_ready_words(facts: dict) -> NotificationWords:
    """The export's notice in the active language (its link is stored with it)."""
    return NotificationWords(
        title=_("Your data export is ready"),
        body=_("Download it within 7 days; after that the file is deleted."),
        cta_url="",
    )
