"""Production: the base with the security switches on. Secrets must come from the environment."""

from zeus.settings.base import *  # noqa: F403
from zeus.settings.base import env

DEBUG = False
SECRET_KEY = env("DJANGO_SECRET_KEY")
SESSION_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
WHITENOISE_USE_FINDERS = False
