"""CAMT.053 (ISO 20022 bank-to-customer statement) XML, read entry by entry with lxml's iterparse, so a
large statement never sits in memory whole. External entities, DTDs and the network are off."""

import datetime as dt
import hashlib
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation

from lxml import etree

from assets.statements.rows import Fingerprints, ImportRejected, Row, clean_description, signed_amount


def _local(tag) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _find(element, *path) -> etree._Element | None:
    """The first descendant along `path` of local names, whatever the namespace version (053.001.02…13)."""
    current = [element]
    for name in path:
        current = [child for node in current for child in node if _local(child.tag) == name]
        if not current:
            return None
    return current[0]


def _text(element, *path) -> str:
    found = _find(element, *path)
    return (found.text or "").strip() if found is not None else ""


def camt_rows(source, *, user_tz) -> Iterator[Row]:
    fingerprint = Fingerprints("camt")
    account_scope = ""
    index = 0
    try:
        events = etree.iterparse(
            source, events=("end",), resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False
        )
        for _, element in events:
            name = _local(element.tag)
            parent = element.getparent()
            if name == "Acct" and parent is not None and _local(parent.tag) == "Stmt":
                iban = _text(element, "Id", "IBAN") or _text(element, "Id", "Othr", "Id")
                account_scope = hashlib.sha256(iban.encode()).hexdigest()[:10]
            if name != "Ntry":
                continue
            index += 1
            row = _entry(element, index, user_tz)
            if row is not None:
                if not row.problems and row.external_id is None:
                    row.external_id = fingerprint(row)
                elif row.external_id:
                    row.external_id = f"camt:{account_scope}:{row.external_id}"[:100]
                yield row
            # What was read is dropped: memory stays bounded by one entry, not the statement.
            element.clear()
            while element.getprevious() is not None:
                del element.getparent()[0]
    except etree.XMLSyntaxError as exc:
        raise ImportRejected(f"The CAMT.053 file is not well-formed XML: {exc}", code="INVALID_CAMT053") from None
    if index == 0:
        raise ImportRejected("The CAMT.053 file holds no entries (Ntry).", code="INVALID_CAMT053")


def _entry(entry, index: int, user_tz) -> Row | None:
    status = _text(entry, "Sts", "Cd") or _text(entry, "Sts")
    if status and status.upper() != "BOOK":
        return None  # pending or informational entries are not in the ledger yet
    row = Row(key=f"entry {index}")
    amount_el = _find(entry, "Amt")
    indicator = _text(entry, "CdtDbtInd")
    try:
        value = Decimal((amount_el.text or "").strip()) if amount_el is not None else None
    except InvalidOperation:
        value = None
    if value is None or not value.is_finite() or value <= 0:
        row.problem("amount", "Amt is missing or not a positive number.")
    elif indicator not in ("CRDT", "DBIT"):
        row.problem("direction", "CdtDbtInd must be CRDT or DBIT.")
    else:
        signed_amount(row, value if indicator == "CRDT" else -value, (amount_el.get("Ccy") or "").upper())
    when = _text(entry, "BookgDt", "Dt") or _text(entry, "BookgDt", "DtTm") or _text(entry, "ValDt", "Dt")
    try:
        if "T" in when:
            stamp = dt.datetime.fromisoformat(when.replace("Z", "+00:00"))
            row.occurred_on = stamp.astimezone(user_tz).date() if stamp.tzinfo else stamp.date()
        else:
            row.occurred_on = dt.date.fromisoformat(when)
    except ValueError:
        row.problem("date", "BookgDt is missing or not a date.")
    details = _find(entry, "NtryDtls", "TxDtls")
    party = ""
    if details is not None:
        role = "Cdtr" if indicator == "DBIT" else "Dbtr"
        party = _text(details, "RltdPties", role, "Nm") or _text(details, "RltdPties", role, "Pty", "Nm")
    info = _text(entry, "AddtlNtryInf") or (_text(details, "RmtInf", "Ustrd") if details is not None else "")
    row.description = clean_description(" ".join(p for p in (party, info) if p))
    reference = _text(entry, "AcctSvcrRef") or _text(entry, "NtryRef")
    if not reference and details is not None:
        reference = _text(details, "Refs", "AcctSvcrRef") or _text(details, "Refs", "EndToEndId")
        reference = "" if reference == "NOTPROVIDED" else reference
    row.external_id = reference or None
    return row
