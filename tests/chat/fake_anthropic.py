"""An offline Anthropic Messages API on loopback, for tests and the bench.

A real HTTP server in a thread (random port) that the real SDK reaches through ANTHROPIC_BASE_URL. It
answers POST /v1/messages as JSON or as SSE (`event:` + `data:` lines, thinking blocks with their
signature_delta, text, and tool_use blocks with input_json_delta in several chunks, usage with cache fields,
ping), plays scripted replies in order (or a function of the request), answers 429/529 with retry-after,
sends an `event: error` mid-stream on a 200, streams with a delay per token, and REJECTS with a 400
invalid_request_error what the real API rejects: a tool_result without its tool_use in the previous
assistant turn, a tool_use left unanswered, empty text, a first message not from the user, roles that do
not alternate, bad tool names, malformed image and document blocks and structured output formats
(fake_media.py), and (our own limit) max_tokens above 2048. Every request is recorded.

Models behave as their generation does (MODELS). Claude Sonnet 5.5 and Haiku 5.5 think by default:
`thinking` blocks (display omitted: empty text, an opaque signature) come before text and tool calls; with
`thinking: {"type": "between_tools"}` (Sonnet 5.5) there is no up-front thinking, only a progress-update
block after tool results. They refuse, each with the real error's wording: sampling parameters, forced
tool choice, assistant prefill, thinking budgets, `thinking: {"type": "disabled"}`, an effort level they do
not know, `between_tools` at xhigh/max; and a follow-up whose tool results come without the thinking
blocks of the assistant turn that called the tools, changed, or made by another model. Models of the 4.x
generation that are still served keep their old behaviour (no thinking unless asked, sampling and forced
tool choice accepted); retired ones answer 404 as the real API does.

Prompt caching is emulated as the real API does it: the prefix is tools → system → messages; a cache
entry is written at each cache_control breakpoint whose prefix reaches the model's minimum cacheable length
(512 tokens on the 5.5 models, 1,024 to 4,096 on others; under it nothing is cached and nothing is
reported); a breakpoint reads the longest prefix already cached at any block boundary up to 20 blocks
before it (the lookback). Usage reports what was read, what was written past it up to the last breakpoint,
and the rest as input. Tokens are estimated as characters / 4.
"""

import base64
import dataclasses
import hashlib
import hmac
import itertools
import json
import re
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.chat.fake_media import MediaInvalid, check_media_block, check_output_format

TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
MAX_TOKENS_LIMIT = 2048
MAX_REQUEST_BYTES = 32 * 1024 * 1024
LOOKBACK_BLOCKS = 20
_SIGNING_KEY = b"fake-anthropic: thinking blocks are tied to the model and the conversation"
_ids = itertools.count(1)
_EFFORTS = ("low", "medium", "high", "xhigh", "max")


@dataclass(frozen=True)
class ModelProfile:
    min_cacheable: int  # tokens: a breakpoint whose prefix is shorter caches nothing
    thinks_by_default: bool = False  # adaptive thinking when the request says nothing
    strict: bool = False  # refuses sampling, forced tool choice, prefill, budgets and disabled thinking
    between_tools: bool = False  # accepts thinking {"type": "between_tools"}
    efforts: tuple[str, ...] = ()


MODELS = {
    "claude-sonnet-5-5": ModelProfile(512, True, True, True, _EFFORTS),
    "claude-haiku-5-5": ModelProfile(512, True, True, False, _EFFORTS),
    "claude-opus-5-5": ModelProfile(512, True, True, True, _EFFORTS),
    "claude-sonnet-4-6": ModelProfile(2048, efforts=("low", "medium", "high", "max")),
    "claude-haiku-4-5": ModelProfile(4096),
    "claude-opus-4-5": ModelProfile(4096, efforts=("low", "medium", "high")),
}
# Unknown names (tests use "m") behave as a 4.x model with Sonnet 4.5's minimum.
LEGACY = ModelProfile(1024)
RETIRED = frozenset({"claude-sonnet-4-5", "claude-sonnet-4-5-20250929", "claude-sonnet-4-0", "claude-opus-4-0"})

MISSING_THINKING = (
    "{where}.type: Expected `thinking` or `redacted_thinking`, but found `{found}`. When `thinking` is enabled, "
    "a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` "
    "and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this "
    "requirement, disable `thinking`. Please consult our documentation at "
    "https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
)


def profile(model: str) -> ModelProfile:
    return MODELS.get(model, LEGACY)


@dataclass
class Reply:
    """A model response. `blocks` holds ("text", str) and ("tool_use", name, input, id) tuples; the server
    puts the thinking block in front when the model thinks. `thinking` is that block's text as the API would
    show it (display omitted: empty); `think` forces a thinking block on (True) or off (False)."""

    blocks: list[tuple] = field(default_factory=list)
    stop_reason: str | None = None
    thinking: str | None = None
    think: bool | None = None
    thinking_delay: float = 0.0  # seconds spent "thinking" before the block's signature
    token_delay: float = 0.0
    error_after_tokens: int | None = None  # an `event: error` after this many text tokens (HTTP 200)
    error_type: str = "overloaded_error"
    output_tokens: int | None = None
    delay: float = 0.0  # seconds before the response starts (a slow model, for timeouts)


@dataclass
class Status:
    """An HTTP error answer, e.g. 429 rate_limit_error or 529 overloaded_error."""

    status: int
    error_type: str = "rate_limit_error"
    retry_after: float = 0.01


def text(value: str, **options) -> Reply:
    return Reply(blocks=[("text", value)], **options)


def tool_use(name: str, tool_input: dict, call_id: str | None = None) -> tuple:
    return ("tool_use", name, tool_input, call_id or f"toolu_{next(_ids):06d}")


def tools(*calls: tuple, say: str | None = None, **options) -> Reply:
    """A response calling tools; each call is tool_use(...) or (name, input)."""
    blocks = [("text", say)] if say else []
    for call in calls:
        blocks.append(call if call[0] == "tool_use" else tool_use(*call))
    return Reply(blocks=blocks, **options)


def rate_limited(retry_after: float = 0.01) -> Status:
    return Status(429, "rate_limit_error", retry_after)


def overloaded(retry_after: float = 0.01) -> Status:
    return Status(529, "overloaded_error", retry_after)


class InvalidRequest(Exception):
    pass


def _check_text(block: dict, where: str) -> None:
    if not isinstance(block.get("text"), str) or not block["text"].strip():
        raise InvalidRequest(f"{where}: text content blocks must contain non-whitespace text")


def conversation_hash(messages: list[dict]) -> str:
    return hashlib.sha256(json.dumps(_strip_cache(messages), sort_keys=True).encode()).hexdigest()


def sign_thinking(model: str, thinking: str, messages_before: list[dict]) -> str:
    """A signature ties a thinking block to the model that wrote it and to the conversation it answered."""
    payload = json.dumps([model, thinking, conversation_hash(messages_before)]).encode()
    return base64.b64encode(hmac.new(_SIGNING_KEY, payload, hashlib.sha256).digest()).decode()


def _check_generation(body: dict) -> None:
    """What each model generation refuses (MODELS)."""
    model = profile(body["model"])
    thinking = body.get("thinking")
    output_config = body.get("output_config") or {}
    effort = output_config.get("effort") if isinstance(output_config, dict) else None
    if effort is not None:
        if not model.efforts:
            raise InvalidRequest("output_config.effort: effort is not supported for this model.")
        if effort not in model.efforts:
            allowed = ", ".join(f"'{e}'" for e in model.efforts)
            raise InvalidRequest(f"output_config.effort: Input should be {allowed}")
    kind = thinking.get("type") if isinstance(thinking, dict) else None
    if thinking is not None and kind not in ("adaptive", "between_tools", "enabled", "disabled"):
        raise InvalidRequest(
            f"thinking.type: Input tag {kind!r} found using 'type' does not match any of the expected tags: "
            "'adaptive', 'between_tools', 'disabled', 'enabled'"
        )
    if not model.strict:
        if kind == "between_tools":
            raise InvalidRequest("thinking.type: 'between_tools' is not supported for this model.")
        if kind == "enabled" and not (1024 <= int(thinking.get("budget_tokens") or 0) < body["max_tokens"]):
            raise InvalidRequest("thinking.budget_tokens: must be at least 1024 and less than max_tokens")
        return
    for name in ("temperature", "top_p", "top_k"):
        if name in body:
            raise InvalidRequest(f"`{name}` is deprecated for this model.")
    choice = body.get("tool_choice")
    if isinstance(choice, dict) and choice.get("type") in ("any", "tool"):
        raise InvalidRequest(
            "tool_choice: forced tool use is not supported for this model; use `auto` or `none` "
            "and say in the prompt which tool to use."
        )
    if kind == "enabled" or (isinstance(thinking, dict) and "budget_tokens" in thinking):
        raise InvalidRequest(
            "thinking.type.enabled: thinking budgets are not supported for this model. Use "
            "`thinking.type: adaptive` and `output_config.effort` to control how much the model thinks."
        )
    if kind == "disabled":
        raise InvalidRequest(
            "thinking.type.disabled: thinking cannot be disabled for this model. To turn off up-front "
            'thinking, send `thinking: {"type": "between_tools"}`.'
        )
    if kind == "between_tools":
        if not model.between_tools:
            raise InvalidRequest("thinking.type: 'between_tools' is not supported for this model.")
        if effort in ("xhigh", "max"):
            raise InvalidRequest(
                f"thinking.type.between_tools: not available at effort `{effort}`; use `low`, `medium` or "
                "`high`, or adaptive thinking."
            )
    messages = body.get("messages")
    if isinstance(messages, list) and len(messages) > 1 and messages[-1].get("role") == "assistant":
        raise InvalidRequest(
            "This model does not support assistant message prefill. The conversation must end with a user message."
        )


def validate(body: dict, *, max_tokens_limit: int = MAX_TOKENS_LIMIT) -> None:
    """Raises InvalidRequest for what the real Messages API (and our own limits) refuses."""
    if not isinstance(body.get("model"), str) or not body["model"]:
        raise InvalidRequest("model: Field required")
    max_tokens = body.get("max_tokens")
    if not isinstance(max_tokens, int) or not 1 <= max_tokens <= max_tokens_limit:
        raise InvalidRequest(f"max_tokens: must be an integer from 1 to {max_tokens_limit}")
    breakpoints = 0
    system = body.get("system")
    if isinstance(system, list):
        for i, block in enumerate(system):
            _check_text(block, f"system.{i}")
            breakpoints += "cache_control" in block
    elif system is not None and not isinstance(system, str):
        raise InvalidRequest("system: must be a string or a list of text blocks")
    names = set()
    for i, tool in enumerate(body.get("tools") or []):
        name = tool.get("name")
        if not isinstance(name, str) or not TOOL_NAME.match(name):
            raise InvalidRequest(f"tools.{i}.name: String should match pattern '^[a-zA-Z0-9_-]{{1,64}}$'")
        if name in names:
            raise InvalidRequest("tools: Tool names must be unique.")
        names.add(name)
        schema = tool.get("input_schema")
        if not isinstance(schema, dict) or schema.get("type") != "object":
            raise InvalidRequest(f"tools.{i}.input_schema.type: Input should be 'object'")
        breakpoints += "cache_control" in tool
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise InvalidRequest("messages: at least one message is required")
    if messages[0].get("role") != "user":
        raise InvalidRequest('messages: first message must use the "user" role')
    pending: set[str] = set()
    for i, message in enumerate(messages):
        role = message.get("role")
        if role not in ("user", "assistant"):
            raise InvalidRequest(f"messages.{i}.role: Input should be 'user' or 'assistant'")
        if i and messages[i - 1].get("role") == role:
            raise InvalidRequest('messages: roles must alternate between "user" and "assistant"')
        content = message.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        if not isinstance(content, list) or not content:
            raise InvalidRequest(f"messages.{i}: all messages must have non-empty content")
        answered: set[str] = set()
        seen_other = False
        uses: set[str] = set()
        for j, block in enumerate(content):
            kind = block.get("type")
            where = f"messages.{i}.content.{j}"
            breakpoints += "cache_control" in block
            if kind == "text":
                _check_text(block, where)
                seen_other = True
            elif kind == "tool_use":
                if role != "assistant":
                    raise InvalidRequest(f"{where}: tool_use blocks are only allowed in assistant messages")
                if not isinstance(block.get("input"), dict) or not TOOL_NAME.match(str(block.get("name"))):
                    raise InvalidRequest(f"{where}: tool_use needs a valid name and an input object")
                uses.add(block.get("id"))
            elif kind in ("thinking", "redacted_thinking"):
                if role != "assistant":
                    raise InvalidRequest(f"{where}: {kind} blocks are only allowed in assistant messages")
                if kind == "thinking" and not (
                    isinstance(block.get("thinking"), str) and isinstance(block.get("signature"), str)
                ):
                    raise InvalidRequest(f"{where}: thinking blocks need `thinking` and `signature` strings")
                if kind == "redacted_thinking" and not isinstance(block.get("data"), str):
                    raise InvalidRequest(f"{where}.data: Field required")
            elif kind in ("image", "document"):
                try:
                    check_media_block(block, where, role)
                except MediaInvalid as exc:
                    raise InvalidRequest(str(exc)) from None
                seen_other = True
            elif kind == "tool_result":
                if role != "user":
                    raise InvalidRequest(f"{where}: tool_result blocks are only allowed in user messages")
                if seen_other:
                    raise InvalidRequest(f"{where}: tool_result blocks must come first in the user message")
                if block.get("tool_use_id") not in pending:
                    raise InvalidRequest(
                        f"{where}: unexpected `tool_use_id` found in `tool_result` blocks: {block.get('tool_use_id')}. "
                        "Each `tool_result` block must have a corresponding `tool_use` block in the previous message."
                    )
                answered.add(block["tool_use_id"])
            else:
                raise InvalidRequest(f"{where}.type: unsupported block type {kind!r}")
        if pending - answered:
            raise InvalidRequest(
                f"messages.{i}: `tool_use` ids were found without `tool_result` blocks immediately after: "
                + ", ".join(sorted(pending - answered))
            )
        pending = uses
    if pending:
        raise InvalidRequest(
            "messages: `tool_use` ids were found without `tool_result` blocks immediately after: "
            + ", ".join(sorted(pending))
        )
    if breakpoints > 4:
        raise InvalidRequest("A maximum of 4 blocks with cache_control may be provided.")
    try:
        check_output_format(body.get("output_config"))
    except MediaInvalid as exc:
        raise InvalidRequest(str(exc)) from None
    _check_generation(body)
    _check_signatures(body)


def _check_signatures(body: dict) -> None:
    """Every thinking block sent back must be unchanged, from this model, in this conversation."""
    messages = body["messages"]
    for i, message in enumerate(messages):
        content = message.get("content")
        if message.get("role") != "assistant" or not isinstance(content, list):
            continue
        for j, block in enumerate(content):
            if block.get("type") == "thinking":
                expected = sign_thinking(body["model"], block.get("thinking") or "", messages[:i])
                if not hmac.compare_digest(str(block.get("signature") or ""), expected):
                    raise InvalidRequest(f"messages.{i}.content.{j}: Invalid `signature` in `thinking` block")


def _strip_cache(value):
    if isinstance(value, dict):
        return {k: _strip_cache(v) for k, v in value.items() if k != "cache_control"}
    if isinstance(value, list):
        return [_strip_cache(v) for v in value]
    return value


def _prefix_elements(body: dict):
    """(serialized element, has breakpoint) in cache order: tools, system, then message blocks."""
    for tool in body.get("tools") or []:
        yield json.dumps(_strip_cache(tool), sort_keys=True), "cache_control" in tool
    system = body.get("system")
    for block in [{"type": "text", "text": system}] if isinstance(system, str) else system or []:
        yield json.dumps(_strip_cache(block), sort_keys=True), "cache_control" in block
    for message in body["messages"]:
        content = message["content"]
        for block in [{"type": "text", "text": content}] if isinstance(content, str) else content:
            yield message["role"] + json.dumps(_strip_cache(block), sort_keys=True), "cache_control" in block


def _tokens(n_chars: int) -> int:
    return max(1, n_chars // 4)


def _chunks(value: str, size: int) -> list[str]:
    return [value[i : i + size] for i in range(0, len(value), size)] or [""]


class FakeAnthropic:
    def __init__(self, port: int = 0):
        self.requests: list[dict] = []
        self.token_times: list[tuple[str, float]] = []  # (token text, perf_counter when written)
        self._queue: deque = deque()
        self._lock = threading.Lock()
        self._cache: set[tuple[str, str]] = set()
        self._issued: dict[str, tuple] = {}  # tool_use id → the thinking block of the response that made it
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
        server = ThreadingHTTPServer(("127.0.0.1", port), _handler(self))
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

    def _next(self, body: dict) -> Reply | Status:
        if self.router_model and body["model"] == self.router_model:
            return text(self.route(body) if callable(self.route) else self.route)
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        return self.responder(body)

    def _usage(self, body: dict) -> dict:
        if not self.emulate_cache:
            return {"input_tokens": 1000, "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}
        model = body["model"]
        minimum = profile(model).min_cacheable
        hashes, totals, breakpoints = [], [], []
        prefix = hashlib.sha256()
        total = 0
        for element, breakpoint in _prefix_elements(body):
            prefix.update(element.encode())
            total += len(element)
            hashes.append(prefix.hexdigest())
            totals.append(total)
            if breakpoint:
                breakpoints.append(len(hashes) - 1)
        with self._lock:
            read = written = 0
            for at in breakpoints:
                if _tokens(totals[at]) < minimum:
                    continue
                # The lookback: the longest prefix cached at this block boundary or up to 20 before it.
                for back in range(at, max(-1, at - self.lookback_blocks), -1):
                    if (model, hashes[back]) in self._cache:
                        read = max(read, totals[back])
                        break
            for at in breakpoints:
                if _tokens(totals[at]) >= minimum:
                    self._cache.add((model, hashes[at]))
                    written = max(written, totals[at])
        write = max(0, written - read)
        return {
            "input_tokens": _tokens(max(1, total - read - write)),
            "cache_read_input_tokens": _tokens(read) if read else 0,
            "cache_creation_input_tokens": _tokens(write) if write else 0,
        }

    def _thinking_mode(self, body: dict) -> str | None:
        thinking = body.get("thinking")
        if isinstance(thinking, dict):
            return None if thinking.get("type") == "disabled" else thinking.get("type")
        return "adaptive" if profile(body["model"]).thinks_by_default else None

    def _blocks(self, body: dict, answer: Reply) -> list[tuple]:
        """The response's blocks, a thinking block first when the model thinks: always with adaptive or
        budgeted thinking, only after tool results with between_tools (its progress update)."""
        mode = self._thinking_mode(body)
        last = body["messages"][-1]
        after_tools = isinstance(last.get("content"), list) and any(
            b.get("type") == "tool_result" for b in last["content"]
        )
        think = {"adaptive": True, "enabled": True, "between_tools": after_tools}.get(mode, False)
        if answer.think is not None:
            think = answer.think and mode is not None
        blocks = [b for b in answer.blocks if b[0] != "thinking"]
        if not think:
            return blocks
        display = (body.get("thinking") or {}).get("display")
        if answer.thinking is not None:
            words = answer.thinking
        elif mode == "between_tools":
            words = "Progress: read the tool results."  # between_tools progress updates carry their text
        elif mode == "enabled" or display == "summarized":
            words = "Thinking about the request."
        else:
            words = ""  # display omitted, the 5.5 default
        signature = sign_thinking(body["model"], words, body["messages"])
        thinking = ("thinking", words, signature)
        with self._lock:
            for block in blocks:
                if block[0] == "tool_use":
                    self._issued[block[3]] = thinking
        return [thinking, *blocks]

    def _check_replay(self, body: dict) -> None:
        """A follow-up carrying tool results must send back, unchanged and first, the thinking block of the
        assistant turn that called those tools."""
        messages = body["messages"]
        if len(messages) < 2 or messages[-2].get("role") != "assistant":
            return
        last = messages[-1].get("content")
        if not isinstance(last, list) or not any(b.get("type") == "tool_result" for b in last):
            return
        content = messages[-2].get("content")
        content = content if isinstance(content, list) else [{"type": "text", "text": content}]
        with self._lock:
            issued = [self._issued.get(b.get("id")) for b in content if b.get("type") == "tool_use"]
        thinking = next((t for t in issued if t is not None), None)
        if thinking is None:
            return
        where = f"messages.{len(messages) - 2}.content.0"
        first = content[0] if content else {}
        if first.get("type") not in ("thinking", "redacted_thinking"):
            raise InvalidRequest(MISSING_THINKING.format(where=where, found=first.get("type")))
        if first.get("signature") != thinking[2] or first.get("thinking") != thinking[1]:
            raise InvalidRequest(f"{where}: Invalid `signature` in `thinking` block")


def _handler(fake: FakeAnthropic):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def setup(self):
            super().setup()
            # Each SSE event is its own small write: without NODELAY, Nagle's algorithm and the client's
            # delayed ACK hold events back by up to 40 ms, which no real API does.
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def _json(self, status: int, payload: dict, headers: dict | None = None) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.send_header("request-id", f"req_{next(_ids)}")
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            length = int(self.headers.get("content-length") or 0)
            if length > MAX_REQUEST_BYTES:  # the API's request size limit: the body drained, never kept
                while length > 0:
                    length -= len(self.rfile.read(min(length, 1 << 20)) or b"\0" * length)
                self._json(
                    413,
                    {
                        "type": "error",
                        "error": {
                            "type": "request_too_large",
                            "message": "Request exceeds the maximum allowed number of bytes.",
                        },
                    },
                )
                return
            raw = self.rfile.read(length)
            record = {"path": self.path, "headers": dict(self.headers), "at": time.perf_counter(), "aborted": False}
            with fake._lock:
                fake.requests.append(record)
            try:
                body = json.loads(raw)
            except ValueError:
                body = None
            record["body"] = body
            if self.path.split("?")[0] != "/v1/messages" or not isinstance(body, dict):
                record["status"] = 404
                self._json(404, {"type": "error", "error": {"type": "not_found_error", "message": "Not found"}})
                return
            bearer = self.headers.get("authorization") or ""
            record["api_key"] = self.headers.get("x-api-key") or (bearer[7:] if bearer.startswith("Bearer ") else None)
            if not record["api_key"]:
                record["status"] = 401
                self._json(401, {"type": "error", "error": {"type": "authentication_error", "message": "no key"}})
                return
            if body.get("model") in RETIRED:
                record["status"] = 404
                self._json(
                    404, {"type": "error", "error": {"type": "not_found_error", "message": f"model: {body['model']}"}}
                )
                return
            try:
                validate(body, max_tokens_limit=fake.max_tokens_limit)
                fake._check_replay(body)
            except InvalidRequest as exc:
                record["status"] = 400
                record["error"] = str(exc)
                self._json(400, {"type": "error", "error": {"type": "invalid_request_error", "message": str(exc)}})
                return
            answer = fake._next(body)
            if isinstance(answer, Status):
                record["status"] = answer.status
                self._json(
                    answer.status,
                    {"type": "error", "error": {"type": answer.error_type, "message": answer.error_type}},
                    {
                        "retry-after": str(max(0, round(answer.retry_after))),
                        "retry-after-ms": str(answer.retry_after * 1000),
                    },
                )
                return
            record["status"] = 200
            if answer.delay:
                time.sleep(answer.delay)
            usage = fake._usage(body)
            answer = dataclasses.replace(answer, blocks=fake._blocks(body, answer))
            if body.get("stream"):
                try:
                    self._stream(body, answer, usage)
                except (BrokenPipeError, ConnectionResetError):
                    record["aborted"] = True
                    self.close_connection = True
            else:
                self._json(200, self._message(body, answer, usage, complete=True))

        def _message(self, body: dict, answer: Reply, usage: dict, *, complete: bool) -> dict:
            content = []
            for block in answer.blocks if complete else []:
                if block[0] == "text":
                    content.append({"type": "text", "text": block[1]})
                elif block[0] == "thinking":
                    content.append({"type": "thinking", "thinking": block[1], "signature": block[2]})
                else:
                    content.append({"type": "tool_use", "id": block[3], "name": block[1], "input": block[2]})
            stop = answer.stop_reason or ("tool_use" if any(b[0] == "tool_use" for b in answer.blocks) else "end_turn")
            output = answer.output_tokens or sum(_tokens(len(json.dumps(b))) for b in answer.blocks)
            return {
                "id": f"msg_{next(_ids):06d}",
                "type": "message",
                "role": "assistant",
                "model": body["model"],
                "content": content,
                "stop_reason": stop if complete else None,
                "stop_sequence": None,
                "usage": {**usage, "output_tokens": output if complete else 1},
            }

        def _send_event(self, name: str, payload: dict) -> None:
            data = f"event: {name}\ndata: {json.dumps(payload)}\n\n".encode()
            self._out.append(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            if self._eager:
                self._flush()

        def _flush(self) -> None:
            if self._out:
                self.wfile.write(b"".join(self._out))
                self._out = []

        def _stream(self, body: dict, answer: Reply, usage: dict) -> None:
            # A reply paced by token_delay goes out event by event; one answered at once goes out in one
            # write, as a fast model's burst would, instead of a packet per event.
            self._out: list[bytes] = []
            self._eager = bool(answer.token_delay)
            try:
                self._stream_events(body, answer, usage)
            finally:
                self._flush()

        def _stream_events(self, body: dict, answer: Reply, usage: dict) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            self.send_header("transfer-encoding", "chunked")
            self.send_header("request-id", f"req_{next(_ids)}")
            self.end_headers()
            message = self._message(body, answer, usage, complete=False)
            self._send_event("message_start", {"type": "message_start", "message": message})
            self._send_event("ping", {"type": "ping"})
            sent_tokens = 0
            for index, block in enumerate(answer.blocks):
                if block[0] == "thinking":
                    self._thinking_block(index, block, answer)
                    continue
                if block[0] == "text":
                    start = {"type": "text", "text": ""}
                    pieces = re.findall(r"\S+\s*|\s+", block[1]) or [block[1]]
                    delta_of = lambda piece: {"type": "text_delta", "text": piece}  # noqa: E731
                else:
                    start = {"type": "tool_use", "id": block[3], "name": block[1], "input": {}}
                    encoded = json.dumps(block[2])
                    pieces = _chunks(encoded, max(1, len(encoded) // 3 + 1))
                    delta_of = lambda piece: {"type": "input_json_delta", "partial_json": piece}  # noqa: E731
                self._send_event(
                    "content_block_start", {"type": "content_block_start", "index": index, "content_block": start}
                )
                for piece in pieces:
                    if (
                        block[0] == "text"
                        and answer.error_after_tokens is not None
                        and sent_tokens >= answer.error_after_tokens
                    ):
                        self._send_event(
                            "error", {"type": "error", "error": {"type": answer.error_type, "message": "Overloaded"}}
                        )
                        self._out.append(b"0\r\n\r\n")
                        return
                    if answer.token_delay:
                        time.sleep(answer.token_delay)
                    self._send_event(
                        "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta_of(piece)}
                    )
                    if block[0] == "text":
                        sent_tokens += 1
                        if fake.record_token_times:
                            fake.token_times.append((piece, time.perf_counter()))
                self._send_event("content_block_stop", {"type": "content_block_stop", "index": index})
            if answer.error_after_tokens is not None and sent_tokens <= answer.error_after_tokens:
                self._send_event(
                    "error", {"type": "error", "error": {"type": answer.error_type, "message": "Overloaded"}}
                )
                self._out.append(b"0\r\n\r\n")
                return
            final = self._message(body, answer, usage, complete=True)
            self._send_event(
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": final["stop_reason"], "stop_sequence": None},
                    "usage": {"output_tokens": final["usage"]["output_tokens"]},
                },
            )
            self._send_event("message_stop", {"type": "message_stop"})
            self._out.append(b"0\r\n\r\n")

        def _thinking_block(self, index: int, block: tuple, answer: Reply) -> None:
            start = {"type": "thinking", "thinking": "", "signature": ""}
            self._send_event(
                "content_block_start", {"type": "content_block_start", "index": index, "content_block": start}
            )
            for piece in re.findall(r"\S+\s*|\s+", block[1]):
                self._send_event(
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": index,
                        "delta": {"type": "thinking_delta", "thinking": piece},
                    },
                )
            if answer.thinking_delay:
                self._flush()
                time.sleep(answer.thinking_delay)
            self._send_event(
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "signature_delta", "signature": block[2]},
                },
            )
            self._send_event("content_block_stop", {"type": "content_block_stop", "index": index})

    return Handler
