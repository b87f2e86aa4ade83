"""Everything Zeus needs, read from the environment (django-environ).

With no environment at all this runs anywhere: SQLite, the in-memory channel layer, eager Celery tasks.
`DATABASE_URL` and `REDIS_URL` switch on PostgreSQL and Redis (cache, channel layer, Celery broker).
"""

from pathlib import Path

import environ
from celery.schedules import crontab

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env")

DEBUG = env.bool("DJANGO_DEBUG", default=True)
SECRET_KEY = env("DJANGO_SECRET_KEY", default="dev-only-insecure-key-change-me-in-production")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "channels",
    "zeus",
    "assets",
    "goals",
    "plans",
    "suggestions",
    "chat",
    "demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "zeus.i18n.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "zeus.urls"
ASGI_APPLICATION = "zeus.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "zeus.navigation.nav",
                "zeus.i18n.i18n_context",
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=0)
# Under ASGI every sync call may run on another thread, so Django's persistent connections do not fit
# (Django's docs: disable them and pool instead). On PostgreSQL each process keeps a psycopg pool: closing a
# connection at the end of a request or a chat trip hands it back instead of hanging up, and the next call
# takes one without a new handshake. DATABASE_POOL_MAX_SIZE bounds one process's connections.
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and not DATABASES["default"]["CONN_MAX_AGE"]:
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env.int("DATABASE_POOL_MIN_SIZE", default=2),
        "max_size": env.int("DATABASE_POOL_MAX_SIZE", default=16),
        "timeout": 10,
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env("REDIS_URL", default="")

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "zeus.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env("CACHE_KEY_PREFIX", default="zeus"),
        }
    }
    # Hosts as a dict with an explicit socket_timeout: redis-py >= 8 defaults to 5 s, which drops the
    # channel layer's own 5 s blocking pop (DESIGN.md, "Things that bite").
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_timeout": 30, "socket_connect_timeout": 5}],
                "prefix": env("CHANNEL_LAYER_PREFIX", default="zeus"),
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/accounts/login/"

# Vietnamese first: the language of a person whose browser names neither (docs/i18n.md).
LANGUAGE_CODE = "vi"
LANGUAGES = [("vi", "Tiếng Việt"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
WHITENOISE_USE_FINDERS = DEBUG
# How long a browser keeps a static file (CSS, scripts, Chart.js) before asking again: a page's first load is
# its HTML plus cached files (docs/pages.md). The names carry no fingerprint, so it stays hours, not a year.
WHITENOISE_MAX_AGE = env.int("STATIC_MAX_AGE", default=0 if DEBUG else 4 * 3600)

REST_FRAMEWORK = {
    # Token first: DRF takes the 401 challenge from the first class; session auth has none (it would be a 403).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "zeus.api.auth.BearerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": [
        "zeus.api.parsers.StrictJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "zeus.api.pagination.NewestFirstCursorPagination",
    "DEFAULT_SCHEMA_CLASS": "zeus.api.schema.AutoSchema",
    "EXCEPTION_HANDLER": "zeus.api.errors.exception_handler",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "PAGE_SIZE": 50,
    "COERCE_DECIMAL_TO_STRING": True,
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Zeus API",
    "DESCRIPTION": "Personal finance: ledger, goals, budgets, monthly plans, chat.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Several models have a `kind` or a `category`; name each choice set so the schema has no collisions.
    "ENUM_NAME_OVERRIDES": {
        "AssetKindEnum": "assets.models.Asset.Kind",
        "GoalKindEnum": "goals.models.Goal.Kind",
        "NotificationKindEnum": "zeus.models.Notification.Kind",
        "CategoryEnum": "assets.categories.CHOICES",
        "ExpenseCategoryEnum": "assets.categories.EXPENSE_CHOICES",
    },
}

# Celery: eager without a broker so one command runs the app anywhere; Redis when REDIS_URL is set.
CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
CELERY_ENABLE_UTC = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULE = {
    "plans.send_due_reminders": {
        "task": "plans.send_due_reminders",
        "schedule": crontab(minute="*/15"),
        "options": {"expires": 14 * 60},
    },
    "plans.finalize_ended_plans": {
        "task": "plans.finalize_ended_plans",
        "schedule": crontab(minute=5),
        "options": {"expires": 55 * 60},
    },
    "suggestions.refresh_suggestions": {
        "task": "suggestions.refresh_suggestions",
        "schedule": crontab(hour=1, minute=0),
        "options": {"expires": 60 * 60},
    },
    "suggestions.generate_insights": {
        "task": "suggestions.generate_insights",
        "schedule": crontab(hour=2, minute=0),
        "options": {"expires": 60 * 60},
    },
}

# The model provider. Tests point ANTHROPIC_BASE_URL at a loopback server that speaks the Messages API.
ANTHROPIC_API_KEY = env("ANTHROPIC_API_KEY", default="")
ANTHROPIC_BASE_URL = env("ANTHROPIC_BASE_URL", default="")
ZEUS_MODEL = env("ZEUS_MODEL", default="claude-sonnet-4-5")
ZEUS_ROUTER_MODEL = env("ZEUS_ROUTER_MODEL", default="claude-haiku-4-5")
# Tokens (input + output) each user's chat turns may spend per day in their timezone; 0 = unlimited.
# Staff can override it per user in the admin (Chat, Token budgets).
ZEUS_DAILY_TOKEN_BUDGET = env.int("ZEUS_DAILY_TOKEN_BUDGET", default=200_000)
# Encrypts users' personal provider keys at rest; derived from SECRET_KEY when unset.
ZEUS_FIELD_ENCRYPTION_KEY = env("ZEUS_FIELD_ENCRYPTION_KEY", default="")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # The MCP SDK logs every stateless request's session teardown at INFO.
        "mcp.server.streamable_http": {"level": "WARNING"},
    },
}
