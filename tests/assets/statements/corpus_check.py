"""Measures the statement importers on the public corpus: for each file, what Zeus reads against what an
independent, format-level reading of the same file says it holds (each transaction's date, direction and
amount). A file counts as imported exactly when both agree row for row and Zeus reports no bad row.

    .venv/bin/python -m tests.assets.statements.corpus_check heldout   # or: tune
    .venv/bin/python -m tests.assets.statements.corpus_check spent     # every measured held-out part together

The reference reading is deliberately simple (regular expressions over the raw text, no shared code with
the importers), so a bug in a parser cannot hide behind the same bug in the check; where a person wrote a
file's rows down by reading it (corpus/read_by_hand.json: every heldout7 file, and the tables no regular
expression reads), those rows are the reference. Files in a currency the ledger does not carry are counted
apart, not as failures or successes."""

import collections
import datetime as dt
import io
import re
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

CORPUS = Path(__file__).parent / "corpus"
# Held-out parts gathered but not yet measured: no test may run Zeus on them before their one measurement
# (`corpus_check PART`). After it, `corpus_check write` puts the part into expected.json and the part leaves this set.
NOT_YET_MEASURED: set[str] = set()

_OFX_TXN = re.compile(r"<STMTTRN>(.*?)(?=</STMTTRN>|<STMTTRN>|</BANKTRANLIST>|</INVBANKTRAN>)", re.S | re.I)
_OFX_FIELD = r"<{}>\s*([^<\r\n]+)"
_MT940_LINE = re.compile(r"^:61:(\d{2})(\d{2})(\d{2})(?:\d{4})?(R?[DC])[A-Z]?\s?([\d,.]+)", re.M)
_QIF_AMOUNT = re.compile(r"^T\s*(-?[\d,]*\.?\d*)\s*$", re.M)


def _ofx(raw: bytes):
    text = raw.decode("latin-1")
    for block in _OFX_TXN.findall(text):
        if not re.search(r"<[A-Z]", block, re.I):
            continue  # an empty transaction: nothing in it
        posted = re.search(_OFX_FIELD.format("DTPOSTED"), block, re.I).group(1).strip()
        amount = re.search(_OFX_FIELD.format("TRNAMT"), block, re.I).group(1).strip().replace(",", ".")
        yield dt.date(int(posted[:4]), int(posted[4:6]), int(posted[6:8])), Decimal(amount)


def _mt940(raw: bytes):
    import calendar

    for year, month, day, mark, amount in _MT940_LINE.findall(raw.decode("latin-1").replace("\r\n", "\n")):
        value = Decimal(amount.replace(",", "."))
        sign = -1 if mark in ("D", "RC") else 1
        # Banks counting interest in 30-day months write value dates such as 30 February: the month's last day.
        last = calendar.monthrange(2000 + int(year), int(month))[1]
        yield dt.date(2000 + int(year), int(month), min(int(day), last)), sign * value


def _camt(raw: bytes):
    from lxml import etree

    root = etree.fromstring(raw, etree.XMLParser(resolve_entities=False, no_network=True))
    for entry in root.iter("{*}Ntry"):
        # Booking and value dates are optional in reports and notifications: the report's creation day stands in.
        report = entry.getparent()
        made = report.findtext("{*}CreDtTm") or root.findtext("{*}*/{*}GrpHdr/{*}CreDtTm") or ""
        status = "".join(entry.find("{*}Sts").itertext()).strip() if entry.find("{*}Sts") is not None else ""
        if status and status.upper() not in ("BOOK", "BOOKED"):
            continue
        sign = -1 if entry.findtext("{*}CdtDbtInd") == "DBIT" else 1
        when = "".join(entry.find("{*}BookgDt").itertext()).strip()[:10] if entry.find("{*}BookgDt") is not None else ""
        value_date = entry.find("{*}ValDt")
        when = when or ("".join(value_date.itertext()).strip()[:10] if value_date is not None else made[:10])
        total = Decimal(entry.findtext("{*}Amt"))
        parts = []
        for details in entry.iterfind("{*}NtryDtls/{*}TxDtls"):
            own = details.findtext("{*}Amt") or details.findtext("{*}AmtDtls/{*}TxAmt/{*}Amt")
            parts.append(Decimal(own) if own else None)
        amounts = parts if len(parts) > 1 and None not in parts and sum(parts) == total else [total]
        for amount in amounts:
            yield dt.date.fromisoformat(when), sign * amount


_QIF_CASH = ("bank", "cash", "ccard", "oth a", "oth l")


def _qif(raw: bytes):
    """The T lines of the cash sections: an investment section's lines move securities, a memorized
    transaction is a template, and an !Account block's T is the account's type."""
    text = raw.decode("latin-1").replace("\r\n", "\n")
    section = "bank"  # a file without a header is a bank file
    for line in text.split("\n"):
        if line.startswith("!"):
            section = line[6:].strip().lower() if line.lower().startswith("!type:") else ""
        elif section in _QIF_CASH and (value := _QIF_AMOUNT.match(line)) and value[1].replace(",", ""):
            yield None, Decimal(value[1].replace(",", ""))


def _csv(raw: bytes):
    import csv

    for encoding in ("utf-8-sig", "utf-16", "cp1252"):
        try:
            text = raw.decode(encoding)
            break
        except UnicodeError:
            continue
    lines = text.splitlines()
    delimiter = max(",;\t", key=lines[0].count)
    records = list(csv.reader(lines, delimiter=delimiter))
    header = [h.strip().lower() for h in records[0]]
    date, amount = header.index("date"), header.index("amount")
    for record in records[1:]:
        if record:
            year, month, day = (int(p) for p in re.split(r"[-./]", record[date]))
            yield dt.date(year, month, day), Decimal(record[amount].replace(",", ""))


BY_HAND = CORPUS / "read_by_hand.json"


def by_hand(key: str):
    """The rows a person wrote down for this file (`part/name`) by reading it, or None: see read_by_hand.json."""
    import json

    entry = json.loads(BY_HAND.read_text()).get(key) if BY_HAND.exists() else None
    if entry is None:
        return None
    return [(dt.date.fromisoformat(day) if day else None, Decimal(amount)) for day, amount in entry["rows"]]


def account_currency(key: str) -> str:
    """The account a person would import this file into, where read_by_hand.json names it (a Thai bank's
    statement that names no currency: a baht account); USD otherwise, as for every file that names none."""
    import json

    entry = json.loads(BY_HAND.read_text()).get(key) if BY_HAND.exists() else None
    return (entry or {}).get("account", "USD")


def reference(name: str, raw: bytes):
    if name.endswith(".csv"):
        return list(_csv(raw))
    if name.endswith((".ofx", ".qfx")):
        return list(_ofx(raw))
    if name.endswith((".sta", ".txt")) or b":61:" in raw:
        return list(_mt940(raw))
    if name.endswith(".xml"):
        return list(_camt(raw))
    if name.endswith(".qif"):
        return list(_qif(raw))
    return None


# The importer's today, fixed so a reading never depends on the day it runs (a file that names no year takes it
# from this; such files' rows are written down without a date).
TODAY = dt.date(2026, 12, 6)


def zeus_rows(raw: bytes, currency: str = "USD") -> list:
    """What Zeus reads from the file (a ValidationFailed when it refuses it) into an account in `currency`."""
    from assets.statements import detect
    from assets.statements.read import statement_rows

    kind = detect.detect(raw[: detect.HEAD_BYTES])
    head = raw[: detect.HEAD_BYTES]
    rows, _ = statement_rows(io.BytesIO(raw), kind=kind, head=head, currency=currency, today=TODAY)
    return list(rows)


def finest(rows, expected) -> collections.Counter:
    """The reference's rows, zero lines left out, at the finest exponent of the currencies Zeus found (a file
    in several currencies: Decimal 300 equals 300.00), rounded as Zeus rounds."""
    from zeus.money import CURRENCY_EXPONENTS

    step = Decimal(10) ** -max((CURRENCY_EXPONENTS.get(r.currency, 2) for r in rows), default=2)
    return collections.Counter((day, amount.quantize(step, ROUND_HALF_UP)) for day, amount in expected if amount)


def signed(rows, dated: bool) -> collections.Counter:
    return collections.Counter(
        (r.occurred_on if dated else None, (-1 if r.direction == "expense" else 1) * r.amount) for r in rows
    )


def check(path: Path) -> tuple[str, str]:
    from zeus.errors import ValidationFailed

    raw = path.read_bytes()
    try:
        rows = zeus_rows(raw, account_currency(f"{path.parent.name}/{path.name}"))
    except ValidationFailed as exc:
        return "failed", f"{exc.code}: {exc.message[:120]}"
    bad = [r for r in rows if r.problems]
    if any("currency" in r.problems for r in bad):
        return "currency", next(r.problems["currency"][0] for r in bad if "currency" in r.problems)
    if bad:
        return "failed", f"{len(bad)} bad row(s): {bad[0].key} {bad[0].problems}"
    ids = [r.external_id for r in rows]
    if len(set(ids)) != len(ids):
        return "failed", "two rows share an external id (one would be skipped)"
    try:
        expected = by_hand(f"{path.parent.name}/{path.name}")
        expected = reference(path.name, raw) if expected is None else expected
    except (ValueError, ArithmeticError) as exc:
        # The file itself holds something no calendar or number allows: counted against Zeus, which read it.
        return "failed", f"{len(rows)} rows read, but the reference reading finds the file impossible: {exc}"
    if expected is None:
        return "tabled", f"{len(rows)} rows; no reference reading for this format: its rows are in a table test"
    got, want = signed(rows, bool(expected and expected[0][0])), finest(rows, expected)
    if got != want:
        missing, extra = list((want - got).elements())[:3], list((got - want).elements())[:3]
        return "failed", f"rows differ: missing {missing} extra {extra}"
    return "exact", f"{len(rows)} rows"


WRITTEN = CORPUS / "expected.json"


def write() -> None:
    """Writes down, per file, what the reference reading says it holds (dates and signed amounts as the file
    has them, zero lines left out), or why Zeus may not import it: the corpus test holds Zeus to this."""
    import json

    from zeus.errors import ValidationFailed

    written = {}
    for part in sorted(p.name for p in CORPUS.iterdir() if p.is_dir()):
        for path in sorted((CORPUS / part).iterdir()):
            raw, key = path.read_bytes(), f"{part}/{path.name}"
            try:
                rows = zeus_rows(raw, account_currency(key))
            except ValidationFailed as exc:
                written[key] = {"refused": exc.code}
                continue
            unknown = next((r.problems["currency"] for r in rows if "currency" in r.problems), None)
            bad = next((sorted(r.problems)[0] for r in rows if r.problems), None)
            if unknown:
                written[key] = {"currency_refused": True}
            elif bad:  # a file that holds no such thing (a redacted date): each bad row named in the 400
                written[key] = {"rows_refused": bad}
            elif (expected := reference(path.name, raw) if by_hand(key) is None else by_hand(key)) is not None:
                lines = sorted((str(d) if d else None, str(a)) for d, a in expected if a)
                written[key] = {"count": len(lines), "rows": lines}
                if account_currency(key) != "USD":
                    written[key]["account"] = account_currency(key)
                if check(path)[0] == "failed":  # Zeus reads other rows than the file holds: kept in sight
                    written[key]["zeus_reads_otherwise"] = True
    text = json.dumps(written, indent=1, ensure_ascii=False)
    # One transaction a line, so a reviewer reads the file as a table.
    text = re.sub(r'\[\n\s+("[^"]*"|null),\n\s+("[^"]*")\n\s+\]', r"[\1, \2]", text)
    WRITTEN.write_text(text + "\n")


def main(part: str) -> int:
    import django

    django.setup()
    if part == "write":
        write()
        return 0
    if part == "spent":
        # Every held-out part already measured (a part still in NOT_YET_MEASURED awaits its one first look).
        folders = [p for p in CORPUS.iterdir() if p.name.startswith("heldout") and p.name not in NOT_YET_MEASURED]
    else:
        folders = [CORPUS / part]
    results = collections.Counter()
    for path in sorted(path for folder in folders for path in folder.iterdir()):
        outcome, note = check(path)
        results[outcome] += 1
        print(f"{outcome:8} {path.parent.name}/{path.name}: {note}")
    counted = results["exact"] + results["failed"]
    share = 100 * results["exact"] / counted if counted else 0
    print(
        f"\n{part}: {results['exact']}/{counted} files imported exactly ({share:.1f} %); "
        f"{results['currency']} in a currency the ledger does not carry; {results['tabled']} checked by table tests"
    )
    return 0


if __name__ == "__main__":
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zeus.settings.test")
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "heldout"))
