"""gunicorn's settings for the Procfile's `web` process (gunicorn reads this file from the working folder).

gunicorn faces the browser on `HOST`:`PORT` (127.0.0.1:8000) and serves all HTTP: pages, REST, admin and
static files (WhiteNoise). A websocket upgrade on `/ws/` and every request to `/mcp` is handed over, the
client's socket itself, to the `ws` process (zeus/serving/gunicorn_worker.py, docs/serving.md), so there is
no proxy hop on any request. With `WSGI_SOCKET` set it listens on that Unix socket instead, for a front of
your own on the same machine.

Threaded workers (gthread): kept-alive connections wait in the worker's poller, not in a thread, and a
request waiting on PostgreSQL holds a thread, not a process. One process per core, eight threads each:
measured against four with 50 keep-alive clients on 2 cores (docs/serving.md), eight served the views that
wait on PostgreSQL (transactions, a plan) 1.05-1.8 times the requests a second (medians of rounds) with a
lower p95, and the views that barely wait (profile, a minimal DRF view) within the noise either way, at the
same CPU a request; the SePay webhook, which waits on the commit, gained as much (docs/feeds.md). The
database pool (`DATABASE_POOL_MAX_SIZE`, 16) must stay at least the thread count.
"""

import multiprocessing
import os

if os.environ.get("WSGI_SOCKET"):
    bind = f"unix:{os.environ['WSGI_SOCKET']}"
else:
    bind = f"{os.environ.get('HOST') or '127.0.0.1'}:{os.environ.get('PORT') or 8000}"
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count()))
worker_class = "zeus.serving.gunicorn_worker.HandoverWorker"
threads = int(os.environ.get("WEB_THREADS", 8))
# Longer than a load balancer's usual idle timeout (60 s), so gunicorn is never the one to drop a connection the
# balancer is about to reuse; an idle connection costs a gthread worker a poller entry, not a thread.
keepalive = 75
accesslog = None
# gunicorn's control socket (runtime management through `gunicornc`) lives at one path per user by default, so
# every gunicorn of that user on the machine (a second checkout, the tests, the benchmarks) would bind the same
# file; nothing here manages gunicorn that way.
control_socket_disable = True
# How long a thread keeps the GIL while another wants it (Python's default 5 ms). A request's Python runs
# 1-3 ms between its waits on PostgreSQL and the socket, each of which lets the GIL go anyway; with 8 threads
# on a busy core the default forced hand-overs mid-request and every request in flight advanced a little at a
# time. At 20 ms a request mostly runs to its next wait: measured in 6 interleaved rounds (docs/serving.md,
# "Threads and the GIL") the REST views served 0.8-2.5 times the requests a second at 10 clients, ~1.2 in
# the median, and no fewer at 1 client.
SWITCH_INTERVAL = 0.02


def post_worker_init(worker):
    """Once a worker has loaded the app, the collector stops walking what it loaded (zeus/collector.py), and
    its threads take longer turns at the GIL (SWITCH_INTERVAL)."""
    import sys

    from zeus import collector  # the worker's import: the master never loads the app

    collector.freeze_loaded()
    sys.setswitchinterval(SWITCH_INTERVAL)
