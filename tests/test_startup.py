"""Start-up stays light: a process that sets Django up, loads every URL conf, the ASGI application and the
system checks imports no heavy library it does not need yet. The anthropic SDK (and the HTTP client it is
built on) is imported by the functions that call the model; jsonschema when a tool first runs; the MCP SDK and
its web stack on the first /mcp request."""

import json
import os
import subprocess
import sys
from pathlib import Path

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
