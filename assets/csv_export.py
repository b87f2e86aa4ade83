"""The ledger's CSV export: its header (code names or the reader's language) and its rows, for the
/transactions.csv download and the account export alike; every cell through zeus.spreadsheets' formula-safe
writer."""

import io

from django.utils.translation import gettext as _

from assets import labels
from assets.selectors import transaction_search
from zeus.money import file_text
from zeus.spreadsheets import FormulaSafeWriter

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


class _Echo:
    def write(self, value):
        return value


def csv_lines(transactions, *, local: bool = False):
    """The CSV as lines of text: a byte-order mark and the header, then a row per transaction, oldest rows
    included, read in chunks (a five-year ledger is not held in memory). The header is written now, in the
    language of the request; the rows as they are read."""
    writer = FormulaSafeWriter(_Echo())
    # A byte-order mark first: spreadsheet programs then read the file as UTF-8 ("Phở", not "PhÃ¡»Ÿ").
    header = BOM + writer.writerow(local_header() if local else HEADER)
    return _lines(writer, header, transactions, local)


def _lines(writer, header: str, transactions, local: bool):
    direction = direction_label if local else str
    category = category_label if local else str
    yield header
    # Each row names its account: read with it, not one query per row.
    for txn in transactions.select_related("asset").iterator(chunk_size=2000):
        yield writer.writerow(
            [
                txn.occurred_on.isoformat(),
                txn.description,
                file_text(txn.amount, txn.currency),
                txn.currency,
                direction(txn.direction),
                category(txn.category),
                txn.asset.name if txn.asset else "",
                txn.source,
                txn.external_id or "",
                # The transfer's id: the row moved money between the user's own accounts and counts nowhere.
                txn.transfer_id or "",
            ]
        )


def ledger_csv(user) -> str:
    """The whole ledger as /transactions.csv writes it unfiltered, for the account export."""
    out = io.StringIO()
    out.writelines(csv_lines(transaction_search(user=user)))
    return out.getvalue()
