"""AEB Norma 43 (Cuaderno 43) files, the fixed-width statement every Spanish bank gives, read by the `csb43`
library: an account record (11) names the account and its currency (ISO 4217 numeric), each movement (22) its
booking date (fecha de operación; the value date is the interest's), a signed amount and references, its
complementary records (23) its text. The format gives no id of a movement's own, so rows get fingerprints."""

import io
from collections.abc import Iterator
from typing import BinaryIO

from django.utils.translation import gettext as _

from assets.statements.records import lines_of, refused, runs
from assets.statements.rows import Fingerprints, Row, fingerprinted_row

CODE = "INVALID_NORMA43"


def _batch(run: list[bytes]):
    from csb43.aeb43 import read_batch  # loaded only when a Norma 43 file arrives
    from csb43.aeb43.record.context import Aeb43Context

    # Not strict: a reference that fails its check digit or a trimmed record is a warning, not a refusal; what
    # the library cannot read at all (a figure or date that is none, a record of the wrong length) it raises.
    context = Aeb43Context(strict=False, silent=True, encoding="latin-1", sepa=False)
    try:
        return read_batch(io.BytesIO(b"\n".join(run)), context=context)
    except Exception as exc:  # ValidationException, ValueError from a date, and the like
        raise refused("Norma 43", exc, CODE) from None


def _text(movement) -> str:
    # A complementary record's two 38-character concepts are one text cut at the 38th character ("SHOP TO B" and
    # "UY SEVERAL"): the record as written, not its two trimmed halves.
    items = [bytes(item)[4:].decode("latin-1") for item in movement.optional_items or ()]
    return " ".join(items) or " ".join(p for p in (movement.reference1, movement.reference2) if p.strip("0 "))


def norma43_rows(source: BinaryIO) -> Iterator[Row]:
    fingerprint = Fingerprints("norma43")
    index = 0
    read = False
    for run in runs(
        lines_of(source),
        opens=lambda record: record.startswith(b"11"),
        heads=1,
        starts=lambda record: record.startswith(b"22"),
    ):
        batch = _batch(run)
        rows = []
        # The library reads a field when it is asked for it: a date or currency that is none raises here.
        try:
            for account in batch.accounts or ():
                read = True
                currency = account.currency.alpha_3 if account.currency else ""
                for movement in account.transactions or ():
                    if movement.amount == 0:
                        continue  # a zero movement (a cancelled charge, a note) moves no money
                    index += 1
                    rows.append(_row(movement, index, currency, fingerprint))
        except Exception as exc:  # ValidationException, ValueError from a date, KeyError from a currency code
            raise refused("Norma 43", exc, CODE) from None
        yield from rows
    if not read:
        # An account with no movements is a day with nothing booked; a file with no account is no statement.
        raise refused("Norma 43", _("it names no account (record 11)"), CODE)


def _row(movement, index: int, currency: str, fingerprint: Fingerprints) -> Row:
    return fingerprinted_row(
        f"movement {index}",
        occurred_on=movement.transaction_date,
        amount=movement.amount,
        currency=currency,
        description=_text(movement),
        fingerprint=fingerprint,
    )
