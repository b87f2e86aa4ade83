"""A Celery worker for the nightly bench, its clock fixed at the instant given (`python -m
bench._nightly_worker ISO NAME LOGFILE`), so every run does the same work; its log tells which batches it
ran. Bench only.

`bench.warm` is run once by each worker before the clock starts: a worker in service has long since opened
its pool process's database connection and broker connection, so a run times the jobs, not a process's
first connections (which would land in the fan-out task, the part nothing runs beside)."""

import datetime as dt
import os
import sys
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zeus.settings.test")
django.setup()

from django.utils import timezone  # noqa: E402

from zeus.celery import app  # noqa: E402


@app.task(name="bench.warm")
def warm() -> None:
    from django.db import connection

    connection.ensure_connection()
    with app.producer_or_acquire() as producer:
        producer.connection.ensure_connection()
    time.sleep(0.5)  # long enough that each worker takes one of the warm-ups, not one worker both


at = dt.datetime.fromisoformat(sys.argv[1])
timezone.now = lambda: at
argv = ["worker", "--pool", "prefork", "--concurrency", "1", "-n", f"{sys.argv[2]}@%h"]
app.worker_main([*argv, "--without-gossip", "--without-mingle", "--loglevel", "INFO", "--logfile", sys.argv[3]])
