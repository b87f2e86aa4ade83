"""The WSGI application: what serves HTTP (gunicorn, see gunicorn.conf.py). Websockets and /mcp are served by
the ASGI application (zeus/asgi.py), to which gunicorn hands their connections (zeus/serving/, docs/serving.md)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zeus.settings.base")
application = get_wsgi_application()
