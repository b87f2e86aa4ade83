"""gunicorn's settings for the Procfile's `http` process (gunicorn reads this file from the working folder).

Threaded workers (gthread) keep the front's upstream connections alive, which sync workers do not (they
answer `Connection: close`, so the front would open a TCP connection per request). One process per core;
docs/serving.md has the measurements behind both choices.
"""

import multiprocessing
import os

bind = f"{os.environ.get('WSGI_HOST', '127.0.0.1')}:{os.environ.get('WSGI_PORT', '8001')}"
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count()))
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS", 4))
keepalive = 75  # longer than the front's idle upstream connections, so gunicorn is never the one to drop them
accesslog = None
