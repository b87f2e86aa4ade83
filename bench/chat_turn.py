"""A one-tool chat turn over a real websocket on daphne, against PostgreSQL and Redis, with the offline
model server answering at once; beside a bare echo consumer on the same server as the baseline. Then the
delay of streamed tokens from leaving the model server to reaching the client, at one token every 20 ms.

Fifty concurrent sockets are measured two ways. The target's reading: fifty users chatting at once, each
sending at the most the contract lets a user send (10 turns a minute), at random moments (Poisson arrivals,
each user waiting for their reply before the next). And the server's capacity: fifty sockets each sending
its next message the instant the last is done, on one daphne process and on one per core.

daphne is started here as the Procfile's `ws` line starts it (`python -m zeus.ws_serve`); in production the
reverse proxy in front (deploy/nginx.conf) relays each frame as it comes, a hop not measured here.
"""

import asyncio
import itertools
import json
import os
import random
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

from bench._common import Row, machine, ms, percentile

ROOT = Path(__file__).resolve().parent.parent
SOCKETS = 50
TURNS_ONE = 100  # sequential turns on one socket, in each of
ROUNDS_ONE = 3  # rounds spread over the run (a shared machine's speed drifts); the median round is reported
PAUSE_ONE = 0.05  # between them: the next message 50 ms after `done`; nobody types faster
TURNS_EACH = 6  # turns per socket with 50 sockets at once
USER_RATE = 10 / 60  # turns a second per user: the contract's limit (docs/contract/websocket.md)
PROCESSES = os.cpu_count() or 1  # for the scale-out row
ECHOES_ONE = 300
ECHOES_EACH = 30
TOKEN_TURNS = 6
TOKENS_PER_REPLY = 30
TOKEN_INTERVAL = 0.020
TURN_TIMEOUT = 30.0


def _users(n: int) -> list[tuple[str, str]]:
    """n users, each with a thread and a logged-in session: (cookie, thread id)."""
    from django.conf import settings
    from django.test import Client

    from assets.services import transaction_create
    from chat.services import thread_create
    from tests import factories

    out = []
    for i in range(n):
        user = factories.user(f"bench-{uuid.uuid4().hex[:8]}-{i}")
        transaction_create(user=user, amount="85k", description="Phở")
        # Signed in as the configured backends sign in (allauth's), so the socket's session resolves a user.
        client = Client()
        client.force_login(user)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        out.append((f"{settings.SESSION_COOKIE_NAME}={session}", str(thread_create(user=user).id)))
    return out


class Responder:
    """One tool call, then a short answer; or, in token mode, a reply streamed a token every 20 ms."""

    def __init__(self):
        self.token_mode = False
        self.counter = itertools.count()

    def __call__(self, body):
        from tests.chat import fake_anthropic as model

        last = body["messages"][-1]["content"]
        answered = isinstance(last, list) and any(b.get("type") == "tool_result" for b in last)
        if self.token_mode:
            n = next(self.counter)
            return model.text(" ".join(f"t{n}x{i}" for i in range(TOKENS_PER_REPLY)), token_delay=TOKEN_INTERVAL)
        if answered:
            return model.text("You spent 85,000 ₫ on phở.")
        return model.tools(("list_transactions", {"limit": 5}))


async def open_socket(port: int, path: str, cookie: str):
    from websockets.asyncio.client import connect

    return await connect(
        f"ws://127.0.0.1:{port}{path}",
        origin="http://127.0.0.1",
        additional_headers={"Cookie": cookie},
        compression=None,
        max_size=2**20,
    )


async def _echo(port: int, cookie: str, rounds: int, samples: list[float]) -> None:
    ws = await open_socket(port, "/ws/echo/", cookie)
    payload = json.dumps({"type": "user_message", "id": "x", "text": "show my transactions"})
    for _ in range(rounds):
        started = time.perf_counter()
        await ws.send(payload)
        await ws.recv()
        samples.append(time.perf_counter() - started)
    await ws.close()


class Outcome:
    def __init__(self):
        self.samples: list[float] = []
        self.errors: list[str] = []
        self.lost = 0
        self.token_delays: list[float] = []


async def _turns(
    port: int, cookie: str, thread_id: str, turns: int, outcome: Outcome, arrivals=None, pause=None
) -> None:
    """`turns` turns on one socket, one after the other; `pause()` gives the wait before each."""
    ws = await open_socket(port, f"/ws/chat/{thread_id}/", cookie)
    for _ in range(turns):
        if pause is not None:
            await asyncio.sleep(pause())
        started = time.perf_counter()
        await ws.send(json.dumps({"type": "user_message", "id": str(uuid.uuid4()), "text": "show my transactions"}))
        try:
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), TURN_TIMEOUT))
                if frame["type"] == "token" and arrivals is not None:
                    arrivals.append((frame["text"], time.perf_counter()))
                if frame["type"] == "done":
                    outcome.samples.append(time.perf_counter() - started)
                    break
                if frame["type"] == "error":
                    outcome.errors.append(frame["code"])
                    break
        except TimeoutError:
            outcome.lost += 1
            break
    await ws.close()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _refused_status(port: int, path: str, cookie: str) -> int | None:
    """The HTTP status daphne answers a handshake the consumer refuses (docs/contract/websocket.md: 403)."""
    from websockets.exceptions import InvalidStatus

    try:
        ws = await open_socket(port, path, cookie)
    except InvalidStatus as exc:
        return exc.response.status_code
    await ws.close()
    return None


def _poisson(rng: random.Random, rate: float):
    """Waits between a user's turns so that their messages come at random moments at `rate` a second (the
    time spent waiting for a reply counts toward the next wait, as a person reads while it streams)."""
    state = {"next": time.perf_counter() + rng.expovariate(rate)}

    def pause() -> float:
        wait = max(0.0, state["next"] - time.perf_counter())
        state["next"] = max(state["next"], time.perf_counter()) + rng.expovariate(rate)
        return wait

    return pause


async def _warm(port: int, users: list[tuple[str, str]]) -> None:
    """Every socket's path once (session lookups, the SDK's HTTP client, connection pools), one after another:
    fifty handshakes queued behind a process's first import of the SDK outlast daphne's handshake timeout."""
    warm = Outcome()
    for cookie, thread_id in users:
        await _turns(port, cookie, thread_id, 1, warm)
    await _echo(port, users[0][0], 20, [])


async def _capacity(port: int, users: list[tuple[str, str]], pids: list[int]) -> dict:
    """Fifty sockets, each sending its next message the instant the last is done."""
    many = Outcome()
    cpu_before, wall_before = sum(map(cpu_seconds, pids)), time.perf_counter()
    await asyncio.gather(*(_turns(port, c, t, TURNS_EACH, many) for c, t in users))
    cpu, wall = sum(map(cpu_seconds, pids)) - cpu_before, time.perf_counter() - wall_before
    return {"outcome": many, "cpu_per_turn": cpu / max(1, len(many.samples)), "throughput": len(many.samples) / wall}


async def _one_socket(port: int, user: tuple[str, str], pids: list[int]) -> dict:
    """One round of turns on one socket, and daphne's CPU per turn in it."""
    one = Outcome()
    cpu_before = sum(map(cpu_seconds, pids))
    await _turns(port, user[0], user[1], TURNS_ONE, one, pause=lambda: PAUSE_ONE)
    return {"outcome": one, "cpu_per_turn": (sum(map(cpu_seconds, pids)) - cpu_before) / max(1, len(one.samples))}


async def _measure(port: int, users: list[tuple[str, str]], responder: Responder, fake, pids: list[int]) -> dict:
    results = {}
    cookie, thread_id = users[0]
    results["refused"] = (
        await _refused_status(port, f"/ws/chat/{thread_id}/", "sessionid=none"),
        await _refused_status(port, f"/ws/chat/{users[1][1]}/", cookie),
    )
    await _warm(port, users)

    echo_one: list[float] = []
    await _echo(port, cookie, ECHOES_ONE, echo_one)
    echo_many: list[float] = []
    await asyncio.gather(*(_echo(port, c, ECHOES_EACH, echo_many) for c, _ in users))

    rounds = [await _one_socket(port, users[0], pids)]
    paced = Outcome()
    rng = random.Random(4)
    await asyncio.gather(*(_turns(port, c, t, TURNS_EACH, paced, pause=_poisson(rng, USER_RATE)) for c, t in users))
    rounds.append(await _one_socket(port, users[0], pids))
    capacity = await _capacity(port, users, pids)
    rounds.append(await _one_socket(port, users[0], pids))

    responder.token_mode = True
    fake.record_token_times = True
    tokens = Outcome()
    arrivals: list[tuple[str, float]] = []
    await _turns(port, users[1][0], users[1][1], TOKEN_TURNS, tokens, arrivals)
    fake.record_token_times = False
    sent = dict(fake.token_times)
    delays = [at - sent[text] for text, at in arrivals if text in sent]
    results.update(
        echo_one=echo_one,
        echo_many=echo_many,
        rounds=rounds,
        paced=paced,
        capacity=capacity,
        tokens=tokens,
        delays=delays,
        expected_many=SOCKETS * TURNS_EACH,
        expected_tokens=TOKEN_TURNS * TOKENS_PER_REPLY,
    )
    return results


class Daphne:
    """`processes` daphne processes accepting on one listening socket (`python -m zeus.ws_serve --fd`), as a
    deployment runs one per core; they share the Redis channel layer, the cache lock and the rate counters."""

    def __init__(self, env: dict, processes: int):
        self.listener = socket.create_server(("127.0.0.1", 0), backlog=1024)
        self.port = self.listener.getsockname()[1]
        fd = self.listener.fileno()
        command = [sys.executable, "-m", "zeus.ws_serve", "--fd", str(fd), "-v", "0"]
        command += ["--websocket-max-message-size", "65536", "bench._chat_asgi:application"]
        self.procs = [subprocess.Popen(command, env=env, cwd=ROOT, pass_fds=[fd]) for _ in range(processes)]

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]

    def wait_ready(self, timeout: float = 60) -> None:
        """Until a process answers a handshake (one with no session, refused); the others load at the same
        pace, so they get as long again."""
        started = time.monotonic()
        while True:
            for proc in self.procs:
                if proc.poll() is not None:
                    raise RuntimeError(f"daphne exited with {proc.returncode}")
            try:
                asyncio.run(asyncio.wait_for(_refused_status(self.port, "/ws/echo/", "sessionid=none"), 1))
                break
            except (OSError, TimeoutError):
                if time.monotonic() - started > timeout:
                    raise RuntimeError("daphne did not start") from None
                time.sleep(0.2)
        time.sleep(time.monotonic() - started)

    def stop(self) -> None:
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            proc.wait(timeout=10)
        self.listener.close()


def run() -> list:
    from django.conf import settings
    from django.db import connection

    from tests.chat.fake_anthropic import FakeAnthropic

    users = _users(SOCKETS)
    db = connection.settings_dict
    database_url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    responder = Responder()
    with FakeAnthropic() as fake:
        fake.responder = responder
        fake.emulate_cache = False
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "zeus.settings.test",
            "DATABASE_URL": database_url,
            "REDIS_URL": settings.REDIS_URL,
            "ANTHROPIC_BASE_URL": fake.url,
            "ANTHROPIC_API_KEY": "sk-ant-bench-0123456789abcdef",
            # The budget check still runs on every model call; it must not end the bench's many turns.
            "ZEUS_DAILY_TOKEN_BUDGET": "0",
            "LOG_LEVEL": "WARNING",
        }
        server = Daphne(env, 1)
        try:
            server.wait_ready()
            r = asyncio.run(_measure(server.port, users, responder, fake, server.pids))
        finally:
            server.stop()
        responder.token_mode = False
        server = Daphne(env, PROCESSES)
        try:
            server.wait_ready()
            asyncio.run(_warm(server.port, users))
            r["scaled"] = asyncio.run(_capacity(server.port, users, server.pids))
        finally:
            server.stop()
    print(_report(r), flush=True)  # the detail, for whoever runs it
    return _rows(r)


def _pair(samples: list[float]) -> tuple[float, float]:
    return (percentile(samples, 50), percentile(samples, 95)) if samples else (float("nan"), float("nan"))


def _report(r: dict) -> str:
    """Every round's figures, printed for whoever runs the bench; the table takes `_rows`."""
    lines = [f"   {machine()}, load average {os.getloadavg()[0]:.1f}"]
    for n, one in enumerate(r["rounds"], 1):
        p50, p95 = _pair(one["outcome"].samples)
        lines.append(
            f"   one socket, round {n}: p50 {ms(p50)}, p95 {ms(p95)}, {ms(one['cpu_per_turn'])} daphne CPU a turn"
        )
    for name, run in (
        ("paced", r["paced"]),
        ("capacity", r["capacity"]["outcome"]),
        ("scaled", r["scaled"]["outcome"]),
    ):
        p50, p95 = _pair(run.samples)
        lines.append(f"   {SOCKETS} sockets, {name}: p50 {ms(p50)}, p95 {ms(p95)}, {len(run.samples)} turns")
    for name in ("capacity", "scaled"):
        lines.append(f"   {name}: {r[name]['throughput']:.0f} turns/s, {ms(r[name]['cpu_per_turn'])} daphne CPU a turn")
    return "\n".join(lines)


def _rows(r: dict) -> list:
    paced, capacity, scaled = r["paced"], r["capacity"], r["scaled"]
    e1, e50 = _pair(r["echo_one"]), _pair(r["echo_many"])
    rounds = sorted(r["rounds"], key=lambda one: _pair(one["outcome"].samples)[0])
    median = rounds[len(rounds) // 2]
    t1, tp, tc = _pair(median["outcome"].samples), _pair(paced.samples), _pair(capacity["outcome"].samples)
    delay95 = _pair(r["delays"])[1]
    runs = [*(one["outcome"] for one in r["rounds"]), paced, capacity["outcome"], scaled["outcome"], r["tokens"]]
    many = (paced, capacity["outcome"], scaled["outcome"])
    lost = sum(run.lost for run in runs) + sum(r["expected_many"] - len(run.samples) - len(run.errors) for run in many)
    failed = sum(len(run.errors) for run in runs) + lost
    return [
        Row("baseline: echo round trip, one socket, p50", ms(e1[0]), 1.0),
        Row(
            f"one-tool turn, one socket, p50 (median of {ROUNDS_ONE} rounds)",
            ms(t1[0]),
            t1[0] / e1[0],
            "≤ 25 ms",
            t1[0] <= 0.025,
        ),
        Row("daphne CPU per one-tool turn, one socket (that round)", ms(median["cpu_per_turn"])),
        Row(
            f"one-tool turn, {SOCKETS} users at the contract's rate, p95",
            ms(tp[1]),
            tp[1] / e1[1],
            "≤ 150 ms",
            tp[1] <= 0.150,
        ),
        Row(f"baseline: echo round trip, {SOCKETS} sockets back to back, p50", ms(e50[0]), 1.0),
        Row(
            f"capacity, {SOCKETS} sockets back to back: p50 (turns a second on 1 / {PROCESSES} daphne processes)",
            f"{ms(tc[0])} ({capacity['throughput']:.0f} / {scaled['throughput']:.0f})",
            tc[0] / e50[0],
        ),
        Row(
            f"streamed token delay, one every {TOKEN_INTERVAL * 1000:.0f} ms, p95",
            ms(delay95),
            None,
            "≤ 5 ms",
            delay95 <= 0.005,
        ),
        Row("turns failed or lost", str(failed), None, "0", failed == 0),
        Row(
            "handshakes without a session / on another user's thread",
            " / ".join(str(code) for code in r["refused"]),
            None,
            "403 / 403",
            tuple(r["refused"]) == (403, 403),
        ),
    ]
