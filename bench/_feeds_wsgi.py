"""The WSGI application the feeds benchmark serves on gunicorn (what serves HTTP in production,
docs/serving.md): Zeus as deployed, plus the bare DRF view of bench/_feeds_urls.py. Bench only."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zeus.settings.test")
django.setup()

from django.conf import settings  # noqa: E402

settings.ROOT_URLCONF = "bench._feeds_urls"

from zeus.wsgi import application  # noqa: E402, F401
