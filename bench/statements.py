"""Statement files and bank texts: a 100,000-row file of each format imported by `import_transactions` in a child
process (its time and peak memory; the rows it made counted: every line one row), the three fixed-width bank
standards' files, BAI2 (in accounts of 10,000 lines, and in one account) and a Russian 1C client-bank exchange file
written by bench/_standards.py, a bank's
HTML table under an .xls name, and the bank-text reader's time per text (p50 and p99 over the corpus, repeated; the
p99 over texts of each text's median) and on 1,000 characters of noise."""

import datetime as dt
import io
import os
import random
import statistics
import subprocess
import tempfile
import time
import zoneinfo
from pathlib import Path

from bench import _standards
from bench._common import Row, sec
from bench.feeds import run_in_child

ROWS = 100_000
BUDGET_SECONDS = 60
BUDGET_RSS_KB = 250 * 1024
# An .xls (BIFF8) sheet holds at most 65,536 rows: the largest file a bank can send is a header and 65,535 lines.
XLS_ROWS = 65_535


def _dates(n: int) -> dt.date:
    return dt.date(2026, 1, 1) + dt.timedelta(days=n % 330)


def _csv() -> bytes:
    out = io.StringIO()
    out.write("Ngày giao dịch;Số tham chiếu;Nội dung;Ghi nợ;Ghi có;Số dư\n")
    for n in range(ROWS):
        debit, credit = (f"{(n % 500 + 1) * 1000:,}", "") if n % 7 else ("", f"{(n % 90 + 10) * 100000:,}")
        out.write(f"{_dates(n):%d/%m/%Y};FT{n:09d};Thanh toán KFC Nguyễn Huệ {n};{debit};{credit};1,000,000\n")
    return out.getvalue().encode("utf-8-sig")


def _xlsx() -> bytes:
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    sheet = book.create_sheet()
    sheet.append(["SAO KÊ TÀI KHOẢN"])
    sheet.append(["Ngày giao dịch/Transaction Date", "Nợ/Debit", "Có/Credit", "Số dư/Balance", "Diễn giải/Description"])
    for n in range(ROWS):
        sheet.append([_dates(n).strftime("%d/%m/%Y"), (n % 500 + 1) * 1000, 0, 1_000_000, f"GRAB {n}"])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _xls() -> bytes:
    import xlwt

    book = xlwt.Workbook()
    sheet = book.add_sheet("Statement")
    header = ["Transaction Date", "Cheque Number", "Transaction Remarks", "Withdrawal Amount", "Deposit Amount"]
    for column, name in enumerate([*header, "Balance"]):
        sheet.write(0, column, name)
    for n in range(XLS_ROWS):
        line = [_dates(n).strftime("%d/%m/%Y"), f"FT{n:09d}", f"NEFT-KFC {n}", (n % 500 + 1) * 1000, 0, 1_000_000]
        for column, value in enumerate(line):
            sheet.write(n + 1, column, value)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _ofx() -> bytes:
    lines = [
        "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nCHARSET:1252\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS>",
        "<CURDEF>VND<BANKACCTFROM><BANKID>970436<ACCTID>0071000123456<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST>",
    ]
    for n in range(ROWS):
        lines.append(
            f"<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>{_dates(n):%Y%m%d}120000<TRNAMT>-{(n % 500 + 1) * 1000}"
            f"<FITID>FT{n:09d}<NAME>KFC {n}</STMTTRN>"
        )
    lines.append("</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n")
    return "\n".join(lines).encode()


def _qif() -> bytes:
    parts = ["!Type:Bank"]
    for n in range(ROWS):
        parts.append(f"D{_dates(n):%d/%m/%Y}\nT-{(n % 500 + 1) * 1000}\nPKFC {n}\n^")
    return ("\r\n".join(parts) + "\r\n").encode()


def _camt() -> bytes:
    head = (
        '<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">'
        "<BkToCstmrStmt><Stmt><Acct><Id><IBAN>VN0000000000000</IBAN></Id></Acct>"
    )
    entries = [
        f'<Ntry><Amt Ccy="VND">{(n % 500 + 1) * 1000}</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts>'
        f"<BookgDt><Dt>{_dates(n).isoformat()}</Dt></BookgDt><AcctSvcrRef>R{n}</AcctSvcrRef>"
        f"<AddtlNtryInf>KFC {n}</AddtlNtryInf></Ntry>"
        for n in range(ROWS)
    ]
    return (head + "".join(entries) + "</Stmt></BkToCstmrStmt></Document>").encode()


def _mt940() -> bytes:
    lines = [":20:STATEMENT", ":25:0071000123456", ":28C:1/1", ":60F:C260101VND1000000000"]
    for n in range(ROWS):
        lines.append(f":61:{_dates(n):%y%m%d}D{(n % 500 + 1) * 1000},NTRFNONREF//B{n}")
        lines.append(f":86:KFC {n}")
    lines.append(":62F:C261231VND1000000000")
    return ("\r\n".join(lines) + "\r\n").encode()


def _html() -> bytes:
    # A web bank's "Excel" download: an HTML table under an .xls name (Openbank's layout, written compactly: a page
    # is read whole, and its markup must stay under the importer's cap on such files).
    rows = [
        "<!DOCTYPE html><html><head><meta charset='iso-8859-1'></head><body><table>",
        "<tr><td>Cuentas - Movimientos</td></tr>",
        "<tr><td>Fecha Operación</td><td>Fecha Valor</td><td>Concepto</td><td>Importe</td><td>Saldo</td></tr>",
    ]
    for n in range(ROWS):
        day = f"{_dates(n):%d/%m/%Y}"
        rows.append(f"<tr><td>{day}</td><td>{day}</td><td>KFC {n}</td><td>-{n % 500 + 1},00</td><td>1.000,00</td></tr>")
    return ("\n".join(rows) + "</table></body></html>").encode()


FORMATS = {
    "csv": _csv,
    "xlsx": _xlsx,
    "xls": _xls,
    "ofx": _ofx,
    "qif": _qif,
    "camt053": _camt,
    "mt940": _mt940,
    "html": _html,
    "norma43": lambda: _standards.norma43(ROWS),
    "coda": lambda: _standards.coda(ROWS),
    "cfonb120": lambda: _standards.cfonb120(ROWS),
    "bai2": lambda: _standards.bai2(ROWS),
    # A bank's whole day in one account: the reader's memory must not grow with an account.
    "bai2_one_account": lambda: _standards.bai2(ROWS, per=ROWS),
    "1c": lambda: _standards.onec(ROWS),
}


def _files() -> list[tuple[str, float, int, int, str]]:
    from assets.models import Transaction
    from tests import factories

    setup = "import os, django; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'zeus.settings.test'); django.setup()"
    results = []
    for name, make in FORMATS.items():
        refusal = ""
        factories.user(f"bench-{name}")
        data = make()
        with tempfile.NamedTemporaryFile("wb", suffix=f".{name}", delete=False) as handle:
            handle.write(data)
            path = handle.name
        try:
            code = (
                f"{setup}; from django.core.management import call_command; "
                f"call_command('import_transactions', {path!r}, '--user', 'bench-{name}')"
            )
            try:
                elapsed, rss = run_in_child(code)
            except subprocess.CalledProcessError as exc:  # a refused file (a size cap): the command's words on why
                elapsed, rss = float("nan"), 0
                refusal = (exc.stderr or "").strip().splitlines()[-1:] or ["the import failed"]
                refusal = refusal[0].rpartition("CommandError: ")[2]
        finally:
            os.unlink(path)
        if rss:  # imported: every line of the file a row, none lost or doubled on the way
            imported = Transaction.objects.filter(user__username=f"bench-{name}").count()
            expected = XLS_ROWS if name == "xls" else ROWS
            assert imported == expected, f"{name}: {imported:,} rows imported, not {expected:,}"
        results.append((name, elapsed, rss, len(data), refusal))
    return results


def _texts() -> tuple[float, float, float, float]:
    """Per call (p50, p99) over the corpus's texts repeated, the p99 over texts of each text's own median (what
    the reader costs on its slowest texts, without the scheduler's pauses a loaded machine adds to single
    calls), and the slowest of the hostile shapes of 1,000 characters of noise (each one's median; refused)."""
    from assets.banktexts.parsers import parse
    from tests.assets.banktexts.corpus_check import CORPUS, cases
    from tests.assets.banktexts.test_corpus import NOISE, NOT_YET_MEASURED

    tz = zoneinfo.ZoneInfo("Asia/Ho_Chi_Minh")
    now = dt.datetime(2026, 12, 3, 12, tzinfo=tz)
    parts = sorted(p.stem for p in CORPUS.glob("*.jsonl") if p.stem not in NOT_YET_MEASURED)
    texts = [c["text"] for part in parts for c in cases(part)]
    random.Random(3).shuffle(texts)
    timings, each = [], {text: [] for text in texts}
    for _ in range(50):
        for text in texts:
            started = time.perf_counter()
            parse(text, now=now, tz=tz)
            spent = time.perf_counter() - started
            timings.append(spent)
            each[text].append(spent)
    timings.sort()
    medians = sorted(statistics.median(runs) for runs in each.values())
    noise = {shape: [] for shape in NOISE}
    for _ in range(50):
        for shape, text in NOISE.items():
            started = time.perf_counter()
            parse(text[:1000], now=now, tz=tz)
            noise[shape].append(time.perf_counter() - started)

    def p99(values):
        return values[int(len(values) * 0.99)] * 1000

    worst_noise = max(statistics.median(runs) for runs in noise.values()) * 1000
    return statistics.median(timings) * 1000, p99(timings), p99(medians), worst_noise


def run() -> list[Row]:
    from django.db import connection

    db = connection.settings_dict
    # The child processes import into this benchmark's fresh database, not the one the environment names.
    host = f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    os.environ["DATABASE_URL"] = f"postgres://{db['USER']}@{host}/{db['NAME']}"
    rows = []
    for name, elapsed, rss, size, refusal in _files():
        print(f"   {name}: {size / 1e6:.1f} MB, {elapsed:.1f} s, {rss / 1024:.0f} MB peak RSS", flush=True)
        label = name.replace("_", " ")
        lines = f"{XLS_ROWS:,}-row {label} file (BIFF8's most)" if name == "xls" else f"{ROWS:,}-row {label} file"
        rows.append(
            Row(
                f"a {lines} imported (time, peak memory)",
                f"refused ({size / 1e6:.1f} MB): {refusal}" if refusal else f"{sec(elapsed)}, {rss / 1024:.0f} MB",
                target=f"≤ {BUDGET_SECONDS} s, ≤ {BUDGET_RSS_KB // 1024} MB",
                met=elapsed <= BUDGET_SECONDS and rss <= BUDGET_RSS_KB,
            )
        )
    p50, p99, slowest, noise = _texts()
    rows.append(Row("a bank text parsed, per call (p50 / p99)", f"{p50:.3f} / {p99:.3f} ms"))
    rows.append(
        Row("a bank text parsed, p99 over texts of each one's median", f"{slowest:.3f} ms", target="p99 ≤ 1 ms",
            met=slowest <= 1)
    )  # fmt: skip
    rows.append(Row("1,000 characters of noise refused, its slowest shape (median)", f"{noise:.3f} ms",
                    target="≤ 1 ms", met=noise <= 1))  # fmt: skip
    return rows


if __name__ == "__main__":
    print(Path(__file__).name, "is run by `python -m bench statements`")
