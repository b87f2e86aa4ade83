"""French CFONB 120 files (the "relevé de compte 120 caractères" every French bank gives), read by the
`python-cfonb` library: an old balance (01) opens an account's statement, each movement (04) carries its
booking date (date d'opération; the value date is the interest's), its currency and number of decimals, a
signed amount (its last character carries the sign) and a label, completed by detail records (05: the
remaining label, the counterparty), and the new balance (07) closes it. The movement's reference (numéro
d'écriture) is its id where the bank writes one; otherwise rows get fingerprints."""

import datetime as dt
import hashlib
import io
import re
from collections.abc import Iterator
from typing import BinaryIO

from django.utils.translation import gettext as _

from assets.statements.mt940file import decode
from assets.statements.records import lines_of, refused, runs
from assets.statements.rows import Row, RowIds, clean_description, signed_amount

CODE = "INVALID_CFONB120"
# A detail record's qualifier (LIB, NPY, REF…) is three letters or digits; banks also write detail records with
# none (blank, or `N Y`), free text the library cannot place and refuses the file for. Such a record is left
# out: it adds only words to a movement whose date and amount stand in its 04 record.
_QUALIFIER = re.compile(rb"[A-Za-z0-9]{3}")
_DETAILS = ("label_1", "label_2", "label_3", "debtor_name", "creditor_name", "remittance_information_1")


def _statements(run: list[bytes]) -> list:
    from cfonb.parser.statement import StatementReader  # loaded only when a CFONB 120 file arrives

    text = decode(b"\n".join(run))
    try:
        return StatementReader().parse(io.StringIO(text + "\n"))
    except Exception as exc:  # ParsingError, ValueError from a date, a bare Exception from an amount
        raise refused("CFONB 120", exc, CODE) from None


def cfonb_rows(source: BinaryIO) -> Iterator[Row]:
    ids = RowIds("cfonb120")
    index = 0
    read = False
    for run in runs(
        (r for r in lines_of(source) if not r.startswith(b"05") or _QUALIFIER.fullmatch(r[45:48])),
        opens=lambda record: record.startswith(b"01"),
        heads=1,
        starts=lambda record: record.startswith(b"04"),
    ):
        rows = []
        for statement in _statements(run):
            read = True
            scope = hashlib.sha256(str(statement.account_nb).encode()).hexdigest()[:10]
            for line in statement.lines:
                movement = _movement(line)
                if not movement["amount"]:
                    continue  # a zero line (a note, a cancelled charge) moves no money
                index += 1
                row = _row(movement, line, index)
                reference = movement["reference"].strip()
                ids(row, reference if reference.strip("0") else "", scope)
                rows.append(row)
        yield from rows
    if not read:
        raise refused("CFONB 120", _("it holds no old balance record (01)"), CODE)


def _movement(line: dict) -> dict:
    """The movement record (04) read again on its own: the library merges its detail records (05) into the same
    fields, and a foreign amount's detail (MMO) overwrites the movement's currency with the foreign one."""
    from cfonb.parser.common import Row as Record

    return Record(line["origin"].split("\n")[0])


def _row(movement: dict, line: dict, index: int) -> Row:
    row = Row(key=f"movement {index}")
    row.occurred_on = dt.date.fromisoformat(movement["operation_date"])
    amount = movement["amount"]
    if movement["nb_of_dec"] == "0":
        # The library puts the decimal point before the 14-character figure when the record names no decimals
        # (XOF, XPF, JPY): 0000000000227R reads as 2.279E-11. Shifted back, exactly.
        amount = amount.scaleb(14)
    signed_amount(row, amount, movement["currency_code"])
    parts = [line.get("label")] + [line.get(name) for name in _DETAILS]
    row.description = clean_description(" ".join(p.strip() for p in parts if isinstance(p, str) and p.strip()))
    return row
