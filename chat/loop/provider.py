"""The anthropic SDK clients, what each model call sends beyond the messages, and how failures map to
error frames.

Building an HTTP client costs about 100 ms (TLS context), so each event loop keeps one, shared by the
SDK clients of every key; an httpx2 client must not cross event loops, hence the per-loop cache.

What Zeus sends (docs/chat.md, "What Zeus sends"): never sampling parameters, a forced tool choice or an
assistant prefill (the 5.5 models refuse all three, and nothing here needs them). On a model of the 5.5
generation the main loop sends `thinking: {"type": "between_tools"}` (no up-front thinking, so the first
tokens are not delayed; the model still notes its progress between tool calls in thinking blocks, which go
back unchanged) and `output_config.effort` from ZEUS_EFFORT for the turn's workflow. The router call sends
no `thinking` (Haiku 5.5 thinks adaptively by default, and its thinking counts against max_tokens, hence
ROUTER_MAX_TOKENS) and the lowest effort. Models of the 4.x generation get neither field: they do not
think unless asked, and some refuse `effort`.
"""

import asyncio
import functools
import weakref
from collections import OrderedDict
from dataclasses import dataclass

import anthropic
import httpx2

from chat.selectors import Provider

EFFORT_LEVELS = ("low", "medium", "high")
DEFAULT_EFFORT = "low"
ROUTER_EFFORT = "low"
# One word comes back; the rest is headroom for the router model's adaptive thinking.
ROUTER_MAX_TOKENS = 512


@dataclass(frozen=True)
class ModelWire:
    between_tools: bool = False  # accepts thinking {"type": "between_tools"}
    effort: bool = False  # accepts output_config.effort


# By model family, longest prefix first; an unknown model gets nothing beyond the messages.
MODEL_WIRE = {
    "claude-sonnet-5-5": ModelWire(between_tools=True, effort=True),
    "claude-opus-5-5": ModelWire(between_tools=True, effort=True),
    "claude-haiku-5-5": ModelWire(effort=True),
}


def model_wire(model: str) -> ModelWire:
    for prefix in sorted(MODEL_WIRE, key=len, reverse=True):
        if model == prefix or model.startswith(prefix + "-"):
            return MODEL_WIRE[prefix]
    return ModelWire()


class EffortInvalid(ValueError):
    pass


def parse_effort(raw: str) -> dict[str, str]:
    """ZEUS_EFFORT: one level for every workflow ("low"), or workflow=level pairs with an optional
    `default` ("default=low,coach=medium"). Levels: low, medium, high (between_tools allows no more)."""
    raw = (raw or "").strip()
    if not raw:
        return {"default": DEFAULT_EFFORT}
    if "=" not in raw:
        pairs = {"default": raw}
    else:
        pairs = {}
        for item in filter(None, (p.strip() for p in raw.split(","))):
            name, sep, level = item.partition("=")
            if not sep or not name.strip():
                raise EffortInvalid(f"ZEUS_EFFORT: {item!r} is not workflow=level.")
            pairs[name.strip()] = level.strip()
    for name, level in pairs.items():
        if level not in EFFORT_LEVELS:
            raise EffortInvalid(f"ZEUS_EFFORT: {name}={level!r}; use one of {', '.join(EFFORT_LEVELS)}.")
    pairs.setdefault("default", DEFAULT_EFFORT)
    return pairs


@functools.lru_cache(maxsize=8)
def _effort_table(raw: str) -> dict[str, str]:
    try:
        return parse_effort(raw)
    except EffortInvalid:
        return {"default": DEFAULT_EFFORT}  # the system check (chat.E002) reports it


def effort_for(workflow: str, raw: str) -> str:
    table = _effort_table(raw)
    return table.get(workflow, table["default"])


def main_request_options(model: str, workflow: str, effort_setting: str) -> dict:
    """The fields of a main-loop call beyond model, max_tokens, system, tools and messages."""
    wire = model_wire(model)
    options: dict = {}
    if wire.between_tools:
        options["thinking"] = {"type": "between_tools"}
    if wire.effort:
        options["output_config"] = {"effort": effort_for(workflow, effort_setting)}
    return options


def router_request_options(model: str) -> dict:
    wire = model_wire(model)
    return {"output_config": {"effort": ROUTER_EFFORT}} if wire.effort else {}


# The SDK retries 408/409/429/5xx/529 and connection errors before a stream starts, honouring retry-after.
SDK_MAX_RETRIES = 2
TIMEOUT = httpx2.Timeout(60.0, connect=5.0)
_CLIENTS_PER_LOOP = 64

_loops: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, tuple[httpx2.AsyncClient, OrderedDict]]" = (
    weakref.WeakKeyDictionary()
)


def client_for(provider: Provider) -> anthropic.AsyncAnthropic:
    loop = asyncio.get_running_loop()
    if loop not in _loops:
        _loops[loop] = (anthropic.DefaultAsyncHttpxClient(timeout=TIMEOUT), OrderedDict())
    http, clients = _loops[loop]
    key = (provider.api_key, provider.base_url)
    client = clients.get(key)
    if client is None:
        client = anthropic.AsyncAnthropic(
            api_key=provider.api_key,
            base_url=provider.base_url,
            http_client=http,
            max_retries=SDK_MAX_RETRIES,
            timeout=TIMEOUT,
        )
        clients[key] = client
        if len(clients) > _CLIENTS_PER_LOOP:
            clients.popitem(last=False)
    else:
        clients.move_to_end(key)
    return client


class ProviderFailure(Exception):
    def __init__(self, code: str, message: str, *, retryable: bool):
        super().__init__(message)
        self.code = code
        self.message = message
        self.retryable = retryable


def _error_type(exc: anthropic.APIStatusError) -> str | None:
    body = exc.body if isinstance(exc.body, dict) else {}
    error = body.get("error") if isinstance(body.get("error"), dict) else {}
    return error.get("type") or getattr(exc, "type", None)


def classify(exc: Exception) -> ProviderFailure:
    """An SDK error → the error frame it becomes. Mid-stream `error` events arrive as an APIStatusError on a
    200 response, so the body's error type decides, not the status."""
    if isinstance(exc, anthropic.APIConnectionError):
        return ProviderFailure("PROVIDER_UNAVAILABLE", "The AI provider could not be reached.", retryable=True)
    if isinstance(exc, anthropic.APIStatusError):
        kind = _error_type(exc)
        if exc.status_code == 429 or kind == "rate_limit_error":
            return ProviderFailure(
                "RATE_LIMITED", "The AI provider is rate limiting requests; try again shortly.", retryable=True
            )
        if exc.status_code in (401, 403) or kind in ("authentication_error", "permission_error"):
            return ProviderFailure(
                "AI_PROVIDER_REQUIRED",
                "The AI provider refused the API key; check it in chat settings.",
                retryable=False,
            )
        if exc.status_code >= 500 or kind in ("overloaded_error", "api_error"):
            return ProviderFailure("PROVIDER_UNAVAILABLE", "The AI provider is unavailable; try again.", retryable=True)
        return ProviderFailure("PROVIDER_UNAVAILABLE", "The AI provider refused the request.", retryable=False)
    return ProviderFailure("PROVIDER_UNAVAILABLE", "The AI provider failed.", retryable=False)
