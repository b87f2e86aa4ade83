"""The project as a whole: migrations match the models, the code is lint clean, production settings pass
Django's deployment checks, and the ASGI entry point imports."""

import os
import secrets
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parent.parent


# Named so the settings never start the embedded PostgreSQL (zeus/embedded_db.py): nothing here connects.
DATABASE_URL = "postgres://zeus@127.0.0.1:5432/zeus"


def _run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def test_the_models_have_no_unmigrated_changes(db):
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit:
        pytest.fail(f"makemigrations would write migrations:\n{out.getvalue()}")


def test_ruff_finds_nothing():
    result = _run("-m", "ruff", "check", ".")

    assert result.returncode == 0, result.stdout + result.stderr


def test_the_production_settings_pass_the_deployment_checks():
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/tmp"),
        "DJANGO_SETTINGS_MODULE": "zeus.settings.production",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "zeus.example.com",
        "DATABASE_URL": DATABASE_URL,
    }

    result = _run("manage.py", "check", "--deploy", "--fail-level", "WARNING", env=env)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_production_settings_refuse_to_start_without_a_secret_key():
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "DJANGO_SETTINGS_MODULE": "zeus.settings.production",
        "DATABASE_URL": DATABASE_URL,
    }

    result = _run("manage.py", "check", env=env)

    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_the_asgi_application_routes_http_and_websockets():
    from channels.routing import ProtocolTypeRouter

    from zeus.asgi import application

    assert isinstance(application, ProtocolTypeRouter)
    assert {"http", "websocket"} <= set(application.application_mapping)
