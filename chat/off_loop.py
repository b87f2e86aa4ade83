"""Blocking work (ORM, cache) off the event loop.

channels' database_sync_to_async funnels every call of the process through one thread, so one socket's
queries wait behind every other socket's. A turn's queries are independent of other turns', so they run in
the default thread pool; each call takes a connection from the process's pool and hands it back when it ends
(settings: DATABASE_POOL_*).
"""

import functools

from asgiref.sync import sync_to_async
from django.db import close_old_connections


def _call(fn, *args, **kwargs):
    close_old_connections()
    try:
        return fn(*args, **kwargs)
    finally:
        close_old_connections()


# Built once: a turn makes several trips, and a SyncToAsync is not free to make.
_pooled = sync_to_async(_call, thread_sensitive=False)


async def run_off_loop(fn, *args, **kwargs):
    """`fn(*args, **kwargs)` in a worker thread, its connections tidied before and after."""
    return await _pooled(fn, *args, **kwargs)


def off_loop(fn):
    """`fn` as a coroutine function that runs it with run_off_loop."""

    @functools.wraps(fn)
    async def run(*args, **kwargs):
        return await run_off_loop(fn, *args, **kwargs)

    return run
