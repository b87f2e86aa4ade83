"""The first turn on a fresh chat page, in Chromium, against a freshly started daphne process with Redis (the
Procfile's `ws` line, serving pages, static files and the socket alone), as issue 32 reported it: log in, open
/chat (which creates a thread and opens its socket), send "show my accounts". Every frame of that first turn
must reach the page (`ack` first, `done` last), and the text the model streams before its tool call must stay in
the live bubble, whole, and read the same after a reload."""

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from tests import factories, processes
from tests.chat.browser.conftest import DESKTOP, watch_csp
from tests.chat.conftest import SERVER_KEY
from tests.chat.fake_anthropic import FakeAnthropic, text, tools

pytestmark = [pytest.mark.browser, pytest.mark.redis, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[3]
BEFORE_THE_TOOL = "Để mình xem các tài khoản của bạn trước đã, rồi mình tóm tắt số dư cho bạn."
AFTER_THE_TOOL = "Bạn có một tài khoản: Ví tiền mặt với 2.000.000 ₫."


def _ws_command() -> str:
    lines = (ROOT / "Procfile").read_text().splitlines()
    return dict(line.split(": ", 1) for line in lines if line.strip() and not line.startswith("#"))["ws"]


@pytest.fixture
def model():
    with FakeAnthropic(port=processes.free_port()) as server:
        server.router_model = settings.ZEUS_ROUTER_MODEL
        yield server


@pytest.fixture
def fresh_daphne(model, tmp_path):
    """A daphne process started for this test only: no socket, page or turn served before the first one."""
    db = connection.settings_dict
    port = processes.free_port()
    env = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "DJANGO_SETTINGS_MODULE": "zeus.settings.test",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REDIS_URL": settings.REDIS_URL,
        "ANTHROPIC_BASE_URL": model.url,
        "ANTHROPIC_API_KEY": SERVER_KEY,
    }
    log = (tmp_path / "daphne.log").open("wb")
    proc = subprocess.Popen(["sh", "-c", f"exec {_ws_command()}"], cwd=ROOT, env=env, stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise RuntimeError((tmp_path / "daphne.log").read_text()[-3000:])
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}"
    finally:
        processes.stop(proc)
        log.close()


def test_the_first_turn_on_a_fresh_page_shows_every_frame_and_keeps_the_text_before_the_tool(
    browser, fresh_daphne, model
):
    user = factories.user("first_turn", language="vi")
    factories.asset(user, name="Ví tiền mặt", kind="cash", balance="2000000")

    def reply(body):
        last = body["messages"][-1]
        answered = isinstance(last["content"], list) and any(b["type"] == "tool_result" for b in last["content"])
        if answered:
            return text(AFTER_THE_TOOL, token_delay=0.02)
        return tools(("list_assets", {}), say=BEFORE_THE_TOOL, token_delay=0.02)

    model.responder = reply
    context = browser.new_context(viewport=DESKTOP, locale="vi-VN", timezone_id="Asia/Ho_Chi_Minh")
    violations = watch_csp(context)
    page = context.new_page()
    page.set_default_timeout(20000)
    received: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: received.append(json.loads(payload))))
    try:
        page.goto(f"{fresh_daphne}/accounts/login/?next=/chat")
        page.fill("#id_login", user.username)
        page.fill("#id_password", factories.PASSWORD)
        page.click("form button[type=submit]")
        page.wait_for_selector("#chat-app[data-ready=true]")
        page.wait_for_selector("#conn-status[data-state=open]", state="attached")

        page.fill("#input", "show my accounts")
        page.press("#input", "Enter")
        page.locator(".msg-assistant", has_text=AFTER_THE_TOOL).wait_for()
        page.wait_for_selector("#stop", state="hidden")

        kinds = [f["type"] for f in received if f.get("type") != "notification"]
        assert kinds and kinds[0] == "ack", kinds
        assert kinds[-1] == "done" and "tool" in kinds and "token" in kinds, kinds
        streamed = "".join(f["text"] for f in received if f["type"] == "token")
        assert streamed.startswith(BEFORE_THE_TOOL)

        live = page.locator(".msg-assistant").last.inner_text()
        assert BEFORE_THE_TOOL in live and AFTER_THE_TOOL in live

        page.reload()
        page.wait_for_selector("#chat-app[data-ready=true]")
        stored = page.locator(".msg-assistant", has_text=AFTER_THE_TOOL)
        stored.wait_for()
        assert BEFORE_THE_TOOL in stored.last.inner_text()
        assert violations == []
    finally:
        context.close()
