"""HTTP serving: the same app and requests on each candidate server, 1 / 10 / 50 keep-alive clients.

The candidates: daphne alone (the Procfile's `ws` line, what `make run` serves everything from), gunicorn with 2
sync workers (the baseline the target names), the Procfile's `web` line as it is (gunicorn's threaded workers,
gunicorn.conf.py), and what ships in production where Debian's nginx is installed: deploy/nginx.conf in front of
`web` and `ws` (docs/serving.md). Each request is measured on every server in the same round, rounds alternate,
and the median round is reported; a REST row's ratio is the shipped server's requests a second over gunicorn's
sync workers' in the same round.

Closed-loop (each client sends when answered) measures capacity; on top, profile, transactions and a plan are
also measured open-loop, 50 clients at PACED_RATE requests a second in all (bench/_load.py), on gunicorn and on
the shipped server: the latency people would see at that rate, not at saturation. The issue's "p95 at 50
concurrent clients under 100 ms" is read on the open loop: closed-loop, 50 clients keep the queue 50 deep, so
their p95 is about 50 / throughput whatever the view, and stays a capacity figure without a target.
"""

import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from bench._common import Row, machine, percentile
from bench._load import hammer, paced

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
CLIENTS = (1, 10, 50)
ROUNDS = int(os.environ.get("BENCH_SERVING_ROUNDS", 3))
SECONDS = float(os.environ.get("BENCH_SERVING_SECONDS", 2.0))
WORKERS = 2
# 50 people each making a request every half second: well inside what 2 cores serve for these views.
PACED_RATE = float(os.environ.get("BENCH_SERVING_PACED_RATE", 100))
PACED = ("/api/v1/profile", "/api/v1/transactions", "/api/v1/plans/{plan}")
LOAD = 0.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _fixture() -> tuple[str, int]:
    """A user with a token, 50 transactions of this month and an active plan: (token key, plan id)."""
    from assets.services import transaction_create
    from tests import factories
    from tests.plans.factories import plan
    from zeus.accounts.services import device_token_create
    from zeus.timeutil import user_today

    user = factories.user(f"serve-{uuid.uuid4().hex[:8]}")
    today = user_today(user)
    for i in range(50):
        transaction_create(
            user=user, amount=f"{40 + i}k", description=f"Lunch {i}", occurred_on=today.replace(day=1 + i % 28)
        )
    made = plan(user, month=today.strftime("%Y-%m"), active=True)
    return device_token_create(user=user, name="bench").key, made.id


REQUESTS = [
    ('a plain Django view returning "ok"', "/bench/plain", False),
    ("a minimal DRF APIView behind token auth", "/bench/drf", True),
    ("`GET /api/v1/profile`", "/api/v1/profile", True),
    ("`GET /api/v1/transactions` (50 rows)", "/api/v1/transactions", True),
    ("`GET /api/v1/plans/{id}`", "/api/v1/plans/{plan}", True),
]


class Server:
    def __init__(self, name: str, commands: list[tuple[list[str], dict]], port: int):
        self.name, self.commands, self.port = name, commands, port
        self.procs: list[subprocess.Popen] = []

    def __enter__(self):
        for argv, extra in self.commands:
            env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench._serving_settings", **extra}
            self.procs.append(
                subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"GET /bench/plain HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    if s.recv(64).startswith(b"HTTP/1.1 200"):
                        return self
            except OSError:
                pass
            time.sleep(0.2)
        self.__exit__()
        raise RuntimeError(f"{self.name} did not start")

    def __exit__(self, *exc):
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()

    def cpu_seconds(self) -> float:
        """CPU time of the server's processes and their children (gunicorn's workers), from /proc."""
        tick = os.sysconf("SC_CLK_TCK")
        pids = {p.pid for p in self.procs}
        stats = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                stats[int(entry.name)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
        grew = True
        while grew:
            more = {pid for pid, (ppid, _) in stats.items() if ppid in pids} - pids
            grew = bool(more)
            pids |= more
        return sum(stats[pid][1] for pid in pids if pid in stats) / tick


def _servers(scratch: Path) -> list[Server]:
    from tests import processes

    gunicorn = str(BIN / "gunicorn")
    out = []
    port = _free_port()
    ws = [sys.executable, "-m", "zeus.ws_serve", "-b", "127.0.0.1", "-p", str(port), "zeus.asgi:application"]
    out.append(Server("daphne", [(ws, {})], port))  # as the Procfile's `ws` and `make run` start it
    port = _free_port()
    # `--threads 1`: gunicorn.conf.py's thread count would otherwise turn `-k sync` into gthread (gunicorn does
    # that for any sync worker given more than one thread), and the baseline would be the threaded server.
    sync = [gunicorn, "zeus.wsgi:application", "-b", f"127.0.0.1:{port}", "-w", str(WORKERS), "-k", "sync"]
    sync += ["--threads", "1"]
    out.append(Server("gunicorn, 2 sync workers", [(sync, {})], port))
    # The Procfile's own lines, run through the shell as honcho does.
    procfile = dict(
        line.split(": ", 1) for line in (ROOT / "Procfile").read_text().splitlines() if ": " in line and line[0] != "#"
    )
    common = {"HOST": "127.0.0.1", "WEB_CONCURRENCY": str(WORKERS), "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    web = _free_port()
    web_line = (["sh", "-c", f"exec {procfile['web']}"], {**common, "PORT": str(web)})
    out.append(Server("Procfile `web`: gunicorn threaded", [web_line], web))
    if processes.NGINX.exists():
        listen, ws = _free_port(), _free_port()
        nginx = processes.nginx_command(scratch / "nginx", listen=listen, web=web, ws=ws, access_log=False)
        ws_line = (["sh", "-c", f"exec {procfile['ws']}"], {**common, "PORT": str(ws)})
        out.append(Server("shipped: nginx → `web` (+ `ws`)", [web_line, ws_line, (nginx, {})], listen))
    return out


def run() -> list:
    from django.db import connection

    token, plan_id = _fixture()
    db = connection.settings_dict
    os.environ["DATABASE_URL"] = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    with tempfile.TemporaryDirectory(prefix="zeus-bench-serving-") as scratch:
        return _measure(_servers(Path(scratch)), token, plan_id)


def _measure(servers: list[Server], token: str, plan_id: int) -> list:
    global LOAD
    LOAD = os.getloadavg()[0]
    # rounds[name][(path, clients)] = list of (rate, p50, p95, cpu per request)
    figures: dict[str, dict] = {s.name: {} for s in servers}
    for round_no in range(ROUNDS):
        order = servers if round_no % 2 == 0 else list(reversed(servers))
        for server in order:
            with server:
                for _, path, auth in REQUESTS:
                    url = path.format(plan=plan_id)
                    headers = {"Authorization": f"Token {token}"} if auth else {}
                    for clients in CLIENTS:
                        before = server.cpu_seconds()
                        result = hammer(
                            "127.0.0.1", server.port, url, headers=headers, clients=clients, seconds=SECONDS
                        )
                        cpu = server.cpu_seconds() - before
                        if result.statuses.keys() - {200} or not result.requests:
                            raise RuntimeError(f"{server.name} {url}: {result.statuses}, {result.errors} errors")
                        figures[server.name].setdefault((path, clients), []).append(
                            (
                                result.rate,
                                percentile(result.latencies, 50) * 1000,
                                percentile(result.latencies, 95) * 1000,
                                cpu / max(result.requests, 1) * 1000,
                            )
                        )
                    if path in PACED and server.name in (servers[1].name, servers[-1].name):
                        result = paced("127.0.0.1", server.port, url, headers=headers, clients=50, rate=PACED_RATE)
                        if result.statuses.keys() - {200} or result.errors:
                            raise RuntimeError(f"{server.name} {url} paced: {result.statuses}, {result.errors} errors")
                        figures[server.name].setdefault((path, "paced"), []).append(
                            (
                                result.rate,
                                percentile(result.latencies, 50) * 1000,
                                percentile(result.latencies, 95) * 1000,
                                percentile(result.latencies, 99) * 1000,
                            )
                        )
    print(_report(servers, figures), flush=True)  # the detail, for whoever runs it
    return _rows(servers, figures)


READING = """
Reading. Every request in this table is HTTP, which production serves from gunicorn's threaded workers behind
nginx (deploy/nginx.conf); where /usr/sbin/nginx is missing the shipped column is the `web` line alone. The
nginx column against the `web` column is what the proxy's hop costs a request (it reads the request, writes it
to gunicorn over a kept-alive connection, and back). Against gunicorn's sync workers (`--threads 1`: with
gunicorn.conf.py's thread count gunicorn would run `-k sync` as gthread), the threaded workers keep the
clients' connections (sync workers answer `Connection: close`, a TCP handshake a request for both sides), which
is most of what the plain and minimal DRF views cost the server; the views that spend their time in the view
and PostgreSQL (transactions, a plan) gain less, since the server's share of their request is small. daphne is
what `make run` serves everything from; websockets are not measured here (`python -m bench chat_turn` measures
the turns). The figures swing with the machine's load (other engineers' runs): compare columns of one run, not
runs."""


def _median(samples: list[tuple], key: int = 0) -> tuple:
    return sorted(samples, key=lambda s: s[key])[len(samples) // 2]


def _report(servers, figures) -> str:
    base, shipped = servers[1].name, servers[-1].name
    lines = [
        "## Serving HTTP (`python -m bench serving`)",
        "",
        f"{machine()}, load average {LOAD:.1f} when it started (the machine is shared); PostgreSQL, settings as in",
        "the tests (DEBUG off). The load comes from `bench/_load.py`",
        f"(asyncio keep-alive clients, in this machine's cores too), {SECONDS:g} s a cell after a warm-up, "
        f"{ROUNDS} rounds (median shown).",
        "Req/s at 10 clients (the issue's table); p95 at 50 clients; CPU is the server's processes' CPU a request.",
        "",
        "| request | "
        + " | ".join(s.name for s in servers)
        + " | shipped / gunicorn sync (median of the rounds' ratios) |",
        "| --- | " + " | ".join("---" for _ in servers) + " | --- |",
    ]
    for label, path, _ in REQUESTS:
        cells = []
        for server in servers:
            rate, _, _, cpu = _median(figures[server.name][(path, 10)])
            cells.append(f"{rate:,.0f} req/s, {cpu:.2f} ms CPU")
        # Per round, then the median: the two servers of a round ran within a minute of each other.
        ratio = statistics.median(
            mine[0] / theirs[0]
            for mine, theirs in zip(figures[shipped][(path, 10)], figures[base][(path, 10)], strict=True)
        )
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {ratio:.2f} |")
    lines += ["", "Every cell: req/s and p50 / p95 latency at 1, 10 and 50 clients.", ""]
    lines += ["| request | server | 1 | 10 | 50 |", "| --- | --- | --- | --- | --- |"]
    for label, path, _ in REQUESTS:
        for server in servers:
            cells = []
            for clients in CLIENTS:
                rate, p50, p95, _ = _median(figures[server.name][(path, clients)])
                cells.append(f"{rate:,.0f}/s, {p50:.1f} / {p95:.1f} ms")
            lines.append(f"| {label} | {server.name} | " + " | ".join(cells) + " |")
    p95s = {path: _median(figures[shipped][(path, 50)])[2] for _, path, _ in REQUESTS}
    rates = {path: _median(figures[shipped][(path, 50)])[0] for _, path, _ in REQUESTS}
    lines += [
        "",
        f"Closed loop (capacity, no target), p95 at 50 clients on the shipped server: profile "
        f"{p95s['/api/v1/profile']:.1f} ms, transactions {p95s['/api/v1/transactions']:.1f} ms, a plan "
        f"{p95s['/api/v1/plans/{plan}']:.1f} ms. Each of those 50 clients sends again the moment it is answered, so "
        "the queue is always 50 deep and the mean latency is 50 / throughput (Little's law): "
        f"{50 / rates['/api/v1/profile'] * 1000:.0f} ms, {50 / rates['/api/v1/transactions'] * 1000:.0f} ms and "
        f"{50 / rates['/api/v1/plans/{plan}'] * 1000:.0f} ms at the rates measured.",
        "",
        f"Open loop (the target's reading: p95 under 100 ms): 50 clients at {PACED_RATE:g} requests a second in all "
        f"(one each every {50 / PACED_RATE:g} s), latency from when each request was due; median of {ROUNDS} rounds "
        "by p95.",
        "",
        "| request | server | req/s | p50 | p95 | p99 |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for label, path, _ in REQUESTS:
        if path not in PACED:
            continue
        for name in (base, shipped):
            rate, p50, p95, p99 = _median(figures[name][(path, "paced")], key=2)
            lines.append(f"| {label} | {name} | {rate:,.0f} | {p50:.1f} ms | {p95:.1f} ms | {p99:.1f} ms |")
    lines += READING.splitlines()
    return "\n".join(lines)


def _rows(servers, figures) -> list:
    """For each request: the shipped server's rate at 10 clients over gunicorn's sync workers' (the median of
    the rounds' ratios: the two servers of a round run within a minute of each other), and for the views the
    issue's budget names, the shipped server's p95 at 50 clients at PACED_RATE (the target) and back to back
    (capacity: p95 is then about 50 / throughput, so no target)."""
    base, shipped = servers[1].name, servers[-1].name
    rows = []
    for label, path, _ in REQUESTS:
        rate = _median(figures[shipped][(path, 10)])[0]
        ratio = statistics.median(
            mine[0] / theirs[0]
            for mine, theirs in zip(figures[shipped][(path, 10)], figures[base][(path, 10)], strict=True)
        )
        rows.append(Row(f"{label}: req/s at 10 clients, shipped over 2 sync workers", f"{rate:,.0f} req/s", ratio))
        if path in P95_TARGETS:
            p95 = _median(figures[shipped][(path, "paced")], key=2)[2]
            rows.append(
                Row(
                    f"{label}: p95 at 50 clients, {PACED_RATE:g} req/s in all (open loop), shipped",
                    f"{p95:.1f} ms",
                    None,
                    "< 100 ms",
                    p95 < 100,
                )
            )
            p95 = _median(figures[shipped][(path, 50)])[2]
            rows.append(Row(f"{label}: p95 at 50 clients back to back (capacity), shipped", f"{p95:.1f} ms"))
    return rows


P95_TARGETS = ("/api/v1/profile", "/api/v1/transactions", "/api/v1/plans/{plan}")
