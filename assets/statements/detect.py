"""Which format a statement is, from its first bytes (never its name: a bank's export is often misnamed)."""

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from assets.statements.rows import ImportRejected

CSV, OFX, QIF, MT940, XLSX, XLS, HTML = "csv", "ofx", "qif", "mt940", "xlsx", "xls", "html"
CAMT052, CAMT053, CAMT054 = "camt052", "camt053", "camt054"
NORMA43, CODA, CFONB120, BAI2, ONEC = "norma43", "coda", "cfonb120", "bai2", "1c"
HEAD_BYTES = 8192
ACCEPTED = gettext_lazy(
    "CSV, OFX/QFX, QIF, CAMT.052/053/054 XML, MT940, AEB Norma 43, CODA, CFONB 120, BAI2, 1C client-bank exchange "
    "(kl_to_1c.txt), XLSX or XLS"
)  # worded where it is said

# Microsoft Money's OFC, which OFX grew from, writes the same transactions under an `<OFC>` envelope (French banks'
# "Money" downloads still do).
_OFX = re.compile(rb"OFXHEADER\s*[:=]|<OF[XC][\s>]", re.IGNORECASE)
# QIF's first section header, after whatever stray record ends or `#` comment lines come before it. Possessive:
# a comment's run of spaces must not be split between `#[^\n]*` and the next line's `[ \t]*` in every possible
# way before failing (a CSV opening with padded `#` lines held the detection for ever).
_QIF = re.compile(rb"\A(?:[ \t]*+(?:#[^\n]*+)?[\^\r\n]*+)*+!(Type|Tipo|Account|Option|Clear)", re.IGNORECASE)
_CAMT = (
    (CAMT053, re.compile(rb"camt\.053|<(?:\w+:)?BkToCstmrStmt[\s>]")),
    (CAMT052, re.compile(rb"camt\.052|<(?:\w+:)?BkToCstmrAcctRpt[\s>]")),
    (CAMT054, re.compile(rb"camt\.054|<(?:\w+:)?BkToCstmrDbtCdtNtfctn[\s>]")),
)
# Blanks on the field's own line only: `^\s*` spanned newlines, so from every line start of a run of blank lines it
# ran over the whole run again (the same files match: a field after blank lines starts a line of its own).
_MT940_START = re.compile(rb"^[^\S\n]*+:20:", re.MULTILINE)
_MT940_LINE = re.compile(rb"^[^\S\n]*+:(?:25|28C?|60[FM]|61):", re.MULTILINE)
_SWIFT_BLOCK = re.compile(rb"^\s*(?:\{1:F\d\d|:(?:20|25|28C?|60[FM]|61):)")
# The fixed-width bank standards, by their first record and the kind of the one after it. Norma 43: an account
# record (11: bank, branch and account numbers, two dates, a debit/credit key, a balance, an ISO 4217 numeric
# currency, an information mode; at most 80 characters, banks trim trailing blanks) before a movement (22) or
# the account's closing (33). CODA: the header record (0) of exactly 128 characters, as the library itself
# recognises its start, before the old-balance record (1). CFONB 120: the old-balance record (01: bank, desk,
# currency, decimals, account, date, a signed amount whose last character carries the sign) before a movement
# (04), its details (05), the new balance (07) or another account's 01.
_END = rb"(?:\r\n|\r|\n)(?:[ \t]*+(?:\r\n|\r|\n))*+"  # a line end, and blank lines some banks put between records
_NORMA43 = re.compile(rb"\A11\d{30}[12]\d{14}\d{3}[123][^\r\n]{0,29}" + _END + rb"(?:22|33)")
_CODA = re.compile(rb"\A0{5}\d{9}05[ D] {7}[^\r\n]{104}" + _END + rb"1")
_CFONB120 = re.compile(
    rb"\A01\d{5}[ \w]{4}\d{5}[A-Z ]{3}[\d ] [ \w]{11}  \d{6}[^\r\n]{50}\d{13}[{}A-R][^\r\n]{0,16}" + _END + rb"0[1457]"
)
# BAI2: the file header (01: sender, receiver, a YYMMDD creation date, a time, the file id...), perhaps continued
# (88), then a group header (02). A CSV whose first column counts 01, 02 would need that date in its fourth cell.
_BAI2 = re.compile(
    rb"\A01,[^,\r\n]*+,[^,\r\n]*+,\d{6},[^,\r\n]*+,[^\r\n]*+" + _END + rb"(?:88,[^\r\n]*+" + _END + rb")*+02,"
)
# A web page (a bank's "Excel" download that is an HTML table): its doctype or first element, after an XML
# declaration or comments if any.
_HTML = re.compile(
    rb"\A\s*+(?:<\?xml[^>]*+>\s*+)?(?:<!--.*?-->\s*+)*(?:<!DOCTYPE\s+html|<(?:html|head|meta|body|table|style)[\s>/])",
    re.IGNORECASE | re.DOTALL,
)
# The Russian 1C client-bank exchange file: its signature line, in ASCII whatever the file's encoding.
_ONEC = re.compile(rb"\A\s*+1CClientBankExchange[ \t]*+(?:\r\n|\r|\n)")
_ZIP = b"PK\x03\x04"
# An OLE2 compound file: an old Excel workbook (.xls), or another old Office document, which xlsfile refuses.
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
# Binary files people mistake for statements: PDF, images, gzip, 7z, rar.
_BINARY = (b"%PDF", b"\x89PNG", b"\xff\xd8\xff", b"GIF8", b"\x1f\x8b", b"7z\xbc\xaf", b"Rar!")


def unsupported(what: str) -> ImportRejected:
    return ImportRejected(
        _("This file is %(what)s, not a statement Zeus reads. Send %(ACCEPTED)s.")
        % {"what": what, "ACCEPTED": ACCEPTED},
        code="UNSUPPORTED_FORMAT",
    )


def detect(head: bytes) -> str:
    text = head.lstrip(b"\xef\xbb\xbf")
    if text.startswith(_ZIP):
        return XLSX
    if head.startswith(_OLE2):
        return XLS
    if text.startswith(_BINARY):
        raise unsupported(_("a PDF, an image or a compressed archive"))
    if _ONEC.match(text):
        return ONEC
    if _QIF.match(text):
        return QIF
    if _OFX.search(text):
        return OFX
    if _HTML.match(text):
        return HTML
    if text.lstrip().startswith(b"<"):
        for kind, pattern in _CAMT:
            if pattern.search(text):
                return kind
        raise unsupported(_("XML but not a CAMT.052, CAMT.053 or CAMT.054 statement"))
    if _SWIFT_BLOCK.match(text) or (_MT940_START.search(text) and _MT940_LINE.search(text)):
        return MT940
    for kind, pattern in ((NORMA43, _NORMA43), (CODA, _CODA), (CFONB120, _CFONB120), (BAI2, _BAI2)):
        if pattern.match(text):
            return kind
    return CSV
