"""The Procfile's `web` (gunicorn, facing the browser) and `ws` (daphne, with the handover socket), started as
`make run` starts them.

Each process runs its Procfile line through the shell (so a broken line fails here), on free ports, against
the test database and Redis. What must hold: pages, REST and static files come from gunicorn itself, with
caching headers; a websocket on `/ws/` and `/mcp` reach daphne through gunicorn's own port (the connection
handed over), with the websocket's Origin and session checks what they were; gunicorn's other connections
carry on; and with daphne down a websocket gets a 503 while HTTP is still served.
"""

import asyncio
import http.client
import json
import os
import shutil
import socket
import stat
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
from rest_framework.authtoken.models import Token

from tests import processes
from tests.database import database_url

ROOT = Path(__file__).resolve().parent.parent.parent
BIN = Path(sys.executable).parent
pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def _procfile() -> dict[str, str]:
    lines = (ROOT / "Procfile").read_text().splitlines()
    return dict(line.split(": ", 1) for line in lines if line.strip() and not line.startswith("#"))


def _wait_for(address: int | str, procs) -> None:
    """Until something listens on the TCP port, or on the Unix socket at the path."""
    deadline = time.monotonic() + 90
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


class Served:
    def __init__(self, port: int, handover: str, procs: dict[str, subprocess.Popen], ws_log: Path):
        self.port, self.handover, self.procs, self.ws_log = port, handover, procs, ws_log

    def stop(self, name: str) -> None:
        processes.stop(self.procs[name])


@pytest.fixture
def served():
    if shutil.which("sh") is None:
        pytest.skip("needs a POSIX shell")
    ports = {"PORT": processes.free_port(), "ASGI_PORT": processes.free_port()}
    # A short path of its own: sun_path holds 107 bytes, and another run may use the default one.
    sockets = tempfile.mkdtemp(prefix="zeus-")
    handover = os.path.join(sockets, "handover.sock")
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("WSGI_SOCKET", "HOST")},
        **{k: str(v) for k, v in ports.items()},
        "ASGI_HANDOVER_SOCKET": handover,
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "DJANGO_SETTINGS_MODULE": "zeus.settings.test",
        "DATABASE_URL": database_url(),
        "WEB_CONCURRENCY": "1",
        # daphne's access log (its stdout) names each request's client: read by a test, so written at once.
        "PYTHONUNBUFFERED": "1",
    }
    commands = _procfile()
    ws_log = Path(sockets) / "ws.log"
    with ws_log.open("wb") as log:
        procs = {
            name: subprocess.Popen(
                ["sh", "-c", f"exec {commands[name]}"],
                cwd=ROOT,
                env=env,
                stdout=log if name == "ws" else subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for name in ("web", "ws")
        }
    running = Served(ports["PORT"], handover, procs, ws_log)
    try:
        for address in (*ports.values(), handover):
            _wait_for(address, list(procs.values()))
        yield running
    finally:
        for name in procs:
            running.stop(name)
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
    """The handshake's status; once open, a frame the consumer answers (an unknown type: BAD_FRAME)."""
    headers = {"Cookie": cookie} if cookie else {}
    try:
        async with websockets.connect(
            f"ws://127.0.0.1:{port}{path}", origin=origin, additional_headers=headers, open_timeout=10
        ) as ws:
            await ws.send(json.dumps({"type": "nonsense"}))
            answer = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert answer["type"] == "error" and answer["code"] == "BAD_FRAME", answer
            return 101, ws.response.headers.get("Server")
    except websockets.InvalidStatus as refused:
        return refused.response.status_code, refused.response.headers.get("Server")


def _mcp_post(port: int, *, chunked: bool = False):
    body = b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}'
    client = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if chunked:
        client.request("POST", "/mcp", body=iter([body[:10], body[10:]]), headers=headers, encode_chunked=True)
    else:
        client.request("POST", "/mcp", body=body, headers=headers)
    response = client.getresponse()
    out = response.status, response.getheader("Server"), response.read()
    client.close()
    return out


def test_rest_pages_and_static_files_are_served_by_gunicorn_itself(served, alice):
    token = Token.objects.create(user=alice)
    status, headers, body = _get(served.port, "/api/v1/profile", {"Authorization": f"Token {token.key}"})
    assert status == 200 and b'"username":"alice"' in body
    assert headers["Server"] == "gunicorn" and "Via" not in headers
    assert _get(served.port, "/api/v1/profile")[0] == 401

    static = next(p for p in (ROOT / "static" / "zeus").iterdir() if p.suffix == ".css")
    status, headers, _ = _get(served.port, f"/static/zeus/{static.name}")
    assert status == 200 and headers["Server"] == "gunicorn"
    assert "max-age=" in headers["Cache-Control"]


def test_websockets_and_mcp_are_handed_to_daphne_on_gunicorns_port_with_their_checks(served, alice, bob):
    from chat.services import thread_create

    thread = thread_create(user=alice)
    path = f"/ws/chat/{thread.id}/"
    same_origin = f"http://127.0.0.1:{served.port}"
    # Served by daphne from the handshake on: the 101 is daphne's, and so is the frame answered after it.
    assert asyncio.run(_handshake(served.port, path, origin=same_origin, cookie=_session_cookie(alice))) == (
        101,
        "daphne",
    )
    # The Origin check: a page of another site cannot open the user's socket, even with their cookie.
    refused = asyncio.run(_handshake(served.port, path, origin="http://evil.example", cookie=_session_cookie(alice)))
    assert refused[0] == 403
    # The session check: no session, or another user's thread, is refused.
    assert asyncio.run(_handshake(served.port, path, origin=same_origin, cookie=None))[0] == 403
    assert asyncio.run(_handshake(served.port, path, origin=same_origin, cookie=_session_cookie(bob)))[0] == 403

    # /mcp: the token check answers, for a body sent by length or in chunks; GET has no event stream.
    for chunked in (False, True):
        status, server, body = _mcp_post(served.port, chunked=chunked)
        assert (status, server) == (401, "daphne"), body
    status, headers, body = _get(served.port, "/mcp")
    assert status == 405 and headers["Server"] == "daphne"
    assert json.loads(body)["jsonrpc"] == "2.0"


def test_the_handover_socket_is_readable_by_its_owner_only(served):
    assert stat.S_IMODE(os.stat(served.handover).st_mode) == 0o600


def test_daphne_sees_the_clients_own_address_on_a_handed_over_connection(served):
    client = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    client.connect()
    _, client_port = client.sock.getsockname()
    client.request("GET", "/mcp")
    assert client.getresponse().status == 405
    client.close()
    deadline = time.monotonic() + 10
    while f"127.0.0.1:{client_port} " not in served.ws_log.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert f"127.0.0.1:{client_port} " in served.ws_log.read_text()


def test_kept_alive_connections_carry_on_across_handovers_on_other_connections(served, alice):
    token = Token.objects.create(user=alice)
    headers = {"Authorization": f"Token {token.key}"}
    client = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    client.request("GET", "/api/v1/profile", headers=headers)
    assert client.getresponse().read() and client.sock is not None
    kept = client.sock

    assert _mcp_post(served.port)[0] == 401
    assert _get(served.port, "/mcp")[0] == 405

    for _ in range(2):
        client.request("GET", "/api/v1/profile", headers=headers)
        response = client.getresponse()
        assert response.status == 200 and b'"username":"alice"' in response.read()
    assert client.sock is kept
    client.close()


def test_with_daphne_down_a_websocket_gets_a_503_and_gunicorn_serves_on(served, alice):
    token = Token.objects.create(user=alice)
    served.stop("ws")
    upgrade = {
        "Connection": "Upgrade",
        "Upgrade": "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Origin": f"http://127.0.0.1:{served.port}",
    }
    status, headers, body = _get(served.port, "/ws/chat/00000000-0000-0000-0000-000000000000/", upgrade)
    assert status == 503 and headers["Retry-After"] == "5"
    assert json.loads(body)["error"]["code"] == "SERVICE_UNAVAILABLE"
    assert _mcp_post(served.port)[0] == 503
    status, _, body = _get(served.port, "/api/v1/profile", {"Authorization": f"Token {token.key}"})
    assert status == 200 and b'"username":"alice"' in body


def test_gunicorn_listens_on_host_and_port_or_on_a_unix_socket(monkeypatch):
    import runpy

    for name in ("WSGI_SOCKET", "HOST", "PORT"):
        monkeypatch.delenv(name, raising=False)
    assert runpy.run_path(str(ROOT / "gunicorn.conf.py"))["bind"] == "127.0.0.1:8000"
    monkeypatch.setenv("HOST", "0.0.0.0")
    monkeypatch.setenv("PORT", "9001")
    assert runpy.run_path(str(ROOT / "gunicorn.conf.py"))["bind"] == "0.0.0.0:9001"
    monkeypatch.setenv("WSGI_SOCKET", "/tmp/zeus-test.sock")
    assert runpy.run_path(str(ROOT / "gunicorn.conf.py"))["bind"] == "unix:/tmp/zeus-test.sock"
