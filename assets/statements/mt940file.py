"""MT940 (SWIFT customer statement) files, read by the `mt-940` library. Each :61: line is a row dated by its
value date, keyed by the bank's reference where it gives one (scoped by account), else by a fingerprint;
its text is the :86: purpose or, failing that, the line's own details.

Banks wrap a :61: line's supplementary details onto the next line; the library reads only the first, so
such continuation lines are dropped before parsing (the same words come again in the :86: field)."""

import calendar
import hashlib
import re
from collections.abc import Iterator

from django.utils.translation import gettext as _

from assets.statements.rows import ImportRejected, Row, RowIds, clean_description, signed_amount

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
# A whole statement is an opening :20: with a closing balance on a line after it. Two plain searches, not one
# `^:20:.*^:62[FM]:`: that ran `.*` to the end of the text again from every :20: line when no closing came after.
_OPENING = re.compile(r"^:20:", re.MULTILINE)
_CLOSING = re.compile(r"^:62[FM]:", re.MULTILINE)
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


# The library builds an object for every line of the text it is given and keeps them all: a long file is handed
# to it in runs of this many :61: lines, so memory is bounded by a run, not the file.
CHUNK_LINES = 2_000
_ACCOUNT = re.compile(r"^:25:", re.MULTILINE)


def _runs(text: str) -> Iterator[str]:
    """The text cut before every CHUNK_LINES-th :61: line: each cut is where one parse of the whole text
    starts a new tag too, so each run reads as it would have in place."""
    starts = [match.start() for match in _LINE.finditer(text)][CHUNK_LINES::CHUNK_LINES]
    for begin, end in zip([0, *starts], [*starts, len(text)], strict=True):
        yield text[begin:end]


def _account(text: str) -> str:
    """The account one parse of the whole file ends with: its last :25: field (a file of several statements
    keeps the last one's), read by the library from that statement's header."""
    fields = [match.start() for match in _ACCOUNT.finditer(text)]
    if not fields:
        return ""
    header = text[fields[-1] :]
    first_line = _LINE.search(header)
    header = header[: first_line.start()] if first_line else header
    return str(_parsed(header).data.get("account_identification") or "")


def _parsed(text: str, data: dict | None = None):
    """The library's parse of `text`, starting from the statement-level fields `data` an earlier run ended
    with (the currency a :61: line without one takes comes from them)."""
    from mt940.models import Transactions

    statement = Transactions()
    statement.data.update(data or {})
    statement.parse(text)
    return statement


def _whole(text: str) -> bool:
    # The first opening is enough: a closing after any later one is after it too.
    opening = _OPENING.search(text)
    return opening is not None and _CLOSING.search(text, opening.end()) is not None


def _lines(text: str) -> Iterator:
    """Every :61: line the library reads, run after run; a line it passes over refuses the file."""
    data: dict = {}
    found = missing = 0
    for run in _runs(text):
        try:
            statement = _parsed(run, data)
        except Exception as exc:  # the library raises RuntimeError, ValueError, KeyError on what it cannot read
            raise ImportRejected(
                _("The MT940 file could not be read: %(value)s") % {"value": str(exc)[:200]}, code="INVALID_MT940"
            ) from None
        data = statement.data
        found += len(statement)
        missing += len(_LINE.findall(run)) - len(statement)
        yield from statement
    if missing:
        # The library passes over a :61: line it cannot match: the file is refused rather than half read.
        raise ImportRejected(
            _("%(missing)s :61: line(s) of the MT940 file could not be read.") % {"missing": missing},
            code="INVALID_MT940",
        )
    if not found and not _whole(text):
        # A whole statement (a closing balance, no :61:) is a day with nothing booked, not a broken file.
        raise ImportRejected(_("The MT940 file holds no transactions (:61:)."), code="INVALID_MT940")


def mt940_rows(raw: bytes, *, currency: str) -> Iterator[Row]:
    text = decode(raw).replace("\r\n", "\n").replace("\r", "\n")
    text = mend(_CONTINUATION.sub(r"\1", text))
    try:
        account = _account(text)
    except Exception as exc:  # the library raises RuntimeError, ValueError, KeyError on what it cannot read
        raise ImportRejected(
            _("The MT940 file could not be read: %(value)s") % {"value": str(exc)[:200]}, code="INVALID_MT940"
        ) from None
    scope = hashlib.sha256(account.encode()).hexdigest()[:10]
    ids = RowIds("mt940")
    for index, line in enumerate(_lines(text), start=1):
        data = line.data
        row = Row(key=f"transaction {index}")
        row.occurred_on = data.get("date")
        if row.occurred_on is None:
            row.problem("date", _("The value date is missing."))
        amount = data.get("amount")
        if amount is not None and amount.amount == 0:
            continue  # a zero line (a cancelled charge, a note) moves no money
        if amount is None:
            row.problem("amount", _("The amount is missing."))
        else:
            own = (getattr(amount, "currency", None) or data.get("currency") or currency or "").upper()
            # RC reverses a credit (money out), RD a debit (money in): the mark's last letter is not the sign.
            out = data.get("status") in ("D", "RC")
            signed_amount(row, -abs(amount.amount) if out else abs(amount.amount), own or currency)
        details = next((str(data[k]) for k in _DESCRIPTIONS if data.get(k)), "")
        row.description = clean_description(details.replace("\n", " "))
        reference = data.get("bank_reference") or ""
        ids(row, "" if reference.upper() == "NONREF" else reference, scope)
        yield row
