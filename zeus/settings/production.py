"""Production: the base with the security switches on. Secrets must come from the environment."""

from zeus.settings.base import *  # noqa: F403
from zeus.settings.base import env

DEBUG = False
SECRET_KEY = env("DJANGO_SECRET_KEY")
# Staff reach the admin only with a second factor (docs/accounts.md).
ZEUS_STAFF_MFA = env.bool("ZEUS_STAFF_MFA", default=True)
MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = False  # whatever the environment says
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https"
SESSION_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
WHITENOISE_USE_FINDERS = False
# TLS ends at the load balancer (SECURE_PROXY_SSL_HEADER); HSTS starts short, raise it once HTTPS is proven.
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
# Probes (a load balancer's, an orchestrator's) speak plain HTTP to the process itself: a 301 would read as down.
SECURE_REDIRECT_EXEMPT = [r"^healthz/?$", r"^readyz/?$"]
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=60)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=True)

# Cookies (docs/security.md, "Defences"). HttpOnly both: the pages hand the CSRF token to their scripts in the
# DOM (`data-csrf`), never through the cookie. The `__Host-` prefix makes the browser insist on Secure,
# Path=/ and no Domain, so a sibling subdomain can neither set nor shadow them. Lax keeps the cookies off
# cross-site POSTs while a link from elsewhere still arrives logged in.
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
if SESSION_COOKIE_SECURE:
    SESSION_COOKIE_NAME = "__Host-sessionid"
    CSRF_COOKIE_NAME = "__Host-csrftoken"
SESSION_COOKIE_AGE = env.int("DJANGO_SESSION_COOKIE_AGE", default=7 * 24 * 3600)
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
