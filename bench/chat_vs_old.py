"""Issue 27's chat budget: daphne's CPU for a one-tool chat turn on this tree against an older tree's, paired
in one run (`BENCH_OLD_TREE=/path/to/old/tree python -m bench chat_vs_old`; without it, nothing is measured).

Each tree is set up as its own `bench/chat_turn.py` sets up (bench/_chat_side.py, run by that tree's
interpreter: its users, its offline model server answering at once, its daphne), on one PostgreSQL and one Redis
(a cache key prefix each). One client keeps one socket open on each server and alternates rounds of `TURNS`
one-tool turns between them, the order flipped each round so the machine's drift falls on both; each round
reads the daphne process's CPU (user + system, from /proc) before and after. A pair is this tree's round over
the old tree's next to it; the row gives the median pair and the range. On a shared machine the times move
with the load; the paired ratio is the figure to read.
"""

import asyncio
import json
import os
import statistics
import subprocess
import time
import uuid
from pathlib import Path

from bench._common import Row, machine, ms
from bench.chat_turn import TURN_TIMEOUT, cpu_seconds, open_socket

ROOT = Path(__file__).resolve().parent.parent
SIDE = Path(__file__).resolve().with_name("_chat_side.py")
PAIRS = int(os.environ.get("BENCH_PAIRS", "8"))
TURNS = 50  # per round on one socket
WARM = 30  # turns on each server before the first round: imports, pools, the SDK's client
PAUSE = 0.05  # between turns, as bench/chat_turn.py's one-socket rounds
TARGET = 0.85


class Side:
    """One tree's set-up, started in its own process by its own interpreter."""

    def __init__(self, name: str, tree: Path, database_url: str):
        self.name = name
        env = {**os.environ, "CACHE_KEY_PREFIX": f"bench-{name}"}
        env.pop("DJANGO_SETTINGS_MODULE", None)
        python = tree / ".venv" / "bin" / "python"
        self.proc = subprocess.Popen(
            [str(python), str(SIDE), database_url],
            cwd=tree,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the {name} tree's set-up exited with {self.proc.wait()}")
        info = json.loads(line)
        self.port, self.cookie, self.thread, self.pid = info["port"], info["cookie"], info["thread"], info["pid"]
        self.cpu: list[float] = []
        self.wall: list[float] = []
        self.failed = 0

    def stop(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


async def _round(ws, turns: int) -> tuple[int, int]:
    """`turns` turns on an open socket: (done, failed)."""
    done = failed = 0
    for _ in range(turns):
        await asyncio.sleep(PAUSE)
        await ws.send(json.dumps({"type": "user_message", "id": str(uuid.uuid4()), "text": "show my transactions"}))
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), TURN_TIMEOUT))
            if frame["type"] in ("done", "error"):
                done += frame["type"] == "done"
                failed += frame["type"] == "error"
                break
    return done, failed


async def _measure(sides: list[Side]) -> None:
    sockets = {side.name: await open_socket(side.port, f"/ws/chat/{side.thread}/", side.cookie) for side in sides}
    for side in sides:
        side.failed += (await _round(sockets[side.name], WARM))[1]
    for n in range(PAIRS):
        for side in sides if n % 2 == 0 else sides[::-1]:
            cpu, started = cpu_seconds(side.pid), time.perf_counter()
            done, failed = await _round(sockets[side.name], TURNS)
            side.wall.append((time.perf_counter() - started) / max(1, done) - PAUSE)
            side.cpu.append((cpu_seconds(side.pid) - cpu) / max(1, done))
            side.failed += failed
        print(f"   pair {n + 1}: " + ", ".join(f"{s.name} {ms(s.cpu[-1])}" for s in sides), flush=True)
    for ws in sockets.values():
        await ws.close()


def run() -> list:
    old_tree = os.environ.get("BENCH_OLD_TREE")
    if not old_tree:
        print("   BENCH_OLD_TREE is not set: nothing to compare with", flush=True)
        return []
    base = os.environ["DATABASE_URL"]
    sides = []
    try:
        sides.append(Side("old", Path(old_tree).resolve(), f"{base}_old"))
        sides.append(Side("this", ROOT, f"{base}_this"))
        asyncio.run(_measure(sides))
    finally:
        for side in sides:
            side.stop()
    old, this = sides
    ratios = [t / o for t, o in zip(this.cpu, old.cpu, strict=True)]
    median = statistics.median(ratios)
    print(f"   {machine()}, load average {os.getloadavg()[0]:.1f}", flush=True)
    for side in sides:
        print(
            f"   {side.name}: daphne CPU a turn median {ms(statistics.median(side.cpu))} "
            f"({ms(min(side.cpu))} to {ms(max(side.cpu))}); wall a turn median {ms(statistics.median(side.wall))}",
            flush=True,
        )
    print(f"   this over old, per pair: {', '.join(f'{r:.2f}' for r in ratios)}", flush=True)
    failed = old.failed + this.failed
    return [
        Row(
            f"old tree ({Path(old_tree).name}): daphne CPU per one-tool turn, median of {PAIRS}",
            ms(statistics.median(old.cpu)),
            1.0,
        ),
        Row(
            f"this tree: daphne CPU per one-tool turn, median of {PAIRS} pairs "
            f"(pairs {min(ratios):.2f} to {max(ratios):.2f})",
            ms(statistics.median(this.cpu)),
            median,
            f"≤ {TARGET}x",
            median <= TARGET,
        ),
        Row("turns failed", str(failed), None, "0", failed == 0),
    ]
