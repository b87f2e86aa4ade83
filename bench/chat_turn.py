"""A one-tool chat turn over a real websocket on daphne, against PostgreSQL and Redis, with the offline
model server answering at once; beside a bare echo consumer on the same server as the baseline. Then the
delay of streamed tokens from leaving the model server to reaching the client, at one token every 20 ms.
"""

import asyncio
import itertools
import json
import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

from bench._common import machine, percentile

ROOT = Path(__file__).resolve().parent.parent
SOCKETS = 50
TURNS_ONE = 60  # sequential turns on one socket
TURNS_EACH = 6  # turns per socket with 50 sockets at once
ECHOES_ONE = 300
ECHOES_EACH = 30
TOKEN_TURNS = 6
TOKENS_PER_REPLY = 30
TOKEN_INTERVAL = 0.020
TURN_TIMEOUT = 30.0


def _free_port() -> int:
    for port in range(8101, 8200):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 8101-8199")


def _users(n: int) -> list[tuple[str, str]]:
    """n users, each with a thread and a logged-in session: (cookie, thread id)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from assets.services import transaction_create
    from chat.services import thread_create
    from tests import factories

    out = []
    for i in range(n):
        user = factories.user(f"bench-{uuid.uuid4().hex[:8]}-{i}")
        transaction_create(user=user, amount="85k", description="Phở")
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        out.append((f"sessionid={session.session_key}", str(thread_create(user=user).id)))
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


async def _connect(port: int, path: str, cookie: str):
    from websockets.asyncio.client import connect

    return await connect(
        f"ws://127.0.0.1:{port}{path}",
        origin="http://127.0.0.1",
        additional_headers={"Cookie": cookie},
        compression=None,
        max_size=2**20,
    )


async def _echo(port: int, cookie: str, rounds: int, samples: list[float]) -> None:
    ws = await _connect(port, "/ws/echo/", cookie)
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


async def _turns(port: int, cookie: str, thread_id: str, turns: int, outcome: Outcome, arrivals=None) -> None:
    ws = await _connect(port, f"/ws/chat/{thread_id}/", cookie)
    for _ in range(turns):
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


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


async def _refused_status(port: int, path: str, cookie: str) -> int | None:
    """The HTTP status daphne answers a handshake the consumer refuses (CONTRACT §3.2: 403)."""
    from websockets.exceptions import InvalidStatus

    try:
        ws = await _connect(port, path, cookie)
    except InvalidStatus as exc:
        return exc.response.status_code
    await ws.close()
    return None


async def _measure(port: int, users: list[tuple[str, str]], responder: Responder, fake, pid: int) -> dict:
    results = {}
    cookie, thread_id = users[0]
    results["refused"] = (
        await _refused_status(port, f"/ws/chat/{thread_id}/", "sessionid=none"),
        await _refused_status(port, f"/ws/chat/{users[1][1]}/", cookie),
    )
    # Warm up every socket's path once: session lookups, the SDK's HTTP client, connection pools.
    warm = Outcome()
    await asyncio.gather(*(_turns(port, c, t, 1, warm) for c, t in users))
    await _echo(port, cookie, 20, [])

    echo_one: list[float] = []
    await _echo(port, cookie, ECHOES_ONE, echo_one)
    echo_many: list[float] = []
    await asyncio.gather(*(_echo(port, c, ECHOES_EACH, echo_many) for c, _ in users))

    one = Outcome()
    await _turns(port, cookie, thread_id, TURNS_ONE, one)
    many = Outcome()
    cpu_before, wall_before = _cpu_seconds(pid), time.perf_counter()
    await asyncio.gather(*(_turns(port, c, t, TURNS_EACH, many) for c, t in users))
    cpu_many, wall_many = _cpu_seconds(pid) - cpu_before, time.perf_counter() - wall_before

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
        one=one,
        many=many,
        tokens=tokens,
        delays=delays,
        expected_many=SOCKETS * TURNS_EACH,
        cpu_per_turn=cpu_many / max(1, len(many.samples)),
        throughput=len(many.samples) / wall_many,
        expected_tokens=TOKEN_TURNS * TOKENS_PER_REPLY,
    )
    return results


def _wait_port(port: int, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"daphne exited with {proc.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise RuntimeError("daphne did not start")


def run() -> str:
    from django.conf import settings
    from django.db import connection

    from tests.chat.fake_anthropic import FakeAnthropic

    users = _users(SOCKETS)
    db = connection.settings_dict
    database_url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    responder = Responder()
    port = _free_port()
    with FakeAnthropic() as fake:
        fake.responder = responder
        fake.emulate_cache = False
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "zeus.settings.test",
            "DATABASE_URL": database_url,
            # Persistent connections, as a deployment should run: daphne serves every ORM call from one thread.
            "DATABASE_CONN_MAX_AGE": "60",
            "REDIS_URL": settings.REDIS_URL,
            "ANTHROPIC_BASE_URL": fake.url,
            "ANTHROPIC_API_KEY": "sk-ant-bench-0123456789abcdef",
            "LOG_LEVEL": "WARNING",
        }
        daphne = str(Path(sys.executable).with_name("daphne"))
        command = [daphne, "-b", "127.0.0.1", "-p", str(port), "--websocket-max-message-size", "65536"]
        proc = subprocess.Popen([*command, "bench._chat_asgi:application"], env=env, cwd=ROOT)
        try:
            _wait_port(port, proc)
            r = asyncio.run(_measure(port, users, responder, fake, proc.pid))
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    return _report(r)


def _row(label: str, sockets: int, pair: tuple[float, float], base: tuple[float, float], target: str) -> str:
    return (
        f"| {label} | {sockets} | {_ms(pair[0])} | {_ms(pair[1])} | {pair[0] / base[0]:.1f} "
        f"| {pair[1] / base[1]:.1f} | {target} |"
    )


def _met(cond: bool) -> str:
    return "met" if cond else "**missed**"


def _report(r: dict) -> str:
    one, many, tokens = r["one"], r["many"], r["tokens"]
    e1 = (percentile(r["echo_one"], 50), percentile(r["echo_one"], 95))
    e50 = (percentile(r["echo_many"], 50), percentile(r["echo_many"], 95))
    t1 = (percentile(one.samples, 50), percentile(one.samples, 95))
    t50 = (percentile(many.samples, 50), percentile(many.samples, 95))
    delay50 = percentile(r["delays"], 50) if r["delays"] else float("nan")
    delay95 = percentile(r["delays"], 95) if r["delays"] else float("nan")
    errors = one.errors + many.errors + tokens.errors
    lost = one.lost + many.lost + tokens.lost + (r["expected_many"] - len(many.samples) - len(many.errors))
    rows = "\n".join(
        [
            _row("echo round trip (baseline)", 1, e1, e1, ""),
            _row("one-tool turn", 1, t1, e1, f"p50 ≤ 25 ms: {_met(t1[0] <= 0.025)}"),
            _row("echo round trip (baseline)", SOCKETS, e50, e50, ""),
            _row("one-tool turn", SOCKETS, t50, e50, f"p95 ≤ 150 ms: {_met(t50[1] <= 0.150)}"),
        ]
    )
    return f"""## Chat turn over the websocket (`bench/chat_turn.py`)

{machine()}, load average {os.getloadavg()[0]:.1f} when measured (the machine is shared). daphne serves
`zeus.asgi` (plus a bench-only echo consumer behind the same origin check and session auth) with
PostgreSQL and Redis; the offline model server (tests/chat/fake_anthropic.py) answers at once. A turn is
`user_message` → `done` for "show my transactions": pattern routing, one model call that asks for
`list_transactions`, the tool on PostgreSQL, a second model call that answers, both messages stored. The
per-user rate limit is lifted in the bench's ASGI module (the limiter still runs).

| measure | sockets | p50 | p95 | p50 / echo p50 | p95 / echo p95 | target |
| --- | --- | --- | --- | --- | --- | --- |
{rows}

Turns: {len(one.samples)} on one socket, {len(many.samples)} of {r["expected_many"]} with {SOCKETS} sockets at
once; errors: {len(errors)} {sorted(set(errors)) or ""}; lost turns: {lost}. With {SOCKETS} sockets the server
completed {r["throughput"]:.0f} turns a second and daphne spent {_ms(r["cpu_per_turn"])} of CPU per turn: a
single daphne process is CPU-bound there, so the p95 at {SOCKETS} sockets is about {SOCKETS} times that CPU time
on a free core (more processes behind the Redis channel layer scale it out; see docs/chat.md).

Handshakes refused by real daphne: without a session {r["refused"][0]}, on another user's thread
{r["refused"][1]} (expected 403 both).

Streaming, one token every {TOKEN_INTERVAL * 1000:.0f} ms: {len(r["delays"])} of {r["expected_tokens"]} tokens
matched; delay from leaving the model server to reaching the client p50 {_ms(delay50)}, p95 {_ms(delay95)}
(target p95 ≤ 5 ms: {_met(delay95 <= 0.005)}).
"""
