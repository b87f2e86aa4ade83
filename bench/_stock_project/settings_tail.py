# Appended to a `django-admin startproject`'s settings by bench/startup.py: the stock libraries Zeus is built on
# (DRF with drf-spectacular, django-allauth with MFA and user sessions, django-axes,
# django-csp, Channels, WhiteNoise; PostgreSQL through psycopg), configured as their docs say, and nothing of
# Zeus's own. Its `check` is the floor any project on these libraries starts from.
INSTALLED_APPS += [  # noqa: F821
    "django.contrib.humanize",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "allauth.usersessions",
    "csp",
    "channels",
]
MIDDLEWARE += [  # noqa: F821
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "allauth.usersessions.middleware.UserSessionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "axes.middleware.AxesMiddleware",
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
# `check` does not connect; the engine is named so that its backend (psycopg) is loaded as in Zeus.
DATABASES = {"default": {"ENGINE": "django.db.backends.postgresql", "NAME": "stock"}}
REST_FRAMEWORK = {"DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema"}
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes", "webauthn"]
