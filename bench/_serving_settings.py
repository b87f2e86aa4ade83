"""Settings for the servers the serving benchmark starts: the test settings plus two baseline views."""

from zeus.settings.test import *  # noqa: F403

ROOT_URLCONF = "bench._serving_urls"
