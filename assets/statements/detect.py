"""Which format a statement is, from its first bytes (never its name: a bank's export is often misnamed)."""

import re

CSV, OFX, QIF, CAMT053 = "csv", "ofx", "qif", "camt053"
HEAD_BYTES = 8192

_OFX = re.compile(rb"OFXHEADER\s*[:=]|<OFX[\s>]", re.IGNORECASE)
_QIF = re.compile(rb"^\s*!(Type|Account|Option|Clear)", re.IGNORECASE)
_CAMT = re.compile(rb"camt\.053|<BkToCstmrStmt[\s>]")


def detect(head: bytes) -> str:
    text = head.lstrip(b"\xef\xbb\xbf")
    if _QIF.match(text):
        return QIF
    if _OFX.search(text):
        return OFX
    if text.lstrip().startswith(b"<") and _CAMT.search(text):
        return CAMT053
    return CSV
