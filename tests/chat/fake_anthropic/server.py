"""The server a test holds: it starts on loopback, plays scripted replies in order (or a function of the
request, or the router's workflow name to the router model) and records every request."""

import threading
from collections import deque
from collections.abc import Callable
from http.server import ThreadingHTTPServer

from tests.chat.fake_anthropic.caching import LOOKBACK_BLOCKS, PromptCache
from tests.chat.fake_anthropic.handler import handler_for
from tests.chat.fake_anthropic.replies import Reply, Status, text
from tests.chat.fake_anthropic.thinking import ThinkingLedger
from tests.chat.fake_anthropic.validation import MAX_TOKENS_LIMIT


class FakeAnthropic:
    def __init__(self, port: int = 0):
        self.requests: list[dict] = []
        self.token_times: list[tuple[str, float]] = []  # (token text, perf_counter when written)
        self._queue: deque = deque()
        self._lock = threading.Lock()
        self.cache = PromptCache()
        self.thinking = ThinkingLedger()
        # How many block boundaries before a breakpoint a cache hit is looked for (the API's 20; 1 = only at
        # the breakpoint itself, how this server emulated caching before, kept for the bench's comparison).
        self.lookback_blocks = LOOKBACK_BLOCKS
        # Our own cap on max_tokens (the chat asks for at most 2048); a capture reading a statement asks for more.
        self.max_tokens_limit = MAX_TOKENS_LIMIT
        self.responder: Callable[[dict], Reply | Status] = lambda body: text("Done.")
        self.record_token_times = False
        # The bench turns this off: hashing every prefix costs CPU on the machine under measurement.
        self.emulate_cache = True
        # Requests for this model (the router) are answered with the workflow name `route` (or route(body)),
        # so scripts hold only the main model's replies whatever the router decides by pattern.
        self.router_model: str | None = None
        self.route: str | Callable[[dict], str] = "inspect"
        server = ThreadingHTTPServer(("127.0.0.1", port), handler_for(self))
        server.daemon_threads = True
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, name="fake-anthropic", daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def script(self, *items: Reply | Status) -> None:
        with self._lock:
            self._queue.extend(items)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def model_requests(self) -> list[dict]:
        """The requests that passed validation."""
        return [r for r in self.requests if r["status"] == 200]

    @property
    def rejected(self) -> list[dict]:
        return [r for r in self.requests if r["status"] == 400]

    @property
    def main_requests(self) -> list[dict]:
        """The accepted requests to the main model (not the router)."""
        return [r for r in self.model_requests if r["body"]["model"] != self.router_model]

    def record(self, request: dict) -> None:
        with self._lock:
            self.requests.append(request)

    def answer(self, body: dict) -> Reply | Status:
        """The next scripted reply, else the responder's; the router model gets its workflow name."""
        if self.router_model and body["model"] == self.router_model:
            return text(self.route(body) if callable(self.route) else self.route)
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        return self.responder(body)

    def usage(self, body: dict) -> dict:
        if not self.emulate_cache:
            return {"input_tokens": 1000, "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}
        return self.cache.usage(body, lookback_blocks=self.lookback_blocks)
