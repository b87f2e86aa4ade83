"""The nightly jobs on real Celery workers: 10,000 users, with 1 and then 2 worker processes.

Each job is started the way beat starts it (the contract's task, which fans out one batch task per user id
range, zeus.fanout) on a Redis broker, and timed from the enqueue to the last batch's `succeeded` line in the
workers' logs (the run ends once the broker has held no queued and no unacknowledged message for a second).
Workers are started, answering, connected to the database and the broker, and warm (each runs `bench.warm`
once: one small batch of the job, rolled back, as a worker in service has long since run it) before the
clock starts. The data: the insights bench's
users and 1,000,000 transactions, and an active plan per user for the month; each run starts from the same
rows (what a run writes is deleted before the next). Each job runs BENCH_NIGHTLY_ROUNDS times (3) on 1 then 2
workers, and the round with the median speed-up is shown.
"""

import datetime as dt
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench._common import Row, machine, sec, settle_after_load
from bench.insights import USERS, load

ROOT = Path(__file__).resolve().parent.parent
INSIGHTS_AT = dt.datetime(2026, 11, 20, 5, tzinfo=dt.UTC)
REMINDERS_AT = dt.datetime(2026, 11, 20, 13, 30, tzinfo=dt.UTC)  # 20:30 in Saigon: every reminder is due
MONTH_END_AT = dt.datetime(2026, 12, 1, 3, tzinfo=dt.UTC)  # 10:00 on 1 December in Saigon
# Rounds of each job on 1 then 2 workers; the round with the median speed-up is shown. A short job (the
# reminders take under a second) swings with whatever else the machine does meanwhile.
ROUNDS = int(os.environ.get("BENCH_NIGHTLY_ROUNDS", 3))


def _plans() -> None:
    from django.contrib.auth import get_user_model

    from plans.models import MonthlyPlan

    ids = get_user_model().objects.order_by("id").values_list("id", flat=True)
    first = dt.date(2026, 11, 1)
    MonthlyPlan.objects.bulk_create(
        [
            MonthlyPlan(
                user_id=uid,
                month=first,
                status=MonthlyPlan.Status.ACTIVE,
                currency="VND",
                expected_income=25_000_000,
                activated_on=first,
                alloc_fixed=6_760_000,
                alloc_essential=9_000_000,
                alloc_goal=3_000_000,
                alloc_safe=6_240_000,
            )
            for uid in ids
        ],
        batch_size=5_000,
    )


def _reset() -> None:
    from plans.models import MonthlyPlan, ReminderLog
    from suggestions.models import Suggestion
    from zeus.models import Notification

    Notification.objects.all().delete()
    Suggestion.objects.all().delete()
    ReminderLog.objects.all().delete()
    MonthlyPlan.objects.update(status=MonthlyPlan.Status.ACTIVE, summary=None, completed_at=None)


def _machine_busy() -> float:
    """Seconds of CPU the whole machine has spent busy since boot (every process: other people's too)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def _proc_stats() -> dict[int, tuple[int, int, int, str]]:
    """pid -> (parent pid, own CPU ticks, CPU ticks of its exited children, command line) from /proc."""
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            own, exited = int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])
            stats[int(entry.name)] = (int(fields[1]), own, exited, cmdline)
    return stats


def _cpu(pids: set[int]) -> float:
    """CPU seconds of the given processes and their descendants, exited ones included."""
    stats, chosen, grew = _proc_stats(), set(pids), True
    while grew:
        more = {pid for pid, (ppid, *_) in stats.items() if ppid in chosen} - chosen
        grew = bool(more)
        chosen |= more
    return sum(stats[pid][1] + stats[pid][2] for pid in chosen if pid in stats) / os.sysconf("SC_CLK_TCK")


def _postmaster() -> int:
    """The PostgreSQL server's main process: its children are the backends."""
    for pid, (_, _, _, line) in _proc_stats().items():
        if line.split(" ", 1)[0].endswith("/bin/postgres"):
            return pid
    raise RuntimeError("no PostgreSQL server on this machine")


class Backends:
    """CPU ticks of the PostgreSQL backends connected to one database, sampled while a job runs: a backend
    that exits meanwhile keeps the ticks it was last seen with (the postmaster's count of its reaped
    children would take in every other database's backends too, other engineers' included)."""

    def __init__(self, database: str):
        postmaster = _postmaster()
        self.children = Path(f"/proc/{postmaster}/task/{postmaster}/children")
        self.database, self.ours, self.ticks = database, set(), {}

    def sample(self) -> None:
        for pid in map(int, self.children.read_text().split()):
            try:
                # A backend names its database once it has authenticated: until then it is asked again.
                if pid not in self.ours:
                    line = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                    if line.startswith("postgres:") and f" {self.database} " in line:
                        self.ours.add(pid)
                if pid in self.ours:
                    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                    self.ticks[pid] = int(fields[11]) + int(fields[12])
            except OSError:
                continue

    def seconds(self) -> float:
        self.sample()
        return sum(self.ticks.values()) / os.sysconf("SC_CLK_TCK")


def _broker_idle(client) -> bool:
    return client.llen("celery") == 0 and client.hlen("unacked") == 0


def _workers(n: int, env: dict, at: dt.datetime, logs: Path) -> list[subprocess.Popen]:
    procs = []
    for i in range(n):
        argv = [sys.executable, "-m", "bench._nightly_worker", at.isoformat(), f"w{i}", str(logs / f"w{i}.log")]
        # A session of its own per worker, as separate services would have: with the kernel's autogroup
        # scheduling, processes of one session share one slice of a busy machine, which would make a second
        # worker add no CPU at all whenever anything else is running.
        procs.append(
            subprocess.Popen(
                argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
            )
        )
    return procs


def _stop(procs) -> None:
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


_WARM_USERS = 50  # a warm-up batch: enough users to go through every step of a batch


def _run_job(task_name: str, at: dt.datetime, workers: int, env: dict) -> tuple[float, int, list[int], dict, dict]:
    """Seconds from enqueue to the last batch, how many inbox rows the job wrote, how many batch tasks each
    worker ran (from their logs), the CPU seconds spent meanwhile (by the workers, by PostgreSQL, and by the
    whole machine, anyone's) to tell what bounds the speed-up, and the parts no second worker shortens (the
    fan-out task's own run, the seconds until every worker had a batch, how far apart their last batches
    ended)."""
    import redis
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection

    from zeus.celery import app
    from zeus.models import Notification

    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    ids = list(get_user_model().objects.order_by("id").values_list("id", flat=True)[: _WARM_USERS * workers])
    _reset()
    app.control.purge()
    logs = Path(tempfile.mkdtemp(prefix="zeus-nightly-"))
    procs = _workers(workers, env, at, logs)
    try:
        deadline = time.monotonic() + 120
        while len(app.control.ping(timeout=0.5) or []) < workers:
            if time.monotonic() > deadline:
                raise RuntimeError("the workers did not start")
        # Each warm-up on users of its own: month end locks its batch, and a second warm-up on the same users
        # would skip them all.
        for index in range(workers):
            first, last = _WARM_USERS * index, _WARM_USERS * (index + 1) - 1
            app.send_task("bench.warm", kwargs={"job": task_name, "first": ids[first], "last": ids[last]})
        time.sleep(0.1)
        while not _broker_idle(client):
            time.sleep(0.05)
        backends = Backends(connection.settings_dict["NAME"])
        cpu_before = {
            "workers": _cpu({p.pid for p in procs}),
            "postgres": backends.seconds(),
            "machine": _machine_busy(),
        }
        cpu_after = dict(cpu_before)
        started = dt.datetime.now()  # naive local time, as the workers' log lines are stamped
        app.send_task(task_name)
        # Done when the broker has held nothing for a second: a message a worker has just popped is, for an
        # instant, neither queued nor unacknowledged. The time is taken from the logs, not from this wait.
        quiet_since = None
        while quiet_since is None or time.monotonic() - quiet_since < 1.0:
            time.sleep(0.02)
            backends.sample()
            if not _broker_idle(client):
                quiet_since = None
            elif quiet_since is None:
                quiet_since = time.monotonic()
                cpu_after = {
                    "workers": _cpu({p.pid for p in procs}),
                    "postgres": backends.seconds(),
                    "machine": _machine_busy(),
                }
    finally:
        _stop(procs)
    finished, ran, first_batch, last_batch, fan_out = [], [], [], [], 0.0
    for i in range(workers):
        lines = (logs / f"w{i}.log").read_text().splitlines()
        done = [line for line in lines if "succeeded in" in line]
        batches = [line for line in done if "_batch[" in line]
        ran.append(len(batches))
        finished += [_stamp(line) for line in done]
        first_batch += [_stamp(line) for line in lines if "_batch[" in line and line.endswith(" received")][:1]
        last_batch += [_stamp(batches[-1])] if batches else []
        fan_out += sum(_task_seconds(line) for line in done if f"{task_name}[" in line)
    shutil.rmtree(logs, ignore_errors=True)
    cpu = {key: cpu_after[key] - cpu_before[key] for key in cpu_before}
    serial = {
        "fan_out": fan_out,
        "all_busy": (max(first_batch) - started).total_seconds(),
        "apart": (max(last_batch) - min(last_batch)).total_seconds(),
    }
    return (max(finished) - started).total_seconds(), Notification.objects.count(), ran, cpu, serial


def _stamp(line: str) -> dt.datetime:
    return dt.datetime.strptime(line[1:24], "%Y-%m-%d %H:%M:%S,%f")


def _task_seconds(line: str) -> float:
    """The run time Celery logs for a task: `... succeeded in 0.0421s: 20`."""
    return float(line.split(" succeeded in ", 1)[1].split("s:", 1)[0])


JOBS = [
    ("`suggestions.generate_insights`", "suggestions.generate_insights", INSIGHTS_AT),
    ("`plans.send_due_reminders`", "plans.send_due_reminders", REMINDERS_AT),
    ("`plans.finalize_ended_plans`", "plans.finalize_ended_plans", MONTH_END_AT),
]
# Issue 27's budget: two workers at least 1.7 times one for insights and month end. Reminders are little work in
# many batches, so their fan-out and the last batch decide their time; they carry no speed-up target.
TARGETS = {"`suggestions.generate_insights`": 1.7, "`plans.finalize_ended_plans`": 1.7}


def run() -> list:
    from django.db import connection

    from plans import jobs
    from suggestions.thresholds import BATCH_SIZE

    started = time.perf_counter()
    load(INSIGHTS_AT)
    _plans()
    settle_after_load()
    seeded = time.perf_counter() - started
    db = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "zeus.settings.test",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_TASK_ALWAYS_EAGER": "false",
    }
    rows = []
    load_before = os.getloadavg()[0]
    speedups = {}
    for label, name, at in JOBS:
        rounds = []
        for _ in range(ROUNDS):
            one, written_one, _, cpu_one, serial_one = _run_job(name, at, 1, env)
            two, written_two, shares, cpu_two, serial_two = _run_job(name, at, 2, env)
            rounds.append((label, one, two, written_one, written_two, shares, cpu_one, cpu_two, serial_one, serial_two))
        rounds.sort(key=lambda r: r[1] / r[2])
        speedups[label] = [r[1] / r[2] for r in rounds]
        rows.append(rounds[len(rounds) // 2])
    lines = [
        "## Nightly jobs on 1 and 2 workers (`python -m bench nightly`)",
        "",
        f"{machine()}, load average {load_before:.1f} when it started (the machine is shared); PostgreSQL and a",
        f"Redis broker on the same cores as the workers. {USERS:,} users with",
        f"1,000,000 transactions and an active plan each (seeded in {seeded:.0f} s, not timed). Each job starts as",
        "beat starts it (the contract's task fans out one batch per user id range: insights"
        f" {BATCH_SIZE}, reminders {jobs.REMINDER_RANGE}, month end {jobs.FINALIZE_RANGE} users a batch) and is",
        "timed from the enqueue to the last batch's `succeeded` line in the workers' logs; worker processes",
        "(prefork, one process each) are started, answering, connected to PostgreSQL and the broker, and warmed",
        f"by one {_WARM_USERS}-user batch of the job rolled back (as a worker in service is) before the clock starts.",
        f"{ROUNDS} rounds of each job on 1 then 2 workers: every table shows the round with the median speed-up.",
        "",
        "| job | 1 worker | 2 workers | speed-up | every round's speed-up | inbox rows (1 / 2 workers) "
        "| batches each of the 2 ran |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for label, one, two, w1, w2, shares, *_ in rows:
        each = " / ".join(str(n) for n in shares)
        every = ", ".join(f"{x:.2f}x" for x in speedups[label])
        lines.append(f"| {label} | {one:.2f} s | {two:.2f} s | {one / two:.2f}x | {every} | {w1:,} / {w2:,} | {each} |")
    lines += [
        "",
        "Where the time goes: CPU seconds of the workers and of PostgreSQL (this database's backends) during each",
        "run, the cores the job kept busy (their sum over the wall time) and the cores the whole machine was busy",
        "(anyone's processes, other engineers' included). The ceiling is what the cores left free allowed: the",
        "1-worker time over the 2-worker run's CPU (workers + this database's PostgreSQL backends) spread over the",
        "cores nothing else was using during that run (both, on a quiet machine).",
        "",
        "| job | 1 worker: workers / PostgreSQL CPU | cores busy (job / machine) | 2 workers: workers / PostgreSQL CPU "
        "| cores busy (job / machine) | ceiling on the free cores |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for label, one, two, _, _, _, c1, c2, _, _ in rows:
        job1, job2 = c1["workers"] + c1["postgres"], c2["workers"] + c2["postgres"]
        # The cores nobody else was using during the 2-worker run: the most that run could have had.
        free = max(0.1, (os.cpu_count() or 2) - max(0.0, c2["machine"] - job2) / two)
        ceiling = one / (job2 / free) if job2 else 2.0
        lines.append(
            f"| {label} | {c1['workers']:.2f} / {c1['postgres']:.2f} s | {job1 / one:.2f} / {c1['machine'] / one:.2f} "
            f"| {c2['workers']:.2f} / {c2['postgres']:.2f} s | {job2 / two:.2f} / {c2['machine'] / two:.2f} "
            f"| {min(ceiling, 2.0):.2f}x |"
        )
    lines += [
        "",
        "The serial parts, from the workers' logs: the fan-out task's own run (the aggregate and the group's",
        "messages), the time from the enqueue until every worker had its first batch, and how far apart the",
        "workers' last batches ended (the share of the last batch the other worker could not take).",
        "",
        "| job | fan-out task (1 / 2 workers) | every worker busy after (1 / 2 workers) | last batches ended apart |",
        "| --- | --- | --- | --- |",
    ]
    for label, *_, s1, s2 in rows:
        lines.append(
            f"| {label} | {s1['fan_out'] * 1000:.0f} / {s2['fan_out'] * 1000:.0f} ms "
            f"| {s1['all_busy'] * 1000:.0f} / {s2['all_busy'] * 1000:.0f} ms | {s2['apart'] * 1000:.0f} ms |"
        )
    lines += [
        "",
        "Target: 2 workers at least 1.7x one for insights and month end. The same rows are written either way",
        "(the inbox column). On two",
        "cores the second worker shares them with PostgreSQL, Redis and the other worker, so the speed-up is",
        "bounded by the cores, not by the fan-out (the ceiling column); with a core per worker and PostgreSQL",
        "elsewhere it is the number of workers until PostgreSQL saturates (docs/scaling.md).",
    ]
    print("\n".join(lines), flush=True)  # the detail, for whoever runs it; the table takes the rows below
    table = []
    for label, one, two, *_ in rows:
        target = TARGETS.get(label)
        table.append(Row(f"{label} on 1 worker", sec(one), 1.0))
        table.append(
            Row(
                f"{label} on 2 workers (median of {ROUNDS} rounds)",
                f"{sec(two)}, speed-up {one / two:.2f}x",
                two / one,
                f"speed-up ≥ {target}x" if target else "",
                one / two >= target if target else None,
            )
        )
    return table
