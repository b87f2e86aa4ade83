"""What each app declares about the rows it keeps for a user (see the package's docstring for why a registry).

An app calls `register(Record(...))` for every model that belongs to a user, and `register_file(...)` for a
file of its own in the export (the ledger's CSV), from its `AppConfig.ready()`. Registration is idempotent by
label or name: `ready()` may run more than once in tests.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

from django.apps import apps


@dataclass(frozen=True)
class Record:
    label: str  # "assets.Transaction"
    owner: str  # the ORM lookup from the model to its user: "user", "thread__user", "transaction__user"
    exported: bool = True
    reason: str = ""  # why the rows are not exported (they are still erased); required when exported is False
    restored: bool = True  # re-created by an import; False for rows that cannot work without what was omitted
    omit: tuple[str, ...] = ()  # fields that never leave the server: secrets, tokens, their hashes
    # A bare id column that names a row of another exported model (no ForeignKey): remapped on restore.
    references: dict[str, str] = field(default_factory=dict)
    # A field whose value must be new in a restored copy (a globally unique code): field → a maker of one.
    fresh: dict[str, Callable[[], object]] = field(default_factory=dict)
    credential: bool = False  # a way in (a token, a session): deleted the moment erasure is requested
    webhook_token: str = ""  # the field holding a webhook URL's token: retired at erasure, so the URL answers 410

    def __post_init__(self):
        if not self.exported and not self.reason:
            raise ValueError(f"{self.label}: a record that is not exported says why (reason=...).")

    @property
    def model(self):
        return apps.get_model(self.label)

    @property
    def installed(self) -> bool:
        app_label, _, name = self.label.partition(".")
        try:
            apps.get_model(app_label, name)
        except LookupError:
            return False
        return True

    def rows(self, user):
        return self.model._default_manager.filter(**{self.owner: user})


@dataclass(frozen=True)
class ExportFile:
    """A file an app adds to the export beside the JSON records (the ledger as CSV)."""

    name: str  # its path inside the ZIP: "csv/transactions.csv"
    build: Callable  # (user) -> str


_RECORDS: dict[str, Record] = {}
_FILES: dict[str, ExportFile] = {}


def register(record: Record) -> None:
    _RECORDS[record.label] = record


def register_file(export_file: ExportFile) -> None:
    _FILES[export_file.name] = export_file


def records() -> list[Record]:
    """Every declared record whose model is installed (a declaration for an optional app is kept out)."""
    return [r for _, r in sorted(_RECORDS.items()) if r.installed]


def record_for(label: str) -> Record | None:
    record = _RECORDS.get(label)
    return record if record is not None and record.installed else None


def exported() -> list[Record]:
    return [r for r in records() if r.exported]


def export_files() -> list[ExportFile]:
    return [f for _, f in sorted(_FILES.items())]


def restore_order(labels: list[str]) -> list[str]:
    """The labels in an order where each model's non-null foreign keys point at models already made; a nullable
    key that points later (the ledger's transaction ↔ transfer) is filled in after every row exists."""
    remaining = sorted(labels)
    placed: list[str] = []
    while remaining:
        ready = [label for label in remaining if _needs(label, remaining, strict=False) == set()]
        if not ready:
            ready = [label for label in remaining if _needs(label, remaining, strict=True) == set()]
        if not ready:
            raise ValueError(f"no order makes these: {remaining}")
        placed.append(ready[0])
        remaining.remove(ready[0])
    return placed


def _needs(label: str, among: list[str], *, strict: bool) -> set[str]:
    """The labels among `among` that `label`'s foreign keys point at (only the non-null ones when strict)."""
    model = apps.get_model(label)
    references = _RECORDS[label].references if label in _RECORDS else {}
    out = set()
    for f in model._meta.concrete_fields:
        if strict and f.null:
            continue
        target = f.related_model._meta.label if f.is_relation else references.get(f.attname)
        if target is not None and target != label and target in among:
            out.add(target)
    return out
