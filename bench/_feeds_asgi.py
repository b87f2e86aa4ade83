"""The ASGI application the feeds benchmark serves: Zeus as deployed, plus a bare DRF view (no auth, parses
the JSON body, answers {"success": true}) as the baseline on the same server. Bench only."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zeus.settings.test")
django.setup()

from django.conf import settings  # noqa: E402

settings.ROOT_URLCONF = "bench._feeds_urls"

from zeus.asgi import application  # noqa: E402, F401
