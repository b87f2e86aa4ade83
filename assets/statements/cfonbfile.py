"""French CFONB 120 files (the "relevé de compte 120 caractères" every French bank gives), read by the
`python-cfonb` library: an old balance (01) opens an account's statement, each movement (04) carries its
booking date (date d'opération; the value date is the interest's), its currency and number of decimals, a
signed amount (its last character carries the sign) and a label, completed by detail records (05: the
remaining label, the counterparty), and the new balance (07) closes it. The movement's reference (numéro
d'écriture) is its id where the bank writes one; otherwise rows get fingerprints."""

import datetime as dt
import hashlib
import io
from collections.abc import Iterator
from typing import BinaryIO

from django.utils.translation import gettext as _

from assets.statements.mt940file import decode
from assets.statements.records import lines_of, refused, runs
from assets.statements.rows import Fingerprints, Row, clean_description, signed_amount

CODE = "INVALID_CFONB120"
_DETAILS = ("label_1", "label_2", "label_3", "debtor_name", "creditor_name", "remittance_information_1")


def _statements(run: list[bytes]) -> list:
    from cfonb.parser.statement import StatementReader  # loaded only when a CFONB 120 file arrives

    text = decode(b"\n".join(run))
    try:
        return StatementReader().parse(io.StringIO(text + "\n"))
    except Exception as exc:  # ParsingError, ValueError from a date, a bare Exception from an amount
        raise refused("CFONB 120", exc, CODE) from None


def cfonb_rows(source: BinaryIO) -> Iterator[Row]:
    fingerprint = Fingerprints("cfonb120")
    references: dict[str, int] = {}
    index = 0
    read = False
    for run in runs(
        lines_of(source),
        opens=lambda record: record.startswith(b"01"),
        heads=1,
        starts=lambda record: record.startswith(b"04"),
    ):
        rows = []
        for statement in _statements(run):
            read = True
            scope = hashlib.sha256(str(statement.account_nb).encode()).hexdigest()[:10]
            for line in statement.lines:
                if not line.get("amount"):
                    continue  # a zero line (a note, a cancelled charge) moves no money
                index += 1
                row = _row(line, index)
                reference = (line.get("reference") or "").strip()
                if reference.strip("0"):
                    nth = references.get(reference, 0)
                    references[reference] = nth + 1
                    row.external_id = f"cfonb120:{scope}:{reference}:{nth}"[:100]
                elif not row.problems:
                    row.external_id = fingerprint(row)
                rows.append(row)
        yield from rows
    if not read:
        raise refused("CFONB 120", _("it holds no old balance record (01)"), CODE)


def _row(line: dict, index: int) -> Row:
    row = Row(key=f"movement {index}")
    row.occurred_on = dt.date.fromisoformat(line["operation_date"])
    signed_amount(row, line["amount"], line.get("currency_code") or "")
    parts = [line.get("label")] + [line.get(name) for name in _DETAILS]
    row.description = clean_description(" ".join(p.strip() for p in parts if isinstance(p, str) and p.strip()))
    return row
