"""Test settings: the base, with a fast password hasher. DATABASE_URL / REDIS_URL pick the real services."""

from zeus.settings.base import *  # noqa: F403
from zeus.settings.base import env

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
SECRET_KEY = "test-secret-key-not-for-production"
DEBUG = False
WHITENOISE_USE_FINDERS = True
# The suite never needs a beat or a broker of its own unless a test asks for the real worker.
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=True)
LOGGING["root"]["level"] = "WARNING"  # noqa: F405
# Static files come from the finders in tests; with no collected folder WhiteNoise would warn on every request.
STATIC_ROOT = None
# The suite signs in and signs up hundreds of times a minute from one address; allauth's per-address limits
# on those two would refuse it. Failed passwords are counted by django-axes (tested), codes by allauth.
ACCOUNT_RATE_LIMITS = {"login": None, "signup": None}
