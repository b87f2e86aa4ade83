"""A Celery worker for the nightly bench, its clock fixed at the instant given (`python -m
bench._nightly_worker ISO NAME LOGFILE`), so every run does the same work; its log tells which batches it
ran. Bench only."""

import datetime as dt
import os
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zeus.settings.test")
django.setup()

from django.utils import timezone  # noqa: E402

from zeus.celery import app  # noqa: E402

at = dt.datetime.fromisoformat(sys.argv[1])
timezone.now = lambda: at
argv = ["worker", "--pool", "prefork", "--concurrency", "1", "-n", f"{sys.argv[2]}@%h"]
app.worker_main([*argv, "--without-gossip", "--without-mingle", "--loglevel", "INFO", "--logfile", sys.argv[3]])
