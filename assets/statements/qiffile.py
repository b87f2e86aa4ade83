"""QIF statements, read by quiffen. QIF carries no transaction ids, so rows get fingerprints; its dates
carry no order either, so the file's own dates decide day-first (any first part above 12) or month-first."""

import re
from collections.abc import Iterator

from quiffen import Qif

from assets.statements.rows import Fingerprints, ImportRejected, Row, clean_description, signed_amount

# quiffen reads an amount by dropping what is not a digit, a point or a minus: `T-1E+30` became -130.
# An exponent, NaN or Infinity on an amount line is refused before it can be misread.
_ODD_AMOUNT = re.compile(r"^[TU$]\s*[-+]?(?:[\d.,' ]*[eE]\s*[-+]?\d|nan|inf|snan)", re.MULTILINE | re.IGNORECASE)
_DATE_LINE = re.compile(r"^D\s*(\d{1,2})\s*[/.\-']\s*(\d{1,2})", re.MULTILINE)


def day_first(text: str, *, default: bool) -> bool:
    for first, second in _DATE_LINE.findall(text):
        if int(first) > 12:
            return True
        if int(second) > 12:
            return False
    return default


def qif_rows(text: str, *, currency: str, default_day_first: bool) -> Iterator[Row]:
    odd = _ODD_AMOUNT.search(text)
    if odd:
        raise ImportRejected(f"{odd.group().strip()!r} is not an amount QIF writes.", code="INVALID_QIF")
    try:
        qif = Qif.parse_string(text.strip(), day_first=day_first(text, default=default_day_first))
    except Exception as exc:  # quiffen raises ValueError, KeyError, pydantic errors, dateutil's ParserError
        raise ImportRejected(f"The QIF file could not be read: {exc}", code="INVALID_QIF") from None
    fingerprint = Fingerprints("qif")
    index = 0
    found = False
    for account in qif.accounts.values():
        for transactions in account.transactions.values():
            for txn in transactions:
                found = True
                index += 1
                row = Row(key=f"transaction {index}")
                row.occurred_on = txn.date.date() if txn.date else None
                if row.occurred_on is None:
                    row.problem("date", "The date is missing.")
                if txn.amount is None:
                    row.problem("amount", "The amount is missing.")
                else:
                    signed_amount(row, txn.amount, currency)
                row.description = clean_description(" ".join(p for p in (txn.payee, txn.memo) if p))
                if not row.problems:
                    row.external_id = fingerprint(row)
                yield row
    if not found:
        raise ImportRejected("The QIF file holds no transactions.", code="INVALID_QIF")
