"""CAMT.052 (account report), CAMT.053 (statement) and CAMT.054 (debit/credit notification), ISO 20022 XML,
read entry by entry with lxml's iterparse, so a large statement never sits in memory whole. A file with a
DTD is refused outright (entity bombs need one); external entities and the network are off besides.

A batch entry (one Ntry, several TxDtls, each with its own amount) becomes one row per transaction detail,
so a direct-debit batch shows what each debit was; the details' amounts must add up to the entry's, and no
detail may write a side other than the entry's (BCV's test statements mark a debit batch's payments CRDT),
else the entry stays one row. Dates are the bank's booking dates, never moved into the user's timezone."""

import datetime as dt
import functools
import hashlib
import re
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext

from assets.statements.rows import Fingerprints, ImportRejected, Occurrences, Row, clean_description, signed_amount


def _local(tag) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _find(element, *path):
    """The first descendant along `path` of local names, whatever the namespace version (053.001.02…13):
    lxml's own path search with `{*}`, any namespace or none, in C rather than a Python walk per child."""
    return element.find(_any_namespace(path))


@functools.cache
def _any_namespace(path: tuple[str, ...]) -> str:
    """`path` as lxml's path in any namespace, written once for each of the few paths the reader asks."""
    return "/".join(f"{{*}}{name}" for name in path)


def _text(element, *path) -> str:
    found = _find(element, *path)
    return (found.text or "").strip() if found is not None else ""


_STATEMENTS = {"Stmt", "Rpt", "Ntfctn"}
# The only elements the reader acts on when they end: lxml reports no other, so the other million elements of
# a large statement cost no Python call each.
_EVENT_TAGS = [f"{{*}}{name}" for name in ("Acct", "CreDtTm", "Ntry", *sorted(_STATEMENTS))]
_DTD = re.compile(rb"<!(DOCTYPE|ENTITY)", re.IGNORECASE)


def camt_rows(source, *, code: str = "INVALID_CAMT053") -> Iterator[Row]:
    from lxml import etree  # a heavy library, loaded only when a CAMT file arrives

    head = source.read(64 * 1024)
    source.seek(0)
    if _DTD.search(head):
        raise ImportRejected(gettext("CAMT files with a DTD or entity declarations are refused."), code=code)
    fingerprint, occurrence = Fingerprints("camt"), Occurrences()
    account_scope = ""
    index = 0
    statements = 0
    # An entry without a booking or value date (both optional in reports and notifications) is dated by
    # when its report, else its message, was created: the day the bank said it had happened by.
    created = {"GrpHdr": "", "statement": ""}
    try:
        events = etree.iterparse(
            source,
            events=("end",),
            tag=_EVENT_TAGS,
            resolve_entities=False,
            no_network=True,
            load_dtd=False,
            huge_tree=False,
        )
        for _, element in events:
            name = _local(element.tag)
            parent = element.getparent()
            if name == "Acct" and parent is not None and _local(parent.tag) in _STATEMENTS:
                iban = _text(element, "Id", "IBAN") or _text(element, "Id", "Othr", "Id")
                account_scope = hashlib.sha256(iban.encode()).hexdigest()[:10]
            statements += name in _STATEMENTS and parent is not None
            if name == "CreDtTm" and parent is not None:
                owner = _local(parent.tag)
                created["statement" if owner in _STATEMENTS else owner] = (element.text or "").strip()
            elif name in _STATEMENTS:
                created["statement"] = ""
            if name != "Ntry":
                continue
            index += 1
            for row in _entry(element, index, created["statement"] or created["GrpHdr"]):
                if not row.problems and row.external_id is None:
                    row.external_id = fingerprint(row)
                elif row.external_id:
                    # Entries of one package booked under one reference (PostFinance's batched credits): the
                    # next one keeps it apart, as a CSV's fee under its transfer's reference does.
                    nth = occurrence((account_scope, row.external_id))
                    row.external_id = f"camt:{account_scope}:{row.external_id}" + (f":{nth}" if nth else "")
                    row.external_id = row.external_id[:100]
                yield row
            # What was read is dropped: memory stays bounded by one entry, not the statement.
            element.clear()
            while element.getprevious() is not None:
                del element.getparent()[0]
    except etree.XMLSyntaxError as exc:
        raise ImportRejected(
            gettext("The CAMT file is not well-formed XML: %(exc)s") % {"exc": exc}, code=code
        ) from None
    if index == 0 and not statements:
        raise ImportRejected(gettext("The CAMT file holds no statement, report or notification."), code=code)


def _amount(element) -> tuple[Decimal | None, str]:
    if element is None:
        return None, ""
    try:
        value = Decimal((element.text or "").strip())
    except InvalidOperation:
        return None, ""
    return (value if value.is_finite() else None), (element.get("Ccy") or "").upper()


def _detail_amount(details) -> tuple[Decimal | None, str]:
    own = _find(details, "Amt")
    if own is None:
        own = _find(details, "AmtDtls", "TxAmt", "Amt")
    return _amount(own)


def _entry(entry, index: int, created: str) -> list[Row]:
    status = _text(entry, "Sts", "Cd") or _text(entry, "Sts")
    if status and status.upper() not in ("BOOK", "BOOKED"):
        return []  # pending or informational entries are not in the ledger yet
    indicator = _text(entry, "CdtDbtInd")
    value, currency = _amount(_find(entry, "Amt"))
    when = _text(entry, "BookgDt", "Dt") or _text(entry, "BookgDt", "DtTm") or _text(entry, "ValDt", "Dt")
    when = when or _text(entry, "ValDt", "DtTm") or created
    dtls = _find(entry, "NtryDtls")
    details = dtls.findall("{*}TxDtls") if dtls is not None else []
    if len(details) > 1 and value is not None:
        amounts = [_detail_amount(d) for d in details]
        sides = {_text(d, "CdtDbtInd") for d in details} - {""}
        if all(a is not None for a, _ in amounts) and sum(a for a, _ in amounts) == value and sides <= {indicator}:
            return [
                _row(entry, d, f"entry {index}.{n}", indicator, a, c or currency, when, part=n)
                for n, (d, (a, c)) in enumerate(zip(details, amounts, strict=True), start=1)
            ]
    first = details[0] if details else None
    return [_row(entry, first, f"entry {index}", indicator, value, currency, when, part=0)]


def _row(entry, details, key, indicator, value, currency, when, *, part: int) -> Row:
    """One row: the entry itself (part 0), or the part-th transaction detail of a batch entry."""
    row = Row(key=key)
    if value is None or value <= 0:
        row.problem("amount", gettext("Amt is missing or not a positive number."))
    elif indicator not in ("CRDT", "DBIT"):
        row.problem("direction", gettext("CdtDbtInd must be CRDT or DBIT."))
    else:
        signed_amount(row, value if indicator == "CRDT" else -value, currency)
    try:
        # A DtTm's own calendar date is the bank's date: the offset it carries is the bank's, not the user's.
        row.occurred_on = dt.date.fromisoformat(when[:10])
    except ValueError:
        row.problem("date", gettext("BookgDt is not a date, and neither is ValDt or the report's CreDtTm."))
    party = ""
    if details is not None:
        role = "Cdtr" if indicator == "DBIT" else "Dbtr"
        party = _text(details, "RltdPties", role, "Nm") or _text(details, "RltdPties", role, "Pty", "Nm")
    note = _ustrd(details) if details is not None else ""
    info = note if part else (_text(entry, "AddtlNtryInf") or note)
    row.description = clean_description(" ".join(p for p in (party, info) if p))
    reference = _reference(entry, "AcctSvcrRef") or _reference(entry, "NtryRef")
    if not reference and details is not None:
        reference = _reference(details, "Refs", "AcctSvcrRef") or _reference(details, "Refs", "EndToEndId")
    row.external_id = (f"{reference}/{part}" if part else reference) if reference else None
    return row


# What banks write where they have no reference: a placeholder every entry shares is no id at all.
_PLACEHOLDERS = {"NONREF", "NOTPROVIDED", "NONE", "N/A", "NA"}


def _reference(node, *path: str) -> str:
    text = _text(node, *path)
    return "" if text.upper() in _PLACEHOLDERS else text


def _ustrd(details) -> str:
    remittance = _find(details, "RmtInf")
    if remittance is None:
        return ""
    return " ".join((c.text or "").strip() for c in remittance.iterfind("{*}Ustrd") if c.text)
