"""gunicorn's settings for the Procfile's `http` process (gunicorn reads this file from the working folder).

On one machine the front (Caddy) reaches gunicorn over a Unix socket, `WSGI_SOCKET`: no loopback TCP stack
on either side of every request, measured cheaper per request than 127.0.0.1 (docs/serving.md). With
`WSGI_PORT` set it listens on TCP instead, for a load balancer on another machine ("Past one machine").

Threaded workers (gthread) keep the front's upstream connections alive, which sync workers do not (they
answer `Connection: close`, so the front would open a connection per request). One process per core, four
threads each (fewer measured worse: the front then waits for a free connection); docs/serving.md has the
measurements behind each choice.
"""

import multiprocessing
import os

if os.environ.get("WSGI_PORT"):
    bind = f"{os.environ.get('WSGI_HOST', '127.0.0.1')}:{os.environ['WSGI_PORT']}"
else:
    bind = f"unix:{os.environ.get('WSGI_SOCKET', '/tmp/zeus-wsgi.sock')}"
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count()))
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS", 4))
keepalive = 75  # longer than the front's idle upstream connections, so gunicorn is never the one to drop them
accesslog = None
