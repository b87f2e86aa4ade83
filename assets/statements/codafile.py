"""Belgian CODA files (Febelfin's coded statement of account, every Belgian bank's), read by the `pycoda`
library: a header record (0), the old balance (1) naming the account and its currency, then each movement (21,
completed by 22 and 23: the communication, the counterparty) with its booking date (the entry date; the date
beside the amount is the value date) and the bank's reference, which is the row's id. A globalisation (a batch
the bank books as one amount) is followed by its detail movements (21 with a detail number other than 0000): the
booked total is the row, as on the account, and its details are not rows of their own."""

import datetime as dt
import hashlib
from collections.abc import Iterator
from decimal import Decimal
from typing import BinaryIO

from django.utils.translation import gettext as _

from assets.statements.records import lines_of, refused, runs
from assets.statements.rows import Row, RowIds, clean_description, signed_amount

CODE = "INVALID_CODA"
RECORD = 128


def _checked(records: Iterator[bytes]) -> Iterator[bytes]:
    """Every record 128 characters long, as the standard writes them: the library reads fields by position and
    would read a truncated record's next fields as blanks."""
    for number, record in enumerate(records, start=1):
        if len(record) != RECORD:
            raise refused(
                "CODA",
                _("record %(number)s is %(length)s characters long, not %(record)s")
                % {"number": number, "length": len(record), "record": RECORD},
                CODE,
            )
        yield record


def _statements(run: list[bytes]) -> list:
    from coda.parser import Parser  # loaded only when a CODA file arrives

    try:
        return Parser().parse(b"\n".join(run))
    except Exception as exc:  # CodaParserException, ValueError from a figure or date, UnicodeDecodeError
        raise refused("CODA", exc, CODE) from None


def _movement_start(record: bytes) -> bool:
    # A movement's first record with detail number 0000: a globalisation and its details stay in one run.
    return record.startswith(b"21") and record[6:10] == b"0000"


def coda_rows(source: BinaryIO) -> Iterator[Row]:
    ids = RowIds("coda")
    index = 0
    read = False
    for run in runs(_checked(lines_of(source)), opens=lambda r: r.startswith(b"0"), heads=2, starts=_movement_start):
        rows = []
        for statement in _statements(run):
            read = True
            scope = hashlib.sha256((statement.acc_number or "").encode()).hexdigest()[:10]
            for movement in statement.movements:
                if movement.ref_move_detail != "0000" or not movement.transaction_amount:
                    continue  # a globalisation's detail (its total is the row), or a zero line that moves nothing
                index += 1
                row = _row(movement, index, statement.currency or "")
                ids(row, movement.transaction_ref or "", scope)
                rows.append(row)
        yield from rows
    if not read:
        raise refused("CODA", _("it holds no statement (record 0)"), CODE)


def _row(movement, index: int, currency: str) -> Row:
    row = Row(key=f"movement {index}")
    row.occurred_on = dt.date.fromisoformat(movement.entry_date)
    # The library divides the 15-digit figure (three decimals) by 1000 as a float: its shortest decimal form is
    # the written figure again, as no figure of 15 digits or fewer is lost in a float.
    amount = Decimal(repr(movement.transaction_amount))
    signed_amount(row, -amount if movement.transaction_amount_sign == "1" else amount, currency)
    parts = (movement.communication, movement.counterparty_name)
    row.description = clean_description(" ".join(p for p in parts if p))
    return row
