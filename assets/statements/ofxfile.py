"""OFX and QFX statements (1.x SGML and 2.x XML), read leniently: banks send files that strict readers refuse
(bank ids longer than the spec's nine characters, no ledger balance, no account block, `CHARSET:8859-1`,
blank lines before the header, fractional seconds in dates, leaf elements without closing tags), and Zeus
needs only each transaction's date, amount, currency, text and FITID. So the file is read as a flat run of
tags, never as a tree (no recursion however deep a broker nests its aggregates), and only what Zeus needs is
checked. Bank and card statements give every STMTTRN; investment statements give their cash lines
(INVBANKTRAN) and skip, counting them, their securities lines (buys, sells, reinvestments…).

Dates are the bank's: `20221019120000.000[-5:EST]` is 19 October, whatever the user's timezone."""

import datetime as dt
import hashlib
import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext as _

from assets.statements.rows import Fingerprints, ImportRejected, Row, clean_description, signed_amount

# Possessive: the spaces after `<` are not shared out between the two `\s*`, nor a name's letters with `[^>]*`.
_TAG = re.compile(r"<\s*+(/?)\s*+([A-Za-z0-9_.]++)[^>]*>([^<]*)")
_STATEMENTS = {"STMTRS", "CCSTMTRS", "INVSTMTRS"}
_ACCOUNTS = {"BANKACCTFROM", "CCACCTFROM", "INVACCTFROM"}
# Children of INVTRANLIST that move securities rather than cash in the account.
_SECURITIES = {
    "BUYDEBT", "BUYMF", "BUYOPT", "BUYOTHER", "BUYSTOCK", "CLOSUREOPT", "INCOME", "INVEXPENSE", "JRNLFUND",
    "JRNLSEC", "MARGININTEREST", "REINVEST", "RETOFCAP", "SELLDEBT", "SELLMF", "SELLOPT", "SELLOTHER",
    "SELLSTOCK", "SPLIT", "TRANSFER",
}  # fmt: skip
_CHARSETS = {"1252": "cp1252", "8859-1": "latin-1", "ISO-8859-1": "latin-1", "UTF-8": "utf-8", "CSUNICODE": "utf-8"}
_XML_ENCODING = re.compile(rb"<\?xml[^>]*encoding\s*=\s*[\"']([A-Za-z0-9_.:-]+)[\"']", re.IGNORECASE)
# Blanks before the name on its own line only (as in detect's MT940 patterns): the same header is found.
_SGML_CHARSET = re.compile(rb"^[^\S\n]*+CHARSET\s*+:\s*+([A-Za-z0-9_-]+)", re.IGNORECASE | re.MULTILINE)
_SGML_ENCODING = re.compile(rb"^[^\S\n]*+ENCODING\s*+:\s*+([A-Za-z0-9_-]+)", re.IGNORECASE | re.MULTILINE)
_DATE = re.compile(r"^\s*(\d{4})(\d{2})(\d{2})")


@dataclass
class OfxSummary:
    """What the reader met besides rows: investment lines skipped because they move securities, not cash, and
    whether the file's OFX envelope was closed (a bank answering for a period or an account with nothing in it
    sends an empty `<OFX></OFX>` or a sign-on alone: a whole file with no rows; one never closed was cut short).
    An SGML file closing no element at all (Mercury's) cannot say so: its ledger balance, which follows the
    transaction list, says the list is whole (`closes_any`, `ledger_balance`)."""

    securities_skipped: int = 0
    statements: int = 0
    envelope: bool = False
    closes_any: bool = False
    ledger_balance: bool = False


@dataclass
class _Statement:
    currency: str = ""
    account: str = ""


def decode(raw: bytes) -> str:
    """The file's text in the charset its header names; UTF-8, then Windows-1252, when it names none."""
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return raw.decode("utf-16")
    raw = raw.lstrip(b"\xef\xbb\xbf")
    named = _XML_ENCODING.search(raw[:4096]) or _SGML_CHARSET.search(raw[:4096])
    encodings = []
    if named:
        name = named.group(1).decode("ascii").upper()
        if name == "NONE":
            declared = _SGML_ENCODING.search(raw[:4096])
            name = declared.group(1).decode("ascii").upper() if declared else ""
        # A header read as ASCII cannot be UTF-16 or UTF-32, whatever it says (exporters copy the declaration
        # from a template): the bytes are trusted over it.
        if not name.startswith(("UTF-16", "UTF-32", "UCS")):
            encodings.append(_CHARSETS.get(name, name.lower()))
    encodings += ["utf-8", "cp1252"]
    for encoding in encodings:
        try:
            return raw.decode(encoding)
        except (LookupError, UnicodeDecodeError):
            continue
    return raw.decode("latin-1")


def _lines(text: str, summary: OfxSummary) -> Iterator[tuple[_Statement, dict]]:
    """Each transaction with its statement, as its closing tag (or the next one) is met: a statement's
    currency and account come before its transaction list, so nothing is kept but the line being read."""
    body = text[text.find("<") :] if "<" in text else ""
    # A tag ends with a `>`: from the first `<` after the last one on there is no tag, and left in, every `<` there
    # would run the tag pattern to the end of the text. Cut there, a tag's text still ends where it did, at that `<`.
    after_last = body.find("<", body.rfind(">") + 1)
    body = body[:after_last] if after_last >= 0 else body
    current: _Statement | None = None
    line: dict | None = None
    in_account = in_invtranlist = in_cash = False
    for match in _TAG.finditer(body):
        closing, name, value = match.groups()
        name = name.upper()
        value = html.unescape(value.strip()) if value.strip() else ""
        if closing:
            summary.closes_any = True
            summary.envelope = summary.envelope or name in ("OFX", "OFC")
            if name in ("STMTTRN", "BANKTRANLIST", "INVBANKTRAN") and line is not None:
                yield current, line
                line = None
            in_account = in_account and name not in _ACCOUNTS
            in_invtranlist = in_invtranlist and name != "INVTRANLIST"
            in_cash = in_cash and name != "INVBANKTRAN"
            continue
        if name in _STATEMENTS:
            current = _Statement()
            summary.statements += 1
        elif current is None:
            continue
        elif name in _ACCOUNTS:
            in_account = True
        elif name == "INVTRANLIST":
            in_invtranlist = True
        elif name == "INVBANKTRAN":
            in_cash = True
        elif in_invtranlist and not in_cash and name in _SECURITIES:
            summary.securities_skipped += 1
        elif name == "STMTTRN":
            if line is not None:  # an SGML file that never closes its STMTTRN
                yield current, line
            line = {}
        elif name == "LEDGERBAL":
            summary.ledger_balance = True
            if line is not None:  # the balance after the list ends a line nothing closed
                yield current, line
                line = None
        elif line is not None and value:
            line.setdefault(name, value)
        elif name == "CURDEF" and value:
            current.currency = current.currency or value.upper()
        elif name == "ACCTID" and in_account and value:
            current.account = current.account or value
    if line is not None and current is not None:
        yield current, line


def ofx_rows(raw: bytes, *, currency: str, summary: OfxSummary | None = None) -> Iterator[Row]:
    """Rows of every statement in the file; `currency` is the fallback when the file names none. A line
    without a FITID (some banks leave it empty) is keyed by a fingerprint instead."""
    summary = summary if summary is not None else OfxSummary()
    fingerprint = Fingerprints("ofx")
    scopes: dict[str, str] = {}
    contents: dict[str, str] = {}  # each FITID's first line, by its content's digest
    listed: set[tuple[str, str]] = set()  # each (FITID, content digest) met
    lines = ((statement, line) for statement, line in _lines(decode(raw), summary) if line)
    # An empty <STMTTRN></STMTTRN> (an exporter's placeholder, a redacted line) holds no money to lose.
    for index, (statement, line) in enumerate(lines, start=1):
        if _amount(line.get("TRNAMT", "")) == 0:
            continue  # a line of zero (`-0`, an exporter's note) moves no money, as in every other format
        if statement.account not in scopes:
            scopes[statement.account] = hashlib.sha256(statement.account.encode()).hexdigest()[:10]
        row = _row(line, index, scopes[statement.account], statement.currency or currency)
        if row.external_id is None and not row.problems:
            row.external_id = f"{fingerprint(row)[:60]}:{scopes[statement.account]}"
        elif not row.problems and _listed_again(row, contents, listed):
            continue  # one transaction listed twice (a second statement of the same account repeating it)
        yield row
    if not summary.envelope and (summary.closes_any or not summary.ledger_balance):
        # Every OFX file that closes its elements ends with </OFX>: without it the file was cut short, and what
        # was read of it is not the statement (all or nothing). One that closes none is whole to its balance.
        raise ImportRejected(_("The OFX file is cut short: it never closes its <OFX> element."), code="INVALID_OFX")


def _listed_again(row: Row, contents: dict[str, str], listed: set[tuple[str, str]]) -> bool:
    """Whether the row is a line the file already listed: its FITID met again on the same content (the OFX
    spec keeps a FITID to one transaction of an account). A FITID met again on other content is a bank
    reusing the id for another transaction: that row gets the id plus its content's digest, so it is
    imported (and found again, under the same id, by a re-import) rather than skipped as known."""
    content = f"{row.occurred_on}|{row.direction}|{row.amount}|{row.currency}|{row.description}"
    digest = hashlib.sha256(content.encode()).hexdigest()[:16]
    if (row.external_id, digest) in listed:
        return True
    listed.add((row.external_id, digest))
    if contents.setdefault(row.external_id, digest) != digest:
        row.external_id = f"{row.external_id[:80]}:{digest}"
    return False


def _row(line: dict, index: int, scope: str, currency: str) -> Row:
    fitid = line.get("FITID", "")
    row = Row(key=f"FITID {fitid}" if fitid else f"transaction {index}")
    posted = _DATE.match(line.get("DTPOSTED", "") or line.get("DTUSER", ""))
    try:
        row.occurred_on = dt.date(int(posted[1]), int(posted[2]), int(posted[3])) if posted else None
    except ValueError:
        row.occurred_on = None
    if row.occurred_on is None:
        row.problem("date", _("DTPOSTED is missing or not a date."))
    amount = _amount(line.get("TRNAMT", ""))
    if amount is None:
        row.problem("amount", _("TRNAMT is missing or not a number."))
    else:
        own = (line.get("CURSYM") or "").upper()  # CURRENCY/ORIGCURRENCY's symbol: this line's own currency
        signed_amount(row, amount, own or currency)
    name, memo = line.get("NAME", ""), line.get("MEMO", "")
    row.description = clean_description(" ".join(p for p in (name, memo if memo != name else "") if p))
    if fitid:
        row.external_id = f"ofx:{scope}:{fitid}"[:100]
    return row


def _amount(text: str) -> Decimal | None:
    text = text.replace(" ", "")
    if "," in text and "." not in text:
        text = text.replace(",", ".")  # European banks write a decimal comma
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    return value if value.is_finite() else None
