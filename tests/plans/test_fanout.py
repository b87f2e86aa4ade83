"""The nightly jobs fanned out: the beat task enqueues one batch per user id range; a batch is idempotent on its
own; a batch whose worker process is killed mid-way is delivered again and done once (real workers on Redis)."""

import datetime as dt
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from plans.models import ReminderLog
from plans.tasks import send_due_reminders, send_due_reminders_batch
from tests import factories
from tests.database import conninfo, database_url
from tests.plans import factories as plan_factories
from tests.processes import wait_for
from zeus.fanout import fan_out, user_id_ranges
from zeus.models import Notification

ROOT = Path(__file__).resolve().parent.parent.parent
AT = "2026-11-10T13:30:00+00:00"  # 20:30 in Saigon: every plan's reminder is due


def _plans(n: int) -> list[int]:
    ids = []
    for i in range(n):
        user = factories.user(f"u{i}")
        ids.append(plan_factories.plan(user, active=True).id)
    return ids


@pytest.mark.django_db
def test_user_ranges_are_bounded_and_cover_every_user():
    users = [factories.user(f"u{i}") for i in range(7)]
    ranges = user_id_ranges(size=3)
    assert ranges[0][0] == users[0].id and ranges[-1][1] == users[-1].id
    assert all(last - first < 3 for first, last in ranges)
    covered = [uid for first, last in ranges for uid in range(first, last + 1)]
    assert {u.id for u in users} <= set(covered) and len(covered) == len(set(covered))


def test_every_nightly_job_cuts_10000_users_into_enough_bounded_batches_to_share():
    """Two or more workers split a run evenly only when it has many more batches than workers (with 5
    batches on 2 workers one idles for the last fifth); and every batch stays bounded."""
    from plans import jobs
    from suggestions.thresholds import BATCH_SIZE

    for size in (jobs.REMINDER_RANGE, jobs.FINALIZE_RANGE, BATCH_SIZE):
        assert 10_000 // size >= 16
        assert size <= 1_000


@pytest.mark.django_db
def test_the_beat_task_enqueues_one_batch_per_range_and_each_batch_is_idempotent(clock, monkeypatch):
    from plans import jobs

    _plans(5)
    clock.set(AT)
    monkeypatch.setattr(jobs, "REMINDER_RANGE", 2)
    assert send_due_reminders.delay().get() == 3  # 5 users in ranges of 2: eager, the batches ran here
    assert Notification.objects.filter(kind="plan_reminder").count() == 5
    first, last = user_id_ranges(size=2)[0]
    # A batch delivered again (its worker died after the commit, before the ack) adds nothing.
    assert send_due_reminders_batch.delay(first=first, last=last, now=AT).get() == 0
    assert fan_out(send_due_reminders_batch, size=2, now=AT) == 3
    assert Notification.objects.filter(kind="plan_reminder").count() == 5


def _worker(env: dict, name: str, logs: Path) -> subprocess.Popen:
    argv = [sys.executable, "-m", "celery", "-A", "zeus", "worker", "--pool", "prefork", "--concurrency", "1"]
    argv += ["-n", f"{name}@%h", "--prefetch-multiplier", "1", "--without-gossip", "--without-mingle", "-l", "INFO"]
    log = (logs / f"{name}.log").open("w")
    return subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def _send_batch_to_a_worker() -> None:
    """Every plan's batch as a message for a real worker, whatever the test settings' eager mode."""
    from zeus.celery import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        send_due_reminders_batch.delay(first=0, last=10**12, now=AT)
    finally:
        app.conf.task_always_eager = eager


def _worker_env() -> tuple[str, dict]:
    """The test database's address for psycopg, and the environment of a real worker on it."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "zeus.settings.test",
        "DATABASE_URL": database_url(),
        "CELERY_TASK_ALWAYS_EAGER": "false",
    }
    return conninfo(), env


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_batch_whose_worker_is_killed_is_redone_by_another_without_doubling(clock, tmp_path):
    from zeus.celery import app

    plan_ids = _plans(4)
    dsn, env = _worker_env()
    app.control.purge()
    # Hold one plan's claim in an open transaction: the worker's claim statement waits on it, mid-batch.
    blocker = psycopg.connect(dsn)
    blocker.execute(
        "INSERT INTO plans_reminderlog (plan_id, local_date, run_id, created_at) VALUES (%s, %s, %s, now())",
        [plan_ids[0], dt.date(2026, 11, 10), "00000000-0000-0000-0000-000000000000"],
    )
    first = _worker(env, "first", tmp_path)
    second = None
    try:
        _send_batch_to_a_worker()
        waiting = "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock'"
        # Its own connection, in autocommit: pg_stat_activity is read once per transaction.
        with psycopg.connect(dsn, autocommit=True) as watcher:
            started = wait_for(lambda: watcher.execute(waiting, [connection.settings_dict["NAME"]]).fetchone()[0] > 0)
        assert started, "the batch never reached its claim"
        second = _worker(env, "second", tmp_path)
        assert wait_for(lambda: "ready" in (tmp_path / "second.log").read_text()), "the second worker never started"
        victim = _children(first.pid)
        assert victim, "the first worker has no pool process"
        first.terminate()  # a warm shutdown: the first worker takes nothing more
        os.kill(victim[0], signal.SIGKILL)  # the batch dies mid-way, its claim statement uncommitted
        blocker.rollback()
        assert wait_for(lambda: Notification.objects.filter(kind="plan_reminder").count() >= 4), "never redone"
        time.sleep(1)  # anything doubled would land now
    finally:
        blocker.close()
        for worker in (first, second):
            if worker is not None:
                worker.terminate()
        for worker in (first, second):
            if worker is not None:
                try:
                    worker.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    worker.kill()
    assert Notification.objects.filter(kind="plan_reminder").count() == 4
    assert ReminderLog.objects.count() == 4
    assert "WorkerLostError" in (tmp_path / "first.log").read_text()
    assert "succeeded" in (tmp_path / "second.log").read_text()
