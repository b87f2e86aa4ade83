"""The WSGI application: what serves pages and REST (gunicorn, gunicorn.conf.py). Websockets and /mcp are served
by the ASGI application (zeus/asgi.py); a reverse proxy routes them there (deploy/nginx.conf, docs/serving.md)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zeus.settings.base")
application = get_wsgi_application()
