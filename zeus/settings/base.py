"""Everything Zeus needs, read from the environment (django-environ).

With no environment at all this runs anywhere: the embedded PostgreSQL under `.data/` (zeus/embedded_db.py), the
in-memory channel layer, eager Celery tasks. `DATABASE_URL` names a PostgreSQL of one's own and `REDIS_URL` switches
on Redis (cache, channel layer, Celery broker).
"""

from pathlib import Path

import environ

from zeus import embedded_db

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env")

DEBUG = env.bool("DJANGO_DEBUG", default=True)
SECRET_KEY = env("DJANGO_SECRET_KEY", default="dev-only-insecure-key-change-me-in-production")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.humanize",  # allauth's passkey and session lists say "3 minutes ago"
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "allauth",  # accounts, second factors, sessions (zeus/settings/accounts.py, docs/accounts.md)
    "allauth.account",
    "allauth.mfa",
    "allauth.usersessions",
    "csp",
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
    "zeus.middleware.EdgeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "zeus.i18n.UserLanguageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "zeus.account_data.lock.ErasureLockMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Staff reach the admin only with a second factor, when ZEUS_STAFF_MFA says so (zeus/accounts/staff_mfa.py).
    "zeus.accounts.staff_mfa.StaffMfaMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, so it sees the request a password check marked as locked out (zeus/lockout.py).
    "axes.middleware.AxesMiddleware",
    # Django's own 404 page is the debug one while DEBUG is on (zeus/error_pages.py).
    "zeus.error_pages.DebugNotFoundMiddleware",
]

ROOT_URLCONF = "zeus.urls"
DEFAULT_EXCEPTION_REPORTER = "zeus.debug.DependencyAwareExceptionReporter"
ASGI_APPLICATION = "zeus.asgi.application"
WSGI_APPLICATION = "zeus.wsgi.application"

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

# PostgreSQL is the only engine. Without DATABASE_URL, the embedded server is started if it is not running.
DATABASES = {"default": env.db_url_config(env("DATABASE_URL", default="") or embedded_db.database_url())}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=0)
# A connection handed out is checked first (one round trip): after a restart of PostgreSQL, or a backend
# terminated under us, the next request gets a fresh connection instead of a dead one.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = env.bool("DATABASE_CONN_HEALTH_CHECKS", default=True)
# Under ASGI every sync call may run on another thread, so Django's persistent connections do not fit
# (Django's docs: disable them and pool instead). On PostgreSQL each process keeps a psycopg pool: closing a
# connection at the end of a request or a chat trip hands it back instead of hanging up, and the next call
# takes one without a new handshake. DATABASE_POOL_MAX_SIZE bounds one process's connections.
if not DATABASES["default"]["CONN_MAX_AGE"]:
    # A dead database must cost a request a second or two and an honest 503, not a ten-second wait
    # (docs/security.md, "Degraded mode"): the pool's wait for a connection is short.
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env.int("DATABASE_POOL_MIN_SIZE", default=2),
        "max_size": env.int("DATABASE_POOL_MAX_SIZE", default=16),
        "timeout": env.float("DATABASE_POOL_TIMEOUT", default=1.5),
    }
# libpq's bound on one connection attempt (its minimum is 2 s) for a host that does not answer at all.
DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
    "connect_timeout", env.int("DATABASE_CONNECT_TIMEOUT", default=2)
)
if "postgresql" in DATABASES["default"]["ENGINE"]:
    # A database that stops answering (a black hole, not a refusal) must not hang requests for the outage
    # (docs/security.md, "Degraded mode"). connect_timeout bounds a new connection; tcp_user_timeout drops one
    # whose sent bytes go unacknowledged (a query in flight to a vanished host); keepalives find idle pooled
    # connections to a vanished host; statement_timeout bounds a statement the server itself is stuck on.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "keepalives": 1,
            "keepalives_idle": env.int("DATABASE_KEEPALIVES_IDLE", default=10),
            "keepalives_interval": 2,
            "keepalives_count": 3,
            "tcp_user_timeout": env.int("DATABASE_TCP_USER_TIMEOUT_MS", default=3000),
            "options": f"-c statement_timeout={env.int('DATABASE_STATEMENT_TIMEOUT_MS', default=30000)}",
        }
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env("REDIS_URL", default="")

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "zeus.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env("CACHE_KEY_PREFIX", default="zeus"),
            # Short: a Redis that is down must be a quick 503, not a request hanging on a socket.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
    }
    # Hosts as a dict with an explicit socket_timeout: redis-py >= 8 defaults to 5 s, which drops the
    # channel layer's own 5 s blocking pop (docs/architecture.md, "Things that bite").
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_timeout": 30, "socket_connect_timeout": 1}],
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
# Sign-in throttling (django-axes, zeus/lockout.py): AxesStandaloneBackend refuses a locked-out account or
# address before the password is even checked. Each limit counts on its own: per account (someone guessing
# one user's password from many addresses) and per address (one address guessing many accounts).
# allauth's backend is Django's ModelBackend that also takes the e-mail as `username`; a failure counts against
# the account whichever of its names was typed (AXES_USERNAME_CALLABLE).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AXES_FAILURE_LIMIT = env.int("ZEUS_LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("ZEUS_LOGIN_COOLOFF_HOURS", default=0.25)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_USERNAME_CALLABLE = "zeus.lockout.client_username"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "zeus.lockout.lockout_response"
AXES_VERBOSE = False
# Addresses or networks of the reverse proxies in front (the load balancer, nginx): their X-Forwarded-For names
# the client whose failures are counted (zeus.lockout.client_ip). By default a proxy on this machine
# (deploy/nginx.conf); empty: the connecting address is the client.
ZEUS_TRUSTED_PROXIES = env.list("ZEUS_TRUSTED_PROXIES", default=["127.0.0.1", "::1"])
AXES_CLIENT_IP_CALLABLE = "zeus.lockout.client_ip"
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/accounts/login/"
# Accounts: django-allauth's sign-in, e-mail, password, second factors and sessions (docs/accounts.md).
from zeus.settings.accounts import *  # noqa: E402, F403

# Vietnamese first: the language of a person whose browser names neither (docs/i18n.md).
LANGUAGE_CODE = "vi"
LANGUAGES = [("vi", "Tiếng Việt"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Content-Security-Policy (django-csp; docs/security.md): scripts, styles, fonts and images from this origin
# only, no inline script or style anywhere, sockets and fetches to this origin ('self' covers ws:/wss: of the
# same host). The Swagger page alone allows its inline style (zeus/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
WHITENOISE_USE_FINDERS = DEBUG

# Uploaded and generated files: Django's default storage (zeus/settings/storage.py).
from zeus.settings.storage import *  # noqa: E402, F403

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
    # Swagger UI from this origin (drf-spectacular-sidecar), never a CDN: the page works offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Several models have a `kind` or a `category`; name each choice set so the schema has no collisions.
    "ENUM_NAME_OVERRIDES": {
        "AssetKindEnum": "assets.models.Asset.Kind",
        "GoalKindEnum": "goals.models.Goal.Kind",
        "NotificationKindEnum": "zeus.models.Notification.Kind",
        "CategoryEnum": "assets.categories.CHOICES",
        "ExpenseCategoryEnum": "assets.categories.EXPENSE_CHOICES",
        "DebtDirectionEnum": "goals.debts.models.Debt.Direction",
        "TransactionDirectionEnum": "assets.models.Transaction.Direction",
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
# Enqueueing from a request while Redis is down fails within a second or two (a 503), instead of
# kombu's default of retrying for a long time before it gives up.
CELERY_BROKER_CONNECTION_TIMEOUT = 1
# A task whose worker died unacknowledged (acks_late) is handed out again after this long; the jobs claim
# their work in the database, so a redelivery does nothing twice (docs/security.md, "Faults").
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 1,
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=3600),
}
# The beat schedule is zeus/celery.py's: its crontabs are Celery objects, and settings are read by every process,
# most of which never load Celery.
# Where the daily job reads Vietcombank's exchange rates (docs/ledger.md, "Currencies").
ZEUS_VCB_RATES_URL = env.str(
    "ZEUS_VCB_RATES_URL", default="https://portal.vietcombank.com.vn/Usercontrols/TVPortal.TyGia/pXML.aspx?b=10"
)

# Mail (docs/mail.md): EMAIL_URL as django-environ reads it, e.g. smtp+tls://user:password@smtp.example.com:587;
# the default writes every message to the console.
# (django-environ's documented vars().update; unset parts keep Django's defaults.)
_EMAIL_URL = env("EMAIL_URL", default="") or "consolemail://"
vars().update({k: v for k, v in env.email_url_config(_EMAIL_URL).items() if v is not None})
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="Zeus <zeus@localhost>")
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)
# Where links in mail point (the unsubscribe link, the call to action): the site as users reach it.
ZEUS_SITE_URL = env("ZEUS_SITE_URL", default="http://127.0.0.1:8000")

# Web push for the inbox (docs/push.md): off unless all three are set. The keys as `manage.py webpush_keys`
# prints them (base64url: the private key's 32 bytes, the public key's uncompressed point); the subject is a
# mailto: or https: contact for the push services.
ZEUS_WEBPUSH_VAPID_PUBLIC_KEY = env("ZEUS_WEBPUSH_VAPID_PUBLIC_KEY", default="")
ZEUS_WEBPUSH_VAPID_PRIVATE_KEY = env("ZEUS_WEBPUSH_VAPID_PRIVATE_KEY", default="")
ZEUS_WEBPUSH_VAPID_SUBJECT = env("ZEUS_WEBPUSH_VAPID_SUBJECT", default="")
# Push endpoints are https; the tests' loopback push service is plain http.
ZEUS_WEBPUSH_ALLOW_HTTP = env.bool("ZEUS_WEBPUSH_ALLOW_HTTP", default=False)

# The model provider. Tests point ANTHROPIC_BASE_URL at a loopback server that speaks the Messages API.
ANTHROPIC_API_KEY = env("ANTHROPIC_API_KEY", default="")
ANTHROPIC_BASE_URL = env("ANTHROPIC_BASE_URL", default="")
ZEUS_MODEL = env("ZEUS_MODEL", default="claude-sonnet-5-5")
ZEUS_ROUTER_MODEL = env("ZEUS_ROUTER_MODEL", default="claude-haiku-5-5")
# How hard the model thinks, per workflow (docs/chat.md, "What Zeus sends"): one level for all
# ("low"), or workflow=level pairs with an optional default ("default=low,coach=medium").
ZEUS_EFFORT = env("ZEUS_EFFORT", default="default=low,coach=medium")
# Seconds one reading of a shared receipt or PDF may take (the SDK retries twice within its own budget).
ZEUS_CAPTURE_TIMEOUT = env.float("ZEUS_CAPTURE_TIMEOUT", default=45.0)
# USD per million tokens, per model, over the built-in table (chat/pricing.py), as JSON:
# {"claude-sonnet-5-5": {"input": "2", "output": "10", "cache_write": "2.50", "cache_read": "0.10"}}
ZEUS_MODEL_PRICES = env("ZEUS_MODEL_PRICES", default="")
# Tokens each user's chat turns may spend per day in their timezone, cache reads and writes weighted by
# their price relative to input (chat/usage.py); 0 = unlimited. Staff can override it per user in the admin.
ZEUS_DAILY_TOKEN_BUDGET = env.int("ZEUS_DAILY_TOKEN_BUDGET", default=200_000)
# The same allowance in money (USD a day); empty = no money budget. Both apply when both are set.
ZEUS_DAILY_COST_BUDGET_USD = env("ZEUS_DAILY_COST_BUDGET_USD", default="")
# Encrypts users' personal provider keys at rest; derived from SECRET_KEY when unset.
ZEUS_FIELD_ENCRYPTION_KEY = env("ZEUS_FIELD_ENCRYPTION_KEY", default="")
# The origin the outside world reaches Zeus at (https://zeus.example.com): webhook URLs shown to users are
# built on it. Empty: the origin of the request that asked for the URL.
ZEUS_PUBLIC_URL = env("ZEUS_PUBLIC_URL", default="")
# The bank-feed providers' transactions APIs, for the daily reconciliation (assets/feeds/reconcile.py).
ZEUS_SEPAY_API_URL = env("ZEUS_SEPAY_API_URL", default="https://my.sepay.vn")
ZEUS_CASSO_API_URL = env("ZEUS_CASSO_API_URL", default="https://oauth.casso.vn")

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
