"""Money coming in: SePay webhook deliveries per second into one gunicorn process (threaded, as
gunicorn.conf.py ships it: what serves HTTP in production, docs/serving.md) with PostgreSQL, against a bare
DRF view on the same server; and a 100,000-row statement import, its time and peak memory.

Deliveries: 50 clients on keep-alive connections post signed (HMAC) deliveries as fast as answers come,
spread over 25 users' connections; every SePay id is sent twice, by two different clients at the same time,
as SePay's retries can race the first attempt. Then the ledger is counted: each id must have landed once.
The baseline is the same bodies, the same 50 clients, to a DRF view that parses the JSON and answers.

Import: `import_transactions FILE --user U` in a child process on a 100,000-row CSV (Zeus's header, no
categories, so the rules and the merchant dictionary run on every row); its peak RSS is read from the
kernel (its VmHWM). Baselines in the same run: a child that only starts Django (memory), and reading the
same file with the csv module alone (time).
"""

import asyncio
import csv
import datetime as dt
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench._common import Row, machine, sec

ROOT = Path(__file__).resolve().parent.parent
CLIENTS = 50
USERS = 25
UNIQUE = 1_500  # ids; each sent twice → 3,000 deliveries
ROWS = 100_000


# What serves the webhook: gunicorn's threaded workers (gunicorn.conf.py), as in production, where gunicorn
# serves every HTTP path but /mcp itself (docs/serving.md). BENCH_FEEDS_SERVER=daphne measures
# the old single-daphne setup for comparison.
SERVER = os.environ.get("BENCH_FEEDS_SERVER", "gunicorn")


class Server:
    """One server process on a listening socket it inherits, so no port can be taken between choosing and
    binding it."""

    def __init__(self, env: dict):
        self.listener = socket.create_server(("127.0.0.1", 0), backlog=1024)
        self.port = self.listener.getsockname()[1]
        fd = self.listener.fileno()
        bin_dir = Path(sys.executable).parent
        if SERVER == "daphne":
            command = [
                sys.executable,
                "-m",
                "zeus.ws_serve",
                "--fd",
                str(fd),
                "-v",
                "0",
                "bench._feeds_asgi:application",
            ]
        else:
            # gunicorn.conf.py's settings (gthread, WEB_THREADS threads), one worker: "into one process".
            command = [str(bin_dir / "gunicorn"), "-c", "gunicorn.conf.py", "-b", f"fd://{fd}"]
            command += ["bench._feeds_wsgi:application"]
            env = {**env, "WEB_CONCURRENCY": "1"}
        self.proc = subprocess.Popen(command, env=env, cwd=ROOT, pass_fds=[fd])

    def wait_ready(self, timeout: float = 60) -> None:
        started = time.monotonic()
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{SERVER} exited with {self.proc.returncode}")
            try:
                status, _ = asyncio.run(_one(self.port, "/bench/bare", b"{}", {}))
                if status == 200:
                    return
            except OSError:
                pass
            if time.monotonic() - started > timeout:
                raise RuntimeError(f"{SERVER} did not start")
            time.sleep(0.2)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.listener.close()


async def _request(reader, writer, path: str, body: bytes, headers: dict) -> tuple[int, bytes]:
    lines = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json"]
    lines += [f"Content-Length: {len(body)}", *(f"{k}: {v}" for k, v in headers.items())]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    return status, await reader.readexactly(length)


async def _one(port: int, path: str, body: bytes, headers: dict) -> tuple[int, bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        return await _request(reader, writer, path, body, headers)
    finally:
        writer.close()


async def _blast(port: int, jobs: list[tuple[str, bytes, dict]]) -> tuple[float, list[int]]:
    """The jobs in order, shared by CLIENTS workers each on its own keep-alive connection."""
    queue: asyncio.Queue = asyncio.Queue()
    for job in jobs:
        queue.put_nowait(job)
    statuses: list[int] = []

    async def worker():
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            while not queue.empty():
                path, body, headers = queue.get_nowait()
                status, _ = await _request(reader, writer, path, body, headers)
                statuses.append(status)
        finally:
            writer.close()

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(CLIENTS)))
    return time.perf_counter() - started, statuses


def _deliveries(connections: list[dict], base_id: int) -> list[tuple[str, bytes, dict]]:
    from assets.feeds.signing import sign

    rng = random.Random(base_id)
    when = dt.datetime(2026, 11, 30, 9, 0)
    jobs = []
    for n in range(UNIQUE):
        connection = connections[n % len(connections)]
        body = json.dumps(
            {
                "id": base_id + n,
                "gateway": "Vietcombank",
                "transactionDate": (when + dt.timedelta(seconds=n)).strftime("%Y-%m-%d %H:%M:%S"),
                "accountNumber": f"01234{n % len(connections):05d}",
                "subAccount": None,
                "code": None,
                "content": rng.choice(["KFC NGUYEN HUE", "GRAB*RIDE", "WinMart", "CHUYEN TIEN", "NETFLIX.COM"]),
                "transferType": rng.choice(["in", "out"]),
                "transferAmount": rng.randint(10, 5_000) * 1_000,
                "accumulated": rng.randint(1_000, 90_000) * 1_000,
                "referenceCode": f"FT{base_id + n}",
                "description": "BankAPINotify",
            }
        ).encode()
        # Signed when sent, not now: the 5-minute window must hold for the whole run.
        stamp = str(int(time.time()) + 60)
        headers = {"X-SePay-Timestamp": stamp, "X-SePay-Signature": sign(connection["secret"], stamp, body)}
        # Twice, back to back in the queue: two clients take them at the same moment.
        jobs += [(connection["path"], body, headers), (connection["path"], body, headers)]
    return jobs


def _webhook(env: dict) -> dict:
    from assets.feeds.services import sepay_connection_create
    from assets.models import Transaction
    from tests import factories

    users = [factories.user(f"feedbench{n:02d}") for n in range(USERS)]
    connections = []
    for user in users:
        new = sepay_connection_create(user=user, auth="hmac")
        connections.append({"path": f"/api/v1/integrations/sepay/webhook/{new.connection.token}", "secret": new.secret})
    statements = _statements(connections[0], users[0])
    server = Server(env)
    rounds = []
    try:
        server.wait_ready()
        asyncio.run(_blast(server.port, _deliveries(connections, 1)[:200]))  # warm: accounts exist
        for index in range(3):
            jobs = _deliveries(connections, 1_000_000 * (index + 1))
            bare = [("/bench/bare", body, headers) for _, body, headers in jobs]
            bare_time, bare_statuses = asyncio.run(_blast(server.port, bare))
            feed_time, feed_statuses = asyncio.run(_blast(server.port, jobs))
            ids = {json.loads(body)["id"] for _, body, _ in jobs}
            landed = Transaction.objects.filter(external_id__in=[f"sepay:{i}" for i in ids]).count()
            rounds.append(
                {
                    "bare_rate": len(bare) / bare_time,
                    "feed_rate": len(jobs) / feed_time,
                    "deliveries": len(jobs),
                    "unique": len(ids),
                    "landed": landed,
                    "non_200": sum(1 for s in feed_statuses + bare_statuses if s != 200),
                }
            )
    finally:
        server.stop()
    return {"rounds": rounds, "statements": statements}


def _statements(connection: dict, user) -> dict:
    """The SQL statements of one delivery into a known account and of its retry, counted in this process
    through the real URL (the account made by a first delivery)."""
    from django.db import connection as db
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()

    def deliver(job):
        path, body, headers = job
        extra = {f"HTTP_{k.upper().replace('-', '_')}": v for k, v in headers.items()}
        assert client.post(path, body, content_type="application/json", **extra).status_code == 200

    first, _, second, _ = _deliveries([connection], 900_000)[:4]
    deliver(first)
    with CaptureQueriesContext(db) as new:
        deliver(second)
    with CaptureQueriesContext(db) as retry:
        deliver(second)
    return {"new": len(new), "retry": len(retry)}


def run_in_child(code: str) -> tuple[float, int]:
    """Runs Python code in a child process; (wall seconds, the child's own peak RSS in KB, which it prints
    last). VmHWM is the peak of the child's own memory; ru_maxrss would carry the forking parent's peak."""
    code += "; print('RSS', [l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')][0])"
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=os.environ.copy(), check=True, capture_output=True, text=True
    )
    elapsed = time.perf_counter() - started
    return elapsed, int(done.stdout.strip().splitlines()[-1].split()[1])


def _import(env: dict) -> dict:
    from tests import factories

    factories.user("importbench")
    rng = random.Random(12)
    merchants = ["KFC NGUYEN HUE", "GRAB*RIDE 8812", "WinMart Thao Dien", "Circle K", "NETFLIX.COM", "Tien dien EVN"]
    start = dt.date(2026, 1, 1)
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["date", "description", "amount", "direction", "category", "external_id"])
        for n in range(ROWS):
            day = (start + dt.timedelta(days=n % 330)).isoformat()
            merchant, amount = rng.choice(merchants), rng.randint(10, 5_000) * 1_000
            writer.writerow([day, f"{merchant} {n}", amount, "expense" if n % 7 else "income", "", f"row-{n}"])
        path = handle.name
    size = Path(path).stat().st_size
    try:
        started = time.perf_counter()
        with open(path, newline="") as source:
            sum(1 for _ in csv.reader(source))
        csv_time = time.perf_counter() - started
        setup = (
            "import os, django; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'zeus.settings.test'); django.setup()"
        )
        base_time, base_rss = run_in_child(f"{setup}; import assets.importing")
        command = (
            f"{setup}; from django.core.management import call_command; "
            f"call_command('import_transactions', {path!r}, '--user', 'importbench')"
        )
        import_time, import_rss = run_in_child(command)
        again_time, _ = run_in_child(command)  # every row known: the idempotent re-import
    finally:
        os.unlink(path)
    from assets.models import Transaction

    return {
        "size": size,
        "csv_time": csv_time,
        "base_time": base_time,
        "base_rss": base_rss,
        "import_time": import_time,
        "import_rss": import_rss,
        "again_time": again_time,
        "landed": Transaction.objects.filter(user__username="importbench").count(),
    }


def run() -> list:
    from django.conf import settings
    from django.db import connection

    db = connection.settings_dict
    database_url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "zeus.settings.test",
        "DATABASE_URL": database_url,
        "REDIS_URL": settings.REDIS_URL,
        "LOG_LEVEL": "WARNING",
        # A delivery that meets its twin waits on the account's row lock holding a pooled connection; with
        # 50 clients the default 16 would make the others queue for a connection (docs/feeds.md).
        "DATABASE_POOL_MAX_SIZE": os.environ.get("BENCH_FEEDS_POOL", "48"),
    }
    os.environ["DATABASE_URL"] = database_url
    hook = _webhook(env)
    imp = _import(env)
    print(_report(hook, imp), flush=True)  # the detail, for whoever runs it
    return _rows(hook, imp)


def _server_line() -> str:
    if SERVER == "daphne":
        return f"One daphne process (DATABASE_POOL_MAX_SIZE {os.environ.get('BENCH_FEEDS_POOL', '48')})"
    threads = os.environ.get("WEB_THREADS", "8")
    return f"One gunicorn process as gunicorn.conf.py ships it (gthread, {threads} threads) serving both"


def _report(hook: dict, imp: dict) -> str:
    rounds = hook["rounds"]
    ratios = sorted(r["feed_rate"] / r["bare_rate"] for r in rounds)
    median = ratios[len(ratios) // 2]
    lines = [
        "## Money coming in (`python -m bench feeds`)",
        "",
        f"{machine()}, load average {os.getloadavg()[0]:.1f} when measured (the machine is shared). "
        f"{_server_line()}; {CLIENTS} concurrent clients on keep-alive connections, {USERS} users' HMAC "
        "connections; every SePay id delivered twice at the same moment. Statements a delivery sends: "
        f"{hook['statements']['new']} (into a known account), {hook['statements']['retry']} (a retry).",
        "",
        "| round | bare DRF view (req/s) | SePay webhook (deliveries/s) | ratio | deliveries | ids | landed "
        "| non-200 |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for n, r in enumerate(rounds, 1):
        lines.append(
            f"| {n} | {r['bare_rate']:.0f} | {r['feed_rate']:.0f} | {r['feed_rate'] / r['bare_rate']:.0%} "
            f"| {r['deliveries']} | {r['unique']} | {r['landed']} | {r['non_200']} |"
        )
    lost_or_doubled = sum(abs(r["landed"] - r["unique"]) for r in rounds)
    lines += [
        "",
        f"Median ratio **{median:.0%}** of the bare view (target ≥ 50 %); deliveries lost or doubled: "
        f"**{lost_or_doubled}** (target 0).",
        "",
        "Reading. Both the bare view and the webhook are measured on one gunicorn process as gunicorn.conf.py "
        "ships it. A delivery reads the connection, then lands in one transaction (the id claimed, where a twin "
        "waits; the account locked, the row, the balance, the inbox row, the pairing: docs/feeds.md); "
        "the push asks Redis who is online (one ZCARD), building an event loop only for an open socket. The answer "
        "waits for the commit's fsync, so the ratio depends on the machine's load and disk more than on the code.",
        "",
        "| statement import, 100,000 rows | time | peak memory (RSS) |",
        "| --- | --- | --- |",
        f"| `import_transactions` ({imp['size'] / 1e6:.1f} MB CSV, {imp['landed']:,} rows landed) "
        f"| {imp['import_time']:.1f} s | {imp['import_rss'] / 1024:.0f} MB |",
        f"| the same file again (every row known, nothing written) | {imp['again_time']:.1f} s | |",
        f"| baseline: a child that only starts Django | {imp['base_time']:.1f} s | {imp['base_rss'] / 1024:.0f} MB |",
        f"| baseline: reading the file with the csv module alone | {imp['csv_time']:.2f} s | |",
        "",
        f"Import: {imp['import_time'] / imp['csv_time']:.0f} times the bare csv read; "
        f"{(imp['import_rss'] - imp['base_rss']) / 1024:.0f} MB above Django's own start (targets: < 60 s, "
        "< 200 MB).",
    ]
    return "\n".join(lines)


def _rows(hook: dict, imp: dict) -> list:
    rounds = hook["rounds"]
    ratios = sorted(r["feed_rate"] / r["bare_rate"] for r in rounds)
    median = ratios[len(ratios) // 2]
    bare = sorted(r["bare_rate"] for r in rounds)[len(rounds) // 2]
    feed = sorted(r["feed_rate"] for r in rounds)[len(rounds) // 2]
    lost_or_doubled = sum(abs(r["landed"] - r["unique"]) for r in rounds)
    extra_mb = (imp["import_rss"] - imp["base_rss"]) / 1024
    return [
        Row(f"baseline: a bare DRF view, {CLIENTS} clients", f"{bare:,.0f} req/s", 1.0),
        Row(
            f"SePay webhook, {CLIENTS} clients, every id delivered twice (median of {len(rounds)} rounds)",
            f"{feed:,.0f} deliveries/s",
            median,
            "≥ 0.5 of the bare view",
            median >= 0.5,
        ),
        Row("deliveries lost or doubled", str(lost_or_doubled), None, "0", lost_or_doubled == 0),
        Row("baseline: reading the statement file with the csv module alone", sec(imp["csv_time"]), 1.0),
        Row(
            f"`import_transactions`, {imp['landed']:,} rows ({imp['size'] / 1e6:.1f} MB CSV)",
            sec(imp["import_time"]),
            imp["import_time"] / imp["csv_time"],
            "< 60 s",
            imp["import_time"] < 60,
        ),
        Row("the same file again (every row known)", sec(imp["again_time"]), imp["again_time"] / imp["csv_time"]),
        Row(
            "the import's peak memory above a child that only starts Django",
            f"{extra_mb:.0f} MB (peak {imp['import_rss'] / 1024:.0f} MB)",
            None,
            "peak < 200 MB",
            imp["import_rss"] / 1024 < 200,
        ),
    ]
