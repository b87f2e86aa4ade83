"""Browser tests of /chat: Debian's Chromium driven by Playwright against the real Django app (live_server).

The websocket is faked inside the browser (fake_ws.js replaces window.WebSocket before the page runs), and
the chat REST endpoints of docs/contract/rest.md are faked with page.route by FakeChatBackend; login, the page, its
static files and the notifications API are the real ones.
"""

import json
import os
import re
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from tests import factories
from tests.chat.browser.e2e_server import free_port
from tests.chat.conftest import SERVER_KEY
from tests.chat.fake_anthropic import FakeAnthropic

CHROMIUM = Path("/usr/bin/chromium")
IN_CI = os.environ.get("CI") == "true"
HERE = Path(__file__).parent
FAKE_WS = HERE / "fake_ws.js"
ARTIFACTS = HERE.parent.parent.parent / "artifacts" / "browser"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1280, "height": 820}
PHONE = {"width": 375, "height": 740}


def pytest_collection_modifyitems(config, items):
    if CHROMIUM.exists() or IN_CI:
        return
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(pytest.mark.skip(reason=f"{CHROMIUM} is missing (apt-get install chromium)"))


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.fail(f"CI=true but {CHROMIUM} is missing")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an asyncio loop registered on this thread, which makes Django refuse ORM
    # calls from the test body; the ORM work here is plain synchronous setup, so the guard is lifted while
    # the browser lives.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    playwright = sync_playwright().start()
    chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
    try:
        yield chromium
    finally:
        chromium.close()
        playwright.stop()
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="session")
def daphne_server():
    """The real app on daphne for the end-to-end tests: one per session (Twisted's reactor cannot restart), so it
    lives here for every module that needs it."""
    from tests.chat.browser.e2e_server import DaphneThread

    server = DaphneThread().start()
    yield server
    server.stop()


# The page's Content-Security-Policy (docs/security.md) must hold for everything the suite does: each
# violation reaches the console, from the page's own listener and from Chromium's report, and fails the test.
_CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${where}`);
});
"""


def watch_csp(context) -> list[str]:
    """Starts collecting the context's CSP violations; the list fills as they happen."""
    violations: list[str] = []
    context.add_init_script(_CSP_LISTENER)

    def on_console(message):
        text = message.text
        if message.type == "error" and ("CSP violation" in text or "Content Security Policy" in text):
            violations.append(text)

    context.on("console", on_console)
    return violations


def stored_message(role: str, text: str, *, parts: list | None = None, **extra) -> dict:
    return {
        "id": extra.pop("id", str(uuid.uuid4())),
        "role": role,
        "parts": parts if parts is not None else [{"type": "text", "text": text}],
        "metadata": extra.pop("metadata", {}),
        "created_at": extra.pop("created_at", "2026-11-29T08:00:00Z"),
    }


@dataclass
class FakeChatBackend:
    """The chat REST API of docs/contract/rest.md (shapes as the chat-loop branch serves them), answering from memory.

    `transactions` / `suggestions` None answer 404, as those APIs are absent on this branch.
    """

    threads: list = field(default_factory=list)
    messages: dict = field(default_factory=dict)
    provider_keys: list = field(default_factory=list)
    transactions: list | None = None
    suggestions: list | None = None
    transaction_reads: int = 0
    one_page: bool = False
    csrf_missing: int = 0
    sent: dict = field(default_factory=dict)  # message id → what its turn sent to the model (chat/turn/sent.py)

    def add_thread(self, title=None, messages=()) -> str:
        thread_id = str(uuid.uuid4())
        self.threads.insert(
            0,
            {
                "id": thread_id,
                "title": title,
                "created_at": "2026-11-29T08:00:00Z",
                "last_activity_at": "2026-11-29T08:00:00Z",
            },
        )
        self.messages[thread_id] = list(messages)
        return thread_id

    def persist(self, thread_id, message):
        self.messages.setdefault(thread_id, []).append(message)

    def install(self, page):
        page.route(re.compile(r".*/api/v1/chat/.*"), self._chat)
        page.route(re.compile(r".*/api/v1/transactions(\?.*)?$"), self._transactions)
        page.route(re.compile(r".*/api/v1/suggestions(\?.*)?$"), self._suggestions)

    @staticmethod
    def _json(route, status, body=None):
        if body is None:
            route.fulfill(status=status, body="")
        else:
            route.fulfill(status=status, content_type="application/json", body=json.dumps(body))

    def _chat(self, route, request):
        url = urlparse(request.url)
        if request.method != "GET" and not request.headers.get("x-csrftoken"):
            self.csrf_missing += 1
            return self._json(route, 403, {"error": {"code": "CSRF", "message": "CSRF token missing."}})
        if url.path == "/api/v1/chat/threads":
            if request.method == "POST":
                thread_id = self.add_thread()
                return self._json(route, 201, self.threads[0] | {"id": thread_id})
            return self._json(route, 200, {"threads": self.threads})
        match = re.fullmatch(r"/api/v1/chat/threads/([^/]+)/messages", url.path)
        if match and match.group(1) in self.messages:
            query = parse_qs(url.query)
            stored = self.messages[match.group(1)]
            limit = len(stored) if self.one_page else int(query.get("limit", ["50"])[0])
            end = int(query["before"][0]) if "before" in query else len(stored)
            start = max(0, end - limit)
            return self._json(
                route,
                200,
                {"messages": stored[start:end], "has_more": start > 0, "prev_cursor": str(start), "context_limit": 10},
            )
        match = re.fullmatch(r"/api/v1/chat/threads/([^/]+)/messages/([^/]+)/sent", url.path)
        if match and match.group(2) in self.sent:
            return self._json(route, 200, self.sent[match.group(2)])
        if url.path == "/api/v1/chat/provider-key" and request.method == "PUT":
            self.provider_keys.append(json.loads(request.post_data or "{}"))
            return self._json(route, 200, {"has_key": True})
        return self._json(route, 404, {"error": {"code": "NOT_FOUND", "message": "Not found."}})

    def _suggestions(self, route, request):
        if self.suggestions is None:
            return self._json(route, 404, {"error": {"code": "NOT_FOUND", "message": "Not found."}})
        return self._json(route, 200, {"results": self.suggestions, "next": None, "previous": None})

    def _transactions(self, route, request):
        self.transaction_reads += 1
        if self.transactions is None:
            return self._json(route, 404, {"error": {"code": "NOT_FOUND", "message": "Not found."}})
        return self._json(route, 200, {"results": self.transactions, "next": None, "previous": None})


class ChatPage:
    def __init__(self, page, backend, base_url, user):
        self.page = page
        self.backend = backend
        self.base_url = base_url
        self.user = user

    def login(self):
        self.page.goto(f"{self.base_url}/accounts/login/?next=/chat")
        self.page.fill("#id_login", self.user.username)
        self.page.fill("#id_password", factories.PASSWORD)
        self.page.click("form button[type=submit]")
        self.wait_ready()
        return self

    def wait_ready(self):
        self.page.wait_for_selector("#chat-app[data-ready=true]")
        self.page.wait_for_function("() => window.__fake.current() !== null")

    def open(self, path="/chat"):
        self.page.goto(f"{self.base_url}{path}")
        self.wait_ready()

    def shot(self, name: str):
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)

    def queue(self, *scripts):
        for script in scripts:
            self.page.evaluate("s => window.__fake.replies.push(s)", script)

    def emit(self, *frames):
        self.page.evaluate("f => window.__fake.emit(f)", list(frames))

    def sent(self, frame_type=None) -> list:
        frames = self.page.evaluate("() => window.__fake.sent")
        return [f for f in frames if frame_type is None or f["type"] == frame_type]

    def wait_sent(self, frame_type, count=1):
        self.page.wait_for_function(
            "([t, n]) => window.__fake.sentOf(t).length >= n", arg=[frame_type, count], timeout=5000
        )
        return self.sent(frame_type)

    def say(self, text):
        self.page.fill("#input", text)
        self.page.press("#input", "Enter")

    def idle(self):
        self.page.wait_for_selector("#stop", state="hidden")


@pytest.fixture
def open_chat(browser, live_server, transactional_db):
    contexts = []

    def make(*, viewport=DESKTOP, user=None, backend=None, login=True, threads=1):
        user = user or factories.user(f"walker{len(contexts)}")
        backend = backend or FakeChatBackend()
        for _ in range(threads - len(backend.threads)):
            backend.add_thread()
        context = browser.new_context(viewport=viewport, locale="en-US", timezone_id="Asia/Ho_Chi_Minh")
        contexts.append((context, watch_csp(context)))
        page = context.new_page()
        page.set_default_timeout(8000)
        page.add_init_script(path=str(FAKE_WS))
        page.expose_function("__zeusPersist", backend.persist)
        backend.install(page)
        chat = ChatPage(page, backend, live_server.url, user)
        return chat.login() if login else chat

    yield make
    seen = [v for _, found in contexts for v in found]
    for context, _ in contexts:
        context.close()
    assert not seen, f"Content-Security-Policy violations: {seen}"


# The end-to-end tests: the offline model server as the app's model, a signed-in page on the running app.
SHOTS = ARTIFACTS / "e2e"


@pytest.fixture
def model(settings):
    with FakeAnthropic(port=free_port()) as server:
        settings.ANTHROPIC_BASE_URL = server.url
        settings.ANTHROPIC_API_KEY = SERVER_KEY
        server.router_model = settings.ZEUS_ROUTER_MODEL
        yield server
        assert server.rejected == [], "the app sent the model a request the real API refuses"


class Browser:
    def __init__(self, page, server, user):
        self.page = page
        self.server = server
        self.user = user

    def login(self) -> "Browser":
        self.page.goto(f"{self.server.url}/accounts/login/?next=/chat")
        self.page.fill("#id_login", self.user.username)
        self.page.fill("#id_password", factories.PASSWORD)
        self.page.click("form button[type=submit]")
        self.wait_ready()
        return self

    def wait_ready(self) -> None:
        self.page.wait_for_selector("#chat-app[data-ready=true]")
        self.page.wait_for_selector("#conn-status[data-state=open]", state="attached")

    def shot(self, name: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"{name}.png"))

    def say(self, words: str) -> None:
        self.page.fill("#input", words)
        self.page.press("#input", "Enter")

    def idle(self) -> None:
        self.page.wait_for_selector("#stop", state="hidden")

    @property
    def thread_id(self) -> str:
        return re.search(r"/chat/([0-9a-f-]{36})", self.page.url).group(1)

    def last_reply(self):
        return self.page.locator(".msg-assistant").last


@pytest.fixture
def open_app(browser, daphne_server, model):
    contexts = []

    def make(user, timezone_id="Asia/Ho_Chi_Minh") -> Browser:
        context = browser.new_context(viewport=DESKTOP, locale="en-US", timezone_id=timezone_id)
        contexts.append((context, watch_csp(context)))
        page = context.new_page()
        page.set_default_timeout(10000)
        return Browser(page, daphne_server, user).login()

    yield make
    seen = [v for _, found in contexts for v in found]
    for context, _ in contexts:
        context.close()
    assert not seen, f"Content-Security-Policy violations: {seen}"
