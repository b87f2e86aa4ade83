"""MT940 (SWIFT customer statement) files, read by the `mt-940` library. Each :61: line is a row dated by its
value date, keyed by the bank's reference where it gives one (scoped by account), else by a fingerprint;
its text is the :86: purpose or, failing that, the line's own details.

Banks wrap a :61: line's supplementary details onto the next line; the library reads only the first, so
such continuation lines are dropped before parsing (the same words come again in the :86: field)."""

import calendar
import hashlib
import re
from collections.abc import Iterator

from assets.statements.rows import Fingerprints, ImportRejected, Row, clean_description, signed_amount

# A :61: line that already holds its amount, followed by a line that is no field of its own.
_CONTINUATION = re.compile(r"^(:61:\d{6}(?:\d{4})?R?[DC][A-Z]?\d[^\n]*)\n(?![:\-{}]|$)[^\n]*$", re.MULTILINE)
# How banks bend the standard, mended before the library reads the file: amounts with a decimal point (the
# Rabobank layout) instead of a comma; days past the month's end (banks counting in 30-day months date a
# balance 31 November or 30 February: the month's last day); a statement number the library cannot read
# (` /1`), which no row needs.
_POINT_AMOUNT = re.compile(
    r"^(:61:\d{6}(?:\d{4})?R?[DC][A-Z]?|:6[0245][FM]?:[DC]\d{6}[A-Z]{3})(\d+)\.(\d*)", re.MULTILINE
)
_DATED = re.compile(r"^(:61:|:6[0245][FM]?:[DC])(\d{2})(\d{2})(\d{2})", re.MULTILINE)
# A :61: line without its transaction type (`N` and three characters before the reference) gets NMSC
# ("miscellaneous"), which is what the type means when a bank has none to give.
_UNTYPED = re.compile(r"^(:61:\d{6}(?:\d{4})?R?[DC][A-Z]?\d+,\d*)(?!\d|[A-Z][A-Z0-9]{3})", re.MULTILINE)
_LINE = re.compile(r"^:61:", re.MULTILINE)
_STATEMENT_NUMBER = re.compile(r"^:28C?:(?!\s*\d{1,5}(?:/\d{1,5})?\s*$).*\n", re.MULTILINE)
_WHOLE = re.compile(r"^:20:.*^:62[FM]:", re.MULTILINE | re.DOTALL)
_DESCRIPTIONS = ("purpose", "posting_text", "applicant_name", "extra_details", "transaction_details")


def decode(raw: bytes) -> str:
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    return raw.decode("latin-1")


def _month_end(match: re.Match) -> str:
    tag, year, month, day = match.groups()
    if not 1 <= int(month) <= 12:
        return match.group()  # no calendar mends that: the library refuses the file
    last = calendar.monthrange(2000 + int(year), int(month))[1]
    return f"{tag}{year}{month}{min(int(day), last):02d}"


def mend(text: str) -> str:
    text = _POINT_AMOUNT.sub(r"\1\2,\3", text)
    text = _DATED.sub(_month_end, text)
    text = _UNTYPED.sub(r"\1NMSC", text)
    return _STATEMENT_NUMBER.sub("", text)


def mt940_rows(raw: bytes, *, currency: str) -> Iterator[Row]:
    import mt940  # a heavy library, loaded only when an MT940 file arrives

    text = decode(raw).replace("\r\n", "\n").replace("\r", "\n")
    text = mend(_CONTINUATION.sub(r"\1", text))
    try:
        statement = mt940.parse(text)
        lines = list(statement)
    except Exception as exc:  # the library raises RuntimeError, ValueError, KeyError on what it cannot read
        raise ImportRejected(f"The MT940 file could not be read: {str(exc)[:200]}", code="INVALID_MT940") from None
    if len(lines) != len(_LINE.findall(text)):
        # The library passes over a :61: line it cannot match: the file is refused rather than half read.
        missing = len(_LINE.findall(text)) - len(lines)
        raise ImportRejected(f"{missing} :61: line(s) of the MT940 file could not be read.", code="INVALID_MT940")
    if not lines and not _WHOLE.search(text):
        # A whole statement (a closing balance, no :61:) is a day with nothing booked, not a broken file.
        raise ImportRejected("The MT940 file holds no transactions (:61:).", code="INVALID_MT940")
    account = str(statement.data.get("account_identification") or "")
    scope = hashlib.sha256(account.encode()).hexdigest()[:10]
    fingerprint = Fingerprints("mt940")
    references: dict[str, int] = {}
    for index, line in enumerate(lines, start=1):
        data = line.data
        row = Row(key=f"transaction {index}")
        row.occurred_on = data.get("date")
        if row.occurred_on is None:
            row.problem("date", "The value date is missing.")
        amount = data.get("amount")
        if amount is not None and amount.amount == 0:
            continue  # a zero line (a cancelled charge, a note) moves no money
        if amount is None:
            row.problem("amount", "The amount is missing.")
        else:
            own = (getattr(amount, "currency", None) or data.get("currency") or currency or "").upper()
            # RC reverses a credit (money out), RD a debit (money in): the mark's last letter is not the sign.
            out = data.get("status") in ("D", "RC")
            signed_amount(row, -abs(amount.amount) if out else abs(amount.amount), own or currency)
        text = next((str(data[k]) for k in _DESCRIPTIONS if data.get(k)), "")
        row.description = clean_description(text.replace("\n", " "))
        reference = data.get("bank_reference") or ""
        if reference and reference.upper() != "NONREF":
            # Some banks repeat a reference on the lines of one batch: its nth use keeps them apart.
            nth = references.get(reference, 0)
            references[reference] = nth + 1
            row.external_id = f"mt940:{scope}:{reference}:{nth}"[:100]
        elif not row.problems:
            row.external_id = fingerprint(row)
        yield row
