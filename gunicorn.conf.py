"""gunicorn's settings for the Procfile's `web` process (gunicorn reads this file from the working folder).

`web` serves pages, REST, admin and static files (WhiteNoise) on `HOST`:`PORT`; in production a reverse proxy
in front of it sends `/ws/` and `/mcp` to `ws` instead (deploy/nginx.conf, docs/serving.md). Threaded workers:
a request waiting on PostgreSQL holds a thread, not a process, and kept-alive connections from the proxy wait
in the worker's poller. The database pool (`DATABASE_POOL_MAX_SIZE`, 16) must stay at least the thread count.
"""

import multiprocessing
import os

bind = f"{os.environ.get('HOST') or '127.0.0.1'}:{os.environ.get('PORT') or 8000}"
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count()))
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS", 8))
# Longer than the proxy's idle keep-alive towards it, so gunicorn is never the one to drop a connection the
# proxy is about to reuse.
keepalive = 75
# A worker whose main loop stops checking in for this long (a wedged process; a threaded worker keeps checking in
# while its threads serve slow requests) is killed and replaced; a graceful stop waits as long for requests in
# flight. Slow clients never reach a thread: nginx reads whole requests first (deploy/nginx.conf).
timeout = 30
graceful_timeout = 30
# Longest request line gunicorn accepts (its maximum): behind the proxy, nginx's 4 KiB limit answers first with
# the JSON 414 (deploy/nginx.conf); gunicorn's own 414 is an HTML page.
limit_request_line = 8190
accesslog = None
# gunicorn's control socket lives at one path per user by default, so every gunicorn of that user on the machine
# (a second checkout, the tests, the benchmarks) would bind the same file; nothing here manages gunicorn that way.
control_socket_disable = True
