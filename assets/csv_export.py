"""The words of the ledger's CSV export: its header, as code names or in the reader's language."""

from django.utils.translation import gettext as _

from assets import labels

BOM = "\ufeff"
# `transfer`: the transfer's id when the row moved money between the user's own accounts (it counts nowhere).
HEADER = [
    "date", "description", "amount", "currency", "direction", "category", "account", "source", "external_id",
    "transfer",
]  # fmt: skip


def local_header() -> list[str]:
    return [
        _("Date"),
        _("Description"),
        _("Amount"),
        _("Currency"),
        _("Direction"),
        _("Category"),
        _("Account"),
        _("Source"),
        _("Reference"),
        _("Transfer"),
    ]


def direction_label(code: str) -> str:
    return str(labels.DIRECTION.get(code, code))


def category_label(code: str) -> str:
    return labels.category_label(code) if code else ""
