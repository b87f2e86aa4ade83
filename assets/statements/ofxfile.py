"""OFX and QFX (Quicken's OFX) statements, read by ofxtools: bank and card statements, each transaction
keyed by the file's own FITID (scoped by account, since FITIDs are unique per account only)."""

import hashlib
from collections.abc import Iterator

from ofxtools.Parser import OFXTree

from assets.statements.rows import ImportRejected, Row, clean_description, signed_amount


def ofx_rows(source, *, user_tz) -> Iterator[Row]:
    tree = OFXTree()
    try:
        tree.parse(source)
        ofx = tree.convert()
    except Exception as exc:  # ofxtools raises many kinds (ParseError, ValueError, its own OFXSpecError...)
        raise ImportRejected(f"The OFX file could not be read: {exc}", code="INVALID_OFX") from None
    statements = list(getattr(ofx, "statements", None) or [])
    if not statements:
        raise ImportRejected("The OFX file holds no bank or card statement.", code="INVALID_OFX")
    for statement in statements:
        currency = (statement.curdef or "").upper()
        account = getattr(statement, "account", None)
        account_id = str(getattr(account, "acctid", "") or "")
        scope = hashlib.sha256(account_id.encode()).hexdigest()[:10]
        for index, txn in enumerate(statement.banktranlist or [], start=1):
            fitid = str(getattr(txn, "fitid", "") or "")
            row = Row(key=f"FITID {fitid}" if fitid else f"transaction {index}")
            posted = getattr(txn, "dtposted", None)
            if posted is None:
                row.problem("date", "DTPOSTED is missing.")
            else:
                row.occurred_on = posted.astimezone(user_tz).date() if posted.tzinfo else posted.date()
            amount = getattr(txn, "trnamt", None)
            if amount is None:
                row.problem("amount", "TRNAMT is missing.")
            else:
                signed_amount(row, amount, (getattr(txn, "currency", None) or currency or "").upper() or currency)
            name = getattr(txn, "name", None) or getattr(getattr(txn, "payee", None), "name", None)
            memo = getattr(txn, "memo", None)
            parts = [name] if name else []
            if memo and memo != name:
                parts.append(memo)
            row.description = clean_description(" ".join(parts))
            if not fitid:
                row.problem("external_id", "FITID is missing.")
            else:
                row.external_id = f"ofx:{scope}:{fitid}"[:100]
            yield row
