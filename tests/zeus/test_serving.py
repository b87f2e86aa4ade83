"""The Procfile's front, HTTP and websocket processes, started as `make run` starts them, behind one origin.

Each process runs its Procfile line through the shell (so a broken line fails here), on free ports, against
the test database. What must hold: pages, REST and static files come from gunicorn, with caching headers;
`/ws/` and `/mcp` reach daphne through the same origin, and the websocket's Origin and session checks are
what they were.
"""

import asyncio
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
import websockets
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from rest_framework.authtoken.models import Token

ROOT = Path(__file__).resolve().parent.parent.parent
BIN = Path(sys.executable).parent
pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _procfile() -> dict[str, str]:
    lines = (ROOT / "Procfile").read_text().splitlines()
    return dict(line.split(": ", 1) for line in lines if line.strip() and not line.startswith("#"))


def _wait_for(address: int | str, procs) -> None:
    """Until something listens on the TCP port, or on the Unix socket at the path."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if any(p.poll() is not None for p in procs):
            raise RuntimeError("a Procfile process exited while starting")
        try:
            if isinstance(address, str):
                with socket.socket(socket.AF_UNIX) as unix:
                    unix.settimeout(0.5)
                    unix.connect(address)
            else:
                socket.create_connection(("127.0.0.1", address), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing listens on {address}")


@pytest.fixture
def served():
    if shutil.which("sh") is None:
        pytest.skip("needs a POSIX shell")
    db = connection.settings_dict
    ports = {"PORT": _free_port(), "ASGI_PORT": _free_port()}
    # The front reaches gunicorn over a Unix socket, as it ships (a short path: sun_path holds 107 bytes).
    sockets = tempfile.mkdtemp(prefix="zeus-")
    wsgi_socket = os.path.join(sockets, "wsgi.sock")
    env = {
        **{k: v for k, v in os.environ.items() if k != "WSGI_PORT"},
        **{k: str(v) for k, v in ports.items()},
        "WSGI_SOCKET": wsgi_socket,
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "DJANGO_SETTINGS_MODULE": "zeus.settings.test",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "WEB_CONCURRENCY": "1",
    }
    commands = _procfile()
    procs = [
        subprocess.Popen(["sh", "-c", f"exec {commands[name]}"], cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
        for name in ("web", "http", "ws")
    ]
    try:
        for address in (*ports.values(), wsgi_socket):
            _wait_for(address, procs)
        yield ports["PORT"]
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(sockets, ignore_errors=True)


def _get(port: int, path: str, headers: dict | None = None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def _session_cookie(user) -> str:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


async def _handshake(port: int, path: str, *, origin: str, cookie: str | None):
    headers = {"Cookie": cookie} if cookie else {}
    try:
        async with websockets.connect(
            f"ws://127.0.0.1:{port}{path}", origin=origin, additional_headers=headers, open_timeout=10
        ):
            return 101
    except websockets.InvalidStatus as refused:
        return refused.response.status_code


def test_rest_pages_and_static_files_are_served_by_gunicorn_behind_the_front(served, alice):
    token = Token.objects.create(user=alice)
    status, headers, body = _get(served, "/api/v1/profile", {"Authorization": f"Token {token.key}"})
    assert status == 200 and b'"username":"alice"' in body
    assert headers["Server"] == "gunicorn" and "Caddy" in headers["Via"]
    assert _get(served, "/api/v1/profile")[0] == 401

    static = next(p for p in (ROOT / "static" / "zeus").iterdir() if p.suffix == ".css")
    status, headers, _ = _get(served, f"/static/zeus/{static.name}")
    assert status == 200 and headers["Server"] == "gunicorn"
    assert "max-age=" in headers["Cache-Control"]


def test_websockets_and_mcp_reach_daphne_through_the_same_origin_with_their_checks(served, alice, bob):
    from chat.services import thread_create

    thread = thread_create(user=alice)
    path = f"/ws/chat/{thread.id}/"
    same_origin = f"http://127.0.0.1:{served}"
    assert asyncio.run(_handshake(served, path, origin=same_origin, cookie=_session_cookie(alice))) == 101
    # The Origin check: a page of another site cannot open the user's socket, even with their cookie.
    assert asyncio.run(_handshake(served, path, origin="http://evil.example", cookie=_session_cookie(alice))) == 403
    # The session check: no session, or another user's thread, is refused.
    assert asyncio.run(_handshake(served, path, origin=same_origin, cookie=None)) == 403
    assert asyncio.run(_handshake(served, path, origin=same_origin, cookie=_session_cookie(bob))) == 403

    body = b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}'
    request = urllib.request.Request(f"http://127.0.0.1:{served}/mcp", data=body, method="POST")
    request.add_header("Content-Type", "application/json")
    request.add_header("Accept", "application/json, text/event-stream")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 401, refused.value.read()
    assert refused.value.headers["Server"] != "gunicorn"


def test_gunicorn_listens_on_the_fronts_unix_socket_or_on_tcp_for_a_load_balancer(monkeypatch):
    import runpy

    monkeypatch.delenv("WSGI_PORT", raising=False)
    monkeypatch.setenv("WSGI_SOCKET", "/tmp/zeus-test.sock")
    assert runpy.run_path(str(ROOT / "gunicorn.conf.py"))["bind"] == "unix:/tmp/zeus-test.sock"
    monkeypatch.setenv("WSGI_PORT", "9001")
    assert runpy.run_path(str(ROOT / "gunicorn.conf.py"))["bind"] == "127.0.0.1:9001"
    # The front proxies to the same default path gunicorn binds when neither is set.
    assert "unix/{$WSGI_SOCKET:/tmp/zeus-wsgi.sock}" in (ROOT / "Caddyfile").read_text()
    monkeypatch.delenv("WSGI_PORT")
    monkeypatch.delenv("WSGI_SOCKET")
    assert runpy.run_path(str(ROOT / "gunicorn.conf.py"))["bind"] == "unix:/tmp/zeus-wsgi.sock"
