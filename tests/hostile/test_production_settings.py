"""The production settings module: cookies and headers reviewed (docs/security.md, "Defences")."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client, override_settings

ROOT = Path(__file__).resolve().parents[2]
NAMES = [
    "DEBUG",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SESSION_COOKIE_HTTPONLY",
    "CSRF_COOKIE_HTTPONLY",
    "SESSION_COOKIE_SAMESITE",
    "SESSION_COOKIE_NAME",
    "CSRF_COOKIE_NAME",
    "SESSION_COOKIE_AGE",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_CONTENT_TYPE_NOSNIFF",
    "SECURE_REFERRER_POLICY",
    "X_FRAME_OPTIONS",
    "SECURE_REDIRECT_EXEMPT",
]


def _production(**env) -> dict:
    read = f"{{n: getattr(settings, n) for n in {NAMES}}}"
    code = f"from django.conf import settings; import json; print(json.dumps({read}))"
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env={
            "PATH": os.environ.get("PATH", ""),
            "DJANGO_SETTINGS_MODULE": "zeus.settings.production",
            "DJANGO_SECRET_KEY": "x" * 50,
            # Named so the settings never start the embedded PostgreSQL: nothing here connects.
            "DATABASE_URL": "postgres://zeus@127.0.0.1:5432/zeus",
            **env,
        },
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_production_cookies_are_secure_httponly_lax_and_host_prefixed():
    s = _production()
    assert s["DEBUG"] is False
    assert s["SESSION_COOKIE_SECURE"] and s["CSRF_COOKIE_SECURE"]
    assert s["SESSION_COOKIE_HTTPONLY"] and s["CSRF_COOKIE_HTTPONLY"]
    assert s["SESSION_COOKIE_SAMESITE"] == "Lax"
    assert s["SESSION_COOKIE_NAME"].startswith("__Host-") and s["CSRF_COOKIE_NAME"].startswith("__Host-")
    assert s["SESSION_COOKIE_AGE"] <= 14 * 24 * 3600
    assert s["SECURE_SSL_REDIRECT"] and s["SECURE_HSTS_SECONDS"] > 0 and s["SECURE_CONTENT_TYPE_NOSNIFF"]
    assert s["X_FRAME_OPTIONS"] == "DENY"


def test_without_tls_the_cookie_names_drop_the_prefix_browsers_would_refuse():
    s = _production(DJANGO_SECURE_COOKIES="false")
    assert not s["SESSION_COOKIE_SECURE"]
    assert not s["SESSION_COOKIE_NAME"].startswith("__Host-")


@pytest.mark.django_db
def test_health_probes_over_plain_http_are_not_redirected_and_the_rest_is():
    s = _production()
    with override_settings(SECURE_SSL_REDIRECT=True, SECURE_REDIRECT_EXEMPT=s["SECURE_REDIRECT_EXEMPT"]):
        client = Client()
        for path in ("/healthz", "/readyz"):
            assert client.get(path).status_code in (200, 503), path
        assert client.get("/api/v1/profile").status_code == 301
        assert client.get("/healthzz").status_code == 301
