"""The anthropic SDK clients, and how their failures map to error frames.

Building an HTTP client is costly (it loads a TLS context), so each event loop keeps one, shared by the SDK
clients of every key; an httpx2 client must not cross event loops, hence the per-loop cache.

The SDK is imported by the functions that use it, not by this module: every process imports the chat app at
start (the URL conf, the admin, the ASGI application), and most of them never call the model. A process's first
turn loads it in a worker thread (`load_sdk`), so the event loop keeps serving the other sockets meanwhile.
"""

import asyncio
import functools
import importlib
import sys
import weakref
from collections import OrderedDict
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from chat.selectors import Provider

if TYPE_CHECKING:
    import anthropic

# The SDK retries 408/409/429/5xx/529 and connection errors before a stream starts, honouring retry-after.
SDK_MAX_RETRIES = 2
TIMEOUT_SECONDS = 60.0
CONNECT_TIMEOUT_SECONDS = 5.0
_CLIENTS_PER_LOOP = 64

_loops: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, tuple[object, OrderedDict]]" = weakref.WeakKeyDictionary()


async def load_sdk() -> None:
    """Imports the SDK once per process, off the event loop (concurrent first turns wait on the same import)."""
    if "anthropic" not in sys.modules:
        await asyncio.to_thread(importlib.import_module, "anthropic")


@functools.cache
def _timeout():
    import httpx2

    return httpx2.Timeout(TIMEOUT_SECONDS, connect=CONNECT_TIMEOUT_SECONDS)


def client_for(provider: Provider) -> "anthropic.AsyncAnthropic":
    import anthropic

    loop = asyncio.get_running_loop()
    if loop not in _loops:
        _loops[loop] = (anthropic.DefaultAsyncHttpxClient(timeout=_timeout()), OrderedDict())
    http, clients = _loops[loop]
    key = (provider.api_key, provider.base_url)
    client = clients.get(key)
    if client is None:
        client = anthropic.AsyncAnthropic(
            api_key=provider.api_key,
            base_url=provider.base_url,
            http_client=http,
            max_retries=SDK_MAX_RETRIES,
            timeout=_timeout(),
            open_telemetry=False,
        )
        clients[key] = client
        if len(clients) > _CLIENTS_PER_LOOP:
            clients.popitem(last=False)
    else:
        clients.move_to_end(key)
    return client


@functools.cache
def _sync_http():
    import anthropic

    return anthropic.DefaultHttpxClient(timeout=_timeout())


def create_message(provider: Provider, request: dict, *, timeout: float | None = None):
    """One non-streamed `messages.create` from synchronous code (a view reading a capture, a worker): the
    same keys, retries and timeouts as the turn's clients, over one process-wide HTTP client (a sync httpx
    client is safe across threads, unlike an async one across event loops). Raises the SDK's errors;
    `classify` maps them."""
    import anthropic

    client = anthropic.Anthropic(
        api_key=provider.api_key,
        base_url=provider.base_url,
        http_client=_sync_http(),
        max_retries=SDK_MAX_RETRIES,
        timeout=_timeout() if timeout is None else timeout,
        open_telemetry=False,
    )
    return client.messages.create(**request)


class ProviderFailure(Exception):
    def __init__(self, code: str, message: str, *, retryable: bool):
        super().__init__(message)
        self.code = code
        self.message = message
        self.retryable = retryable


class StreamErrorEvent(Exception):
    """An `error` event in the middle of a streamed response: it arrives on an HTTP 200, and its body's error
    type says what went wrong."""

    def __init__(self, body):
        super().__init__(f"error event: {body}")
        self.body = body
        self.status_code = 200


def _error_type(body, exc=None) -> str | None:
    body = body if isinstance(body, dict) else {}
    error = body.get("error") if isinstance(body.get("error"), dict) else {}
    return error.get("type") or getattr(exc, "type", None)


def classify(exc: Exception) -> ProviderFailure:
    """An SDK error, or an `error` event of a stream, → the error frame it becomes. A mid-stream error comes on
    a 200 response, so the body's error type decides, not the status."""
    import anthropic

    if isinstance(exc, anthropic.APIConnectionError):
        return ProviderFailure("PROVIDER_UNAVAILABLE", _("The AI provider could not be reached."), retryable=True)
    if isinstance(exc, anthropic.APIStatusError | StreamErrorEvent):
        kind = _error_type(exc.body, exc)
        if exc.status_code == 429 or kind == "rate_limit_error":
            return ProviderFailure(
                "RATE_LIMITED", _("The AI provider is rate limiting requests; try again shortly."), retryable=True
            )
        if exc.status_code in (401, 403) or kind in ("authentication_error", "permission_error"):
            return ProviderFailure(
                "AI_PROVIDER_REQUIRED",
                _("The AI provider refused the API key; check it in chat settings."),
                retryable=False,
            )
        if exc.status_code >= 500 or kind in ("overloaded_error", "api_error"):
            return ProviderFailure(
                "PROVIDER_UNAVAILABLE", _("The AI provider is unavailable; try again."), retryable=True
            )
        return ProviderFailure("PROVIDER_UNAVAILABLE", _("The AI provider refused the request."), retryable=False)
    return ProviderFailure("PROVIDER_UNAVAILABLE", _("The AI provider failed."), retryable=False)
