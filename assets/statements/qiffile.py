"""QIF statements, read by quiffen. QIF carries no transaction ids, so rows get fingerprints; its dates
carry no order either, so the file's own dates decide day-first (any first part above 12) or month-first.
Windows line endings (how most banks write QIF) are read as plain ones; a file that is not UTF-8 is read as
Windows-1252."""

import re
from collections.abc import Iterator

from django.utils.translation import gettext

from assets.statements.figures import APOSTROPHES, decimal_mark
from assets.statements.rows import Fingerprints, ImportRejected, Row, fingerprinted_row

# quiffen reads an amount by dropping what is not a digit, a point or a minus: `T-1E+30` became -130.
# An exponent, NaN or Infinity on an amount line is refused before it can be misread. Possessive: the spaces
# after the letter must not be shared out between `\s*` and the figure's `[\d.,' ]*` in every way before failing
# (an amount padded with a long run of spaces held the upload for ever).
_ODD_AMOUNT = re.compile(r"^[TU$]\s*+[-+]?(?:[\d.,' ]*+[eE]\s*[-+]?\d|nan|inf|snan)", re.MULTILINE | re.IGNORECASE)
_ACCOUNT_LIST = re.compile(r"^!Account", re.MULTILINE | re.IGNORECASE)
_DATE_LINE = re.compile(r"^D\s*(\d{1,2})\s*[/.\-']\s*(\d{1,2})", re.MULTILINE)


def day_first(text: str, *, default: bool) -> bool:
    # The first date that decides it ends the scan: a long file's other dates are never collected.
    for first, second in (match.groups() for match in _DATE_LINE.finditer(text)):
        if int(first) > 12:
            return True
        if int(second) > 12:
            return False
    return default


# Microsoft Money's Spanish edition writes its section headers in Spanish (`!Tipo:Banco`, a Venezuelan bank's
# download): the headers quiffen knows, by their Spanish names.
_SPANISH_HEADER = re.compile(r"^!Tipo:(Banco|Efectivo)[ \t]*$", re.MULTILINE | re.IGNORECASE)
_SPANISH_TYPES = {"banco": "Bank", "efectivo": "Cash"}
_AMOUNT_LINE = re.compile(r"^([TU$])(.*)$", re.MULTILINE)


def in_quiffens_words(text: str) -> str:
    """The file with Spanish section headers in English, and amounts written with a decimal comma
    (`T+13.000.000,00`) written with a point: quiffen keeps only digits, points and minus signs, so it read
    that line as 13.000.00000 and refused it."""
    text = _SPANISH_HEADER.sub(lambda m: f"!Type:{_SPANISH_TYPES[m[1].lower()]}", text)
    figures = [m[2].strip().lstrip("+-").strip() for m in _AMOUNT_LINE.finditer(text)]
    if decimal_mark(figures) != ",":
        return text
    ungroup = str.maketrans("", "", f". {APOSTROPHES}\u00a0")
    return _AMOUNT_LINE.sub(lambda m: m[1] + m[2].translate(ungroup).replace(",", "."), text)


def decode(raw: bytes) -> str:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("cp1252", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


# quiffen builds an object per transaction for the whole file: a long single-section file is handed to it in
# chunks of this many records, so memory is bounded by a chunk, not the file.
CHUNK_RECORDS = 2_000
_HEADER = re.compile(r"^!", re.MULTILINE)


def _chunks(text: str) -> Iterator[str]:
    """The file, or for a file that is one `!Type:` header and its records, that header with each run of
    CHUNK_RECORDS records (files with accounts or options are small and read whole)."""
    if len(_HEADER.findall(text, 0, 1_000_000)) != 1 or not text.startswith("!Type:"):
        yield text
        return
    header, _, body = text.partition("\n")
    records = body.split("\n^\n")
    for start in range(0, len(records), CHUNK_RECORDS):
        part = "\n^\n".join(records[start : start + CHUNK_RECORDS]).strip("\n^ ")
        if part:
            yield f"{header}\n{part}\n^\n"


def qif_rows(text: str, *, currency: str, default_day_first: bool) -> Iterator[Row]:
    from quiffen import Qif  # a heavy library, loaded only when a QIF file arrives

    odd = _ODD_AMOUNT.search(text)
    if odd:
        raise ImportRejected(
            gettext("%(strip)r is not an amount QIF writes.") % {"strip": odd.group().strip()}, code="INVALID_QIF"
        )
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    # Stray record ends an exporter wrote first. Possessive, so a long run of spaces before the header is not split
    # between the two `[ \t]*` in every way.
    text = in_quiffens_words(re.sub(r"\A(?:[ \t]*+\^?[ \t]*+\n)+", "", text).strip())
    first = day_first(text, default=default_day_first)
    fingerprint = Fingerprints("qif")
    index = 0
    found = False
    # An account list (what Quicken exports beside or instead of transactions) is a valid file too.
    other = bool(_ACCOUNT_LIST.search(text))
    for chunk in _chunks(text):
        try:
            qif = Qif.parse_string(chunk, day_first=first)
        except Exception as exc:  # quiffen raises ValueError, KeyError, pydantic errors, dateutil's ParserError
            raise ImportRejected(
                gettext("The QIF file could not be read: %(exc)s") % {"exc": exc}, code="INVALID_QIF"
            ) from None
        other = other or bool(qif.securities or qif.categories or qif.classes)
        for account in qif.accounts.values():
            for transactions in account.transactions.values():
                for txn in transactions:
                    if not hasattr(txn, "payee"):
                        # An investment account's line (a buy, a sell, a dividend reinvested) moves securities,
                        # not this account's cash: skipped, as with OFX investment statements.
                        other = True
                        continue
                    found = True
                    if txn.amount is not None and txn.amount == 0:
                        continue  # a zero line (an opening entry, a note) moves no money
                    index += 1
                    yield _row(txn, index, currency, fingerprint)
    if not found and not other:
        # A file of accounts, securities or categories only is a valid QIF with nothing for the ledger; anything else
        # that yields no transaction is not one Zeus can read.
        raise ImportRejected(gettext("The QIF file holds no transactions."), code="INVALID_QIF")


def _row(txn, index: int, currency: str, fingerprint: Fingerprints) -> Row:
    return fingerprinted_row(
        f"transaction {index}",
        occurred_on=txn.date.date() if txn.date else None,
        amount=txn.amount,
        currency=currency,
        description=" ".join(p for p in (txn.payee, txn.memo) if p),
        fingerprint=fingerprint,
    )
