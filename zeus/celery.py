import os

from billiard.process import current_process
from celery import Celery
from celery.signals import task_prerun, worker_process_init, worker_process_shutdown
from django.db import connections

from zeus.postgresql import pools

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zeus.settings.base")

app = Celery("zeus")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def keep_the_pool_between_tasks(**kwargs) -> None:
    """In a prefork pool process, Celery's Django fixup hands the database connection back to the process's
    pool before and after every task (as a request's end does) and then closes the pool itself, so each
    nightly batch paid new PostgreSQL backends (the pool opens its minimum of two at once) and their catalog
    caches: as much PostgreSQL CPU as a reminders batch's own work. From the process's first task on, the
    pool stays open for the life of the process (zeus.postgresql.pools); the fixup's close on starting the
    process, which drops what the parent opened before the fork, still happens, since it comes before any
    task."""
    # The solo pool sends this signal too, from the worker's own process, which may be one that serves
    # other things (the tests run a worker in a thread of theirs): there the fixup closes no pool anyway.
    if current_process().name == "MainProcess":
        return
    task_prerun.connect(pools.keep_open, weak=False)


@worker_process_shutdown.connect
def close_the_pool(**kwargs) -> None:
    """A pool process that stops hangs up its kept connections itself, so PostgreSQL does not hold them
    until the process is gone (a database dropped right after, as the tests' is, would still see them)."""
    if not pools.kept:
        return
    pools.release()
    for conn in connections.all(initialized_only=True):
        conn.close()
        conn.close_pool()
