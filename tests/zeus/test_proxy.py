"""The production layout on one origin: Debian's nginx with deploy/nginx.conf in front of the Procfile's `web`
(gunicorn) and `ws` (daphne), each started from its Procfile line as a real process.

nginx runs from a temporary prefix (its pid, logs and buffers there; as root when the tests are) on free
loopback ports written into the shipped file (tests/processes.py); its access log names the upstream that
answered each request, so the routing is read, not inferred. Skipped where /usr/sbin/nginx is missing, except
under CI=true.
"""

import asyncio
import http.cookiejar
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import pytest
import websockets
from django.conf import settings
from django.db import connection

from tests import factories, processes

ROOT = Path(__file__).resolve().parent.parent.parent
BIN = Path(sys.executable).parent
IN_CI = os.environ.get("CI") == "true"
pytestmark = [pytest.mark.proxy, pytest.mark.django_db(transaction=True)]


def _procfile() -> dict[str, str]:
    lines = (ROOT / "Procfile").read_text().splitlines()
    return dict(line.split(": ", 1) for line in lines if line.strip() and not line.startswith("#"))


def _wait_for(port: int, procs: dict[str, subprocess.Popen], logs: Path) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        for name, proc in procs.items():
            if proc.poll() is not None:
                raise RuntimeError(f"{name} exited while starting:\n{(logs / f'{name}.log').read_text()[-3000:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing listens on {port}")


class Site:
    def __init__(self, port: int, web: int, ws: int, prefix: Path, procs: dict[str, subprocess.Popen]):
        self.port, self.web, self.ws, self.prefix, self.procs = port, web, ws, prefix, procs
        self.origin = f"http://127.0.0.1:{port}"

    def upstream_of(self, method: str, path: str) -> str:
        """The upstream port nginx sent the latest such request to (its access log is written as it answers)."""
        log = self.prefix / "access.log"
        for _ in range(50):
            found = [line for line in map(str.split, log.read_text().splitlines()) if line[:2] == [method, path]]
            if found:
                return found[-1][3].rsplit(":", 1)[1]
            time.sleep(0.1)
        raise AssertionError(f"{method} {path} is not in nginx's access log:\n{log.read_text()}")


@pytest.fixture(scope="module")
def site(django_db_setup, django_db_blocker, tmp_path_factory):
    """One set of processes for the module (they start slowly); the test that stops `ws` comes last."""
    if not processes.NGINX.exists():
        if IN_CI:
            pytest.fail(f"CI=true but {processes.NGINX} is missing (apt-get install nginx-light)")
        pytest.skip(f"{processes.NGINX} is missing (apt-get install nginx-light)")
    tmp_path = tmp_path_factory.mktemp("proxy")
    with django_db_blocker.unblock():
        db = connection.settings_dict
    listen, web, ws = processes.free_port(), processes.free_port(), processes.free_port()
    prefix = tmp_path / "nginx"
    nginx = processes.nginx_command(prefix, listen=listen, web=web, ws=ws)
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("CI",)},
        "HOST": "127.0.0.1",
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "DJANGO_SETTINGS_MODULE": "zeus.settings.test",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "ANTHROPIC_API_KEY": "",
        "WEB_CONCURRENCY": "1",
        "WEB_THREADS": "2",
    }
    commands = _procfile()
    procs: dict[str, subprocess.Popen] = {}
    try:
        for name, port in (("web", web), ("ws", ws)):
            with (tmp_path / f"{name}.log").open("wb") as log:
                procs[name] = subprocess.Popen(
                    ["sh", "-c", f"exec {commands[name]}"],
                    cwd=ROOT,
                    env={**env, "PORT": str(port)},
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
        with (tmp_path / "nginx.log").open("wb") as log:
            procs["nginx"] = subprocess.Popen(nginx, stdout=log, stderr=subprocess.STDOUT)
        for port in (web, ws, listen):
            _wait_for(port, procs, tmp_path)
        yield Site(listen, web, ws, prefix, procs)
    finally:
        # nginx first, so its kept-alive connections to gunicorn do not hold gunicorn's graceful stop.
        for proc in reversed(procs.values()):
            proc.terminate()
        for proc in reversed(procs.values()):
            processes.stop(proc)


def _open(opener, url: str, data: dict | None = None, headers: dict | None = None):
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    request = urllib.request.Request(url, data=body, headers=headers or {})
    try:
        with opener.open(request, timeout=15) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def _cookie(jar: http.cookiejar.CookieJar, name: str) -> str:
    return next(c.value for c in jar if c.name == name)


async def _chat(site: Site, thread_id, *, cookie: str, origin: str) -> list[dict] | int:
    """The handshake, then one user message: the frames up to the turn's end, or the refusing status."""
    try:
        async with websockets.connect(
            f"ws://127.0.0.1:{site.port}/ws/chat/{thread_id}/",
            origin=origin,
            additional_headers={"Cookie": cookie},
            open_timeout=15,
        ) as ws:
            await ws.send(json.dumps({"type": "user_message", "id": str(uuid.uuid4()), "text": "How am I doing?"}))
            frames = []
            while not frames or frames[-1]["type"] not in ("done", "error"):
                frames.append(json.loads(await asyncio.wait_for(ws.recv(), 15)))
            return frames
    except websockets.InvalidStatus as refused:
        return refused.response.status_code


def test_one_origin_serves_pages_rest_websockets_and_mcp_through_nginx(site):
    from chat.services import thread_create

    alice = factories.user("alice")
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    # A page, and signing in through it: the CSRF check compares the browser's Origin with the Host nginx passed on.
    status, headers, body = _open(browser, f"{site.origin}/accounts/login/")
    assert status == 200 and "default-src 'self'" in headers["Content-Security-Policy"]
    assert site.upstream_of("GET", "/accounts/login/") == str(site.web)
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1).decode()
    status, _, body = _open(
        browser,
        f"{site.origin}/accounts/login/",
        {"csrfmiddlewaretoken": token, "login": "alice", "password": factories.PASSWORD},
        {"Origin": site.origin, "Referer": f"{site.origin}/accounts/login/"},
    )
    assert status == 200 and site.upstream_of("POST", "/accounts/login/") == str(site.web)
    session = _cookie(jar, settings.SESSION_COOKIE_NAME)

    # Static files, with WhiteNoise's caching headers.
    static = next(p for p in (ROOT / "static" / "zeus").iterdir() if p.suffix == ".css")
    status, headers, _ = _open(browser, f"{site.origin}/static/zeus/{static.name}")
    assert status == 200 and "max-age=" in headers["Cache-Control"]

    # REST, by token.
    key = factories.api_key(alice)
    status, _, body = _open(browser, f"{site.origin}/api/v1/profile", headers={"Authorization": f"Token {key}"})
    assert status == 200 and json.loads(body)["username"] == "alice"
    assert site.upstream_of("GET", "/api/v1/profile") == str(site.web)

    # The chat socket on the same origin, with the session signed in above: upgraded, and a turn answered.
    thread = thread_create(user=alice)
    cookie = f"{settings.SESSION_COOKIE_NAME}={session}"
    frames = asyncio.run(_chat(site, thread.id, cookie=cookie, origin=site.origin))
    assert frames[0]["type"] == "ack", frames
    assert frames[-1] == {**frames[-1], "type": "error", "code": "AI_PROVIDER_REQUIRED"}
    assert site.upstream_of("GET", f"/ws/chat/{thread.id}/") == str(site.ws)
    # Its checks hold behind the proxy: another site's page, or no session, is refused.
    assert asyncio.run(_chat(site, thread.id, cookie=cookie, origin="http://evil.example")) == 403
    assert asyncio.run(_chat(site, thread.id, cookie="", origin=site.origin)) == 403

    # /mcp reaches the ASGI app, whose bearer check answers.
    mcp = urllib.request.Request(
        f"{site.origin}/mcp",
        data=b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}',
        headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"},
    )
    try:
        urllib.request.urlopen(mcp, timeout=15)
    except urllib.error.HTTPError as refused:
        with refused:
            assert refused.code == 401 and refused.read()
    assert site.upstream_of("POST", "/mcp") == str(site.ws)


def _signed_in(site: Site, username: str) -> str:
    """A session cookie from signing in through nginx's page, as a browser does."""
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    _, _, body = _open(browser, f"{site.origin}/accounts/login/")
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1).decode()
    _open(
        browser,
        f"{site.origin}/accounts/login/",
        {"csrfmiddlewaretoken": token, "login": username, "password": factories.PASSWORD},
        {"Origin": site.origin, "Referer": f"{site.origin}/accounts/login/"},
    )
    return f"{settings.SESSION_COOKIE_NAME}={_cookie(jar, settings.SESSION_COOKIE_NAME)}"


def test_a_request_line_over_4_kib_is_a_json_414_and_a_huge_header_a_json_431(site):
    key = factories.api_key(factories.user("alice"))
    opener = urllib.request.build_opener()
    for path in ("/api/v1/profile", "/chat", "/ws/chat/x/"):
        status, headers, body = _open(opener, f"{site.origin}{path}?q={'a' * 5000}")
        assert status == 414 and headers["Content-Type"].startswith("application/json"), (path, body[:200])
        error = json.loads(body)["error"]
        assert error["code"] == "URI_TOO_LONG" and "4 KiB" in error["message"]
    # Under the limit, the request reaches Zeus as before.
    status, _, body = _open(
        opener, f"{site.origin}/api/v1/profile?q={'a' * 3000}", headers={"Authorization": f"Token {key}"}
    )
    assert status == 200 and json.loads(body)["username"] == "alice"
    status, headers, body = _open(opener, f"{site.origin}/api/v1/profile", headers={"X-Big": "b" * 5000})
    assert status == 431 and json.loads(body)["error"]["code"] == "HEADERS_TOO_LARGE"


def test_slow_headers_hold_nginx_not_the_app_and_are_cut_off(site):
    """`web` runs two threads here: without nginx reading whole requests first, two clients that never finish
    their headers would hold both, and every other request would wait."""
    key = factories.api_key(factories.user("alice"))
    slow = []
    for _ in range(24):
        conn = socket.create_connection(("127.0.0.1", site.port), timeout=20)
        conn.sendall(b"GET /api/v1/profile HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n")
        slow.append(conn)
    try:
        began = time.monotonic()
        opener = urllib.request.build_opener()
        status, _, body = _open(opener, f"{site.origin}/api/v1/profile", headers={"Authorization": f"Token {key}"})
        assert status == 200 and json.loads(body)["username"] == "alice"
        assert time.monotonic() - began < 3
        # nginx gives up on them after client_header_timeout (10 s): each is closed, nothing was passed on.
        for conn in slow:
            assert conn.recv(4096) == b""
        assert 8 < time.monotonic() - began < 15
    finally:
        for conn in slow:
            conn.close()


async def _oversized_frame(site: Site, thread_id, cookie: str, size: int):
    async with websockets.connect(
        f"ws://127.0.0.1:{site.port}/ws/chat/{thread_id}/",
        origin=site.origin,
        additional_headers={"Cookie": cookie},
        open_timeout=15,
        max_size=None,
    ) as ws:
        await ws.send("x" * size)
        try:
            await asyncio.wait_for(ws.recv(), 15)
        except websockets.ConnectionClosed as closed:
            return closed.rcvd
        raise AssertionError("the socket stayed open")


def test_a_frame_over_64_kib_closes_the_socket_with_1009(site):
    from chat.services import thread_create

    alice = factories.user("alice")
    thread = thread_create(user=alice)
    cookie = _signed_in(site, "alice")
    # Over daphne's own --websocket-max-message-size (the Procfile's `ws`), before the app reads it: a close frame
    # that says why (zeus/ws_serve.py), not a dropped connection (1006). Far over it, the same.
    for size in (70 * 1024, 4 * 1024 * 1024):
        rcvd = asyncio.run(_oversized_frame(site, thread.id, cookie, size))
        assert rcvd is not None and rcvd.code == 1009, (size, rcvd)
    # The process serves on: the next socket's turn is answered.
    frames = asyncio.run(_chat(site, thread.id, cookie=cookie, origin=site.origin))
    assert frames[0]["type"] == "ack" and frames[-1]["type"] == "error"


def test_with_ws_down_a_socket_gets_the_json_503_and_pages_are_served_on(site):
    alice = factories.user("alice")
    key = factories.api_key(alice)
    processes.stop(site.procs["ws"])
    opener = urllib.request.build_opener()
    upgrade = {
        "Connection": "Upgrade",
        "Upgrade": "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Origin": site.origin,
    }
    status, headers, body = _open(opener, f"{site.origin}/ws/chat/{uuid.uuid4()}/", headers=upgrade)
    assert status == 503 and headers["Retry-After"] == "5"
    assert json.loads(body)["error"]["code"] == "SERVICE_UNAVAILABLE"
    status, _, body = _open(opener, f"{site.origin}/api/v1/profile", headers={"Authorization": f"Token {key}"})
    assert status == 200 and json.loads(body)["username"] == "alice"


def test_gunicorn_times_out_a_stuck_worker_and_leaves_long_request_lines_to_nginx():
    import runpy

    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    nginx = (ROOT / "deploy" / "nginx.conf").read_text()
    assert 0 < conf["timeout"] <= 60 and conf["graceful_timeout"] <= conf["timeout"]
    # nginx's request-line buffer (4 KiB) is below gunicorn's limit: nginx answers first, in JSON.
    assert "large_client_header_buffers 4 4k;" in nginx and conf["limit_request_line"] > 4096
