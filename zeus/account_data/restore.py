"""An export put back into an empty account: every id new, every relation kept, every figure the same.

The archive is read whole and checked before anything is written (its size packed and unpacked, each member
read with a bound of its own rather than trusting the sizes its headers claim, a manifest of ours); the rows are
then written in one transaction with the user's profile locked, so two imports into one account cannot both
find it empty, and any row the database refuses undoes them all. Rows are copied as they were stored (no
service re-derives them), so a figure computed from them is the figure the export was taken from.
"""

import hashlib
import uuid
import zipfile
import zlib

from django.conf import settings
from django.core import signing
from django.db import DataError, IntegrityError, transaction
from django.utils.translation import gettext as _

from zeus.account_data.export import FORMAT, MANIFEST, VERSION, seal_open
from zeus.account_data.registry import record_for, records, restore_order
from zeus.account_data.rows import BadValue, decode
from zeus.errors import Conflict, ZeusError
from zeus.services import profile_lock
from zeus.text import parse_json, unstorable_path

MAX_ARCHIVE_BYTES = 64 * 1024 * 1024
MAX_UNPACKED_BYTES = 512 * 1024 * 1024
MAX_MEMBERS = 1000
# Deflate packs repetitive JSON about 10 to 30 fold; far beyond that is a bomb, not a ledger.
MAX_RATIO = 200


class ImportRejected(ZeusError):
    status = 400
    code = "INVALID_ARCHIVE"


def archive_read(upload) -> tuple[dict, dict[str, list[dict]]]:
    """(manifest, rows per label) from an uploaded file, or ImportRejected with a code saying what is wrong."""
    upload.seek(0, 2)
    size = upload.tell()
    upload.seek(0)
    if size > MAX_ARCHIVE_BYTES:
        raise ImportRejected(
            _("The archive is larger than %(value)s MB.") % {"value": MAX_ARCHIVE_BYTES // (1024 * 1024)},
            code="ARCHIVE_TOO_LARGE",
        )
    try:
        with zipfile.ZipFile(upload) as archive:
            return _read(archive)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError, OSError):
        raise ImportRejected(_("This file is not a readable ZIP archive."), code="INVALID_ARCHIVE") from None


def _read(archive: zipfile.ZipFile) -> tuple[dict, dict[str, list[dict]]]:
    members = archive.infolist()
    if len(members) > MAX_MEMBERS:
        raise ImportRejected(_("The archive holds too many files."), code="ARCHIVE_TOO_LARGE")
    if sum(m.file_size for m in members) > MAX_UNPACKED_BYTES:
        raise ImportRejected(_("The archive unpacks to more than Zeus accepts."), code="ARCHIVE_TOO_LARGE")
    for member in members:
        if member.file_size > 1024 * 1024 and member.file_size > MAX_RATIO * max(member.compress_size, 1):
            raise ImportRejected(
                _("%(value)s unpacks far beyond its size: refused.") % {"value": member.filename[:100]},
                code="ARCHIVE_BOMB",
            )
    names = {m.filename: m for m in members}
    if MANIFEST not in names:
        raise ImportRejected(_("This archive is not a Zeus export (it has no manifest)."), code="NOT_A_ZEUS_EXPORT")
    manifest = _json(archive, names[MANIFEST])
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ImportRejected(_("This archive is not a Zeus export."), code="NOT_A_ZEUS_EXPORT")
    if manifest.get("version") != VERSION:
        raise ImportRejected(
            _("Zeus reads exports of version %(VERSION)s only.") % {"VERSION": VERSION}, code="UNSUPPORTED_VERSION"
        )
    account, counts = manifest.get("account"), manifest.get("records")
    if not isinstance(account, dict) or not isinstance(counts, dict):
        raise ImportRejected(_("The manifest is incomplete."), code="NOT_A_ZEUS_EXPORT")
    try:
        sealed = seal_open(manifest.get("seal"))
    except signing.BadSignature:
        raise ImportRejected(
            _("This archive was not written by this Zeus, or was changed since."), code="ARCHIVE_ALTERED"
        ) from None
    if sealed.get("records") != counts or sealed.get("account") != account.get("id"):
        raise ImportRejected(_("The manifest was changed since the export."), code="ARCHIVE_ALTERED")
    digests = sealed.get("digests") or {}
    data = {}
    for label in counts:
        record = record_for(str(label))
        if record is None or not record.exported:
            raise ImportRejected(
                _("Unknown record type %(value)r.") % {"value": str(label)[:100]}, code="UNKNOWN_RECORD_TYPE"
            )
        name = f"records/{label}.json"
        member = names.get(name)
        rows = _json(archive, member, digests.get(name, "")) if member is not None else None
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise ImportRejected(
                _("%(label)s: the rows are missing or not a list of objects.") % {"label": label}, code="INVALID_RECORD"
            )
        data[label] = rows
    return manifest, data


def _json(archive: zipfile.ZipFile, member: zipfile.ZipInfo, digest: str | None = None):
    with archive.open(member) as stream:
        # The header's size is the writer's claim: read one byte past it to catch a member that lies.
        raw = stream.read(member.file_size + 1)
    if len(raw) > member.file_size:
        raise ImportRejected(
            _("%(filename)s is longer than its header says.") % {"filename": member.filename}, code="ARCHIVE_BOMB"
        )
    if digest is not None and hashlib.sha256(raw).hexdigest() != digest:  # None: the manifest, which the seal covers
        raise ImportRejected(
            _("%(value)s was changed since the export.") % {"value": member.filename[:100]}, code="ARCHIVE_ALTERED"
        )
    try:
        data = parse_json(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ImportRejected(
            _("%(filename)s is not valid JSON.") % {"filename": member.filename}, code="INVALID_RECORD"
        ) from None
    bad = unstorable_path(data)
    if bad is not None:
        raise ImportRejected(
            _("%(filename)s: text at %(value)s holds a NUL character.")
            % {"filename": member.filename, "value": bad[:100]},
            code="INVALID_RECORD",
        )
    return data


def _singleton(record) -> bool:
    """One row per user (the profile): restored over the row a new account already has."""
    field = record.model._meta.get_field(record.owner) if "__" not in record.owner else None
    return field is not None and field.one_to_one


def restored_records() -> list:
    return [r for r in records() if r.exported and r.restored]


def account_is_empty(*, user) -> bool:
    return not any(r.rows(user).exists() for r in restored_records() if not _singleton(r))


def account_import(*, user, upload) -> dict[str, int]:
    """Restores an export into `user`'s account, which must hold nothing yet; returns the rows made per type."""
    manifest, data = archive_read(upload)
    try:
        with transaction.atomic():
            profile_lock(user=user)
            if not account_is_empty(user=user):
                raise Conflict(_("An export can be imported only into an empty account."), code="ACCOUNT_NOT_EMPTY")
            return _Restore(user=user, old_user=manifest["account"].get("id"), data=data).run()
    except (IntegrityError, DataError) as exc:
        raise ImportRejected(
            _("The database refused a record of this archive: %(value)s") % {"value": str(exc).splitlines()[0][:200]},
            code="INVALID_RECORD",
        ) from None


class _Restore:
    def __init__(self, *, user, old_user, data: dict[str, list[dict]]):
        self.user = user
        self.old_user = str(old_user)
        self.data = data
        self.labels = [label for label in data if record_for(label).restored]
        self.ids: dict[str, dict[str, object]] = {}  # label → old id (as text) → new primary key
        self.later: list[tuple] = []  # (obj, field, target label, old id): nullable keys to rows made later

    def run(self) -> dict[str, int]:
        counts = {}
        for label in restore_order(self.labels):
            counts[label] = self._restore(record_for(label), self.data[label])
        self._fill_later()
        return counts

    def _restore(self, record, rows: list[dict]) -> int:
        model = record.model
        fields = {f.attname: f for f in model._meta.concrete_fields if not f.primary_key}
        stamped = [a for a, f in fields.items() if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)]
        objs, olds, stamps = [], [], []
        for n, row in enumerate(rows):
            where = f"{record.label}[{n}]"
            unknown = set(row) - set(fields) - {"id"}
            if unknown or "id" not in row:
                what = _("unknown field “%(field)s”") % {"field": sorted(unknown)[0][:60]} if unknown else _("no id")
                raise ImportRejected(f"{where}: {what}.", code="INVALID_RECORD")
            obj = model()
            for attname, f in fields.items():
                if f.name in record.omit or attname not in row:
                    continue
                try:
                    setattr(obj, attname, self._value(record, obj, f, row[attname]))
                except BadValue as exc:
                    raise ImportRejected(f"{where}: {exc}", code="INVALID_RECORD") from None
            objs.append(obj)
            olds.append(str(row["id"]))
            stamps.append({a: getattr(obj, a) for a in stamped})
        if len(set(olds)) != len(olds):
            raise ImportRejected(_("%(label)s: two rows share an id.") % {"label": record.label}, code="INVALID_RECORD")
        if _singleton(record):
            record.rows(self.user).delete()
        made = model._default_manager.bulk_create(objs, batch_size=1000)
        # bulk_create stamps auto_now(_add) columns with the present; the export's times are put back.
        for obj, kept in zip(made, stamps, strict=True):
            for attname, value in kept.items():
                setattr(obj, attname, value)
        if stamped and made:
            model._default_manager.bulk_update(made, [fields[a].name for a in stamped], batch_size=1000)
        self.ids[record.label] = {old: obj.pk for old, obj in zip(olds, made, strict=True)}
        return len(made)

    def _value(self, record, obj, f, value):
        if f.name in record.fresh:
            return record.fresh[f.name]()
        target = None
        if f.is_relation:
            target = f.related_model._meta.label
        elif f.attname in record.references:
            target = record.references[f.attname]
        if target is None:
            return decode(f, value)
        if value is None:
            return decode(f, None)
        if target == settings.AUTH_USER_MODEL:
            if str(value) != self.old_user:
                if f.null:
                    return None  # someone else (staff) acted on the row: not carried into another account
                raise BadValue(f.attname, _("names another account"))
            return self.user.pk
        if target in self.ids:
            new = self.ids[target].get(str(value))
            if new is None:
                words = _("names %(target)s %(value)s, which the archive does not hold")
                raise BadValue(f.attname, words % {"target": target, "value": str(value)[:40]})
            return new
        if target in self.labels and f.null:
            self.later.append((obj, f, target, str(value)))
            return None
        if f.null:
            return None  # a row the export leaves out (an admin's reply): the link is not carried over
        if not f.is_relation and f.get_internal_type() == "UUIDField":
            return uuid.uuid4()  # a bare id of a row long gone (a deleted thread's approval): it stays gone
        raise BadValue(f.attname, _("names %(target)s, which the archive does not hold") % {"target": target})

    def _fill_later(self) -> None:
        changed: dict[tuple, list] = {}
        for obj, f, target, old in self.later:
            new = self.ids.get(target, {}).get(old)
            if new is None:
                raise ImportRejected(
                    _("%(label)s.%(attname)s names %(target)s %(value)s, which the archive does not hold.")
                    % {"label": obj._meta.label, "attname": f.attname, "target": target, "value": old[:40]},
                    code="INVALID_RECORD",
                )
            setattr(obj, f.attname, new)
            changed.setdefault((obj._meta.label, f.name), []).append(obj)
        for (label, name), objs in changed.items():
            record_for(label).model._default_manager.bulk_update(objs, [name], batch_size=1000)
