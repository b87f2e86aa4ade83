"""A Celery worker for the nightly bench, its clock fixed at the instant given (`python -m
bench._nightly_worker ISO NAME LOGFILE`), so every run does the same work; its log tells which batches it
ran. Bench only.

`bench.warm` is run once by each worker before the clock starts. A worker in service has long since opened
its pool process's database and broker connections, and has run the job before: its imports, locale data and
compiled reads are loaded. So each warm-up connects, then runs one small batch of the job, on users of its own,
in a transaction it rolls back (what the batch would send goes on commit, so nothing is sent either). A run
then times the jobs, not a process's first connections (which would land in the fan-out task, the part
nothing runs beside) nor its first use of the job's code, which two workers paid twice where one paid once
(a process's first range of a job costs clearly more CPU than its second, alone or beside another)."""

import datetime as dt
import os
import sys
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zeus.settings.test")
django.setup()

from django.utils import timezone  # noqa: E402

from zeus.celery import app  # noqa: E402


class _Undo(Exception):
    pass


@app.task(name="bench.warm")
def warm(job: str, first: int, last: int) -> None:
    from django.db import connection, transaction

    connection.ensure_connection()
    with app.producer_or_acquire() as producer:
        producer.connection.ensure_connection()
    try:
        with transaction.atomic():
            app.tasks[f"{job}_batch"].run(first=first, last=last, now=timezone.now().isoformat())
            raise _Undo
    except _Undo:
        pass
    time.sleep(0.5)  # long enough that each worker takes one of the warm-ups, not one worker both


at = dt.datetime.fromisoformat(sys.argv[1])
timezone.now = lambda: at
argv = ["worker", "--pool", "prefork", "--concurrency", "1", "-n", f"{sys.argv[2]}@%h"]
app.worker_main([*argv, "--without-gossip", "--without-mingle", "--loglevel", "INFO", "--logfile", sys.argv[3]])
