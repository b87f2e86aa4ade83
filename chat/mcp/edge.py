"""The /mcp protocol edge, in front of the SDK (docs/mcp.md, "Protocol edges"; docs/security.md).

- `GET` would open a server-to-client event stream; this server is stateless and never calls the client
  back, so the stream would only ever hold a connection open: 405, as the transport allows.
- Each POST body is read here (bounded), and must be one JSON-RPC 2.0 message: an object with
  `"jsonrpc": "2.0"`, a string `method`, an `id` that is a string or an integer when present, and `params`
  that are an object when present. Anything else is a JSON-RPC error (-32700 parse error, -32600 invalid
  request) with id null: the SDK would take an object id for a notification and answer nothing.
- Arguments follow the project's text rule and depth limit (-32602 invalid params).
- Every failure underneath (PostgreSQL down while the token is checked, a bug) is a JSON-RPC error in a
  JSON body: 503 with `Retry-After` for a dependency, 500 otherwise; never the server's HTML page.
"""

import json
import logging

from zeus.dependencies import is_dependency_down, unavailable_answer
from zeus.text import MAX_JSON_DEPTH, json_too_deep, parse_json, unstorable_path

log = logging.getLogger(__name__)

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
# The SDK's own range for server errors; this one says "a part Zeus depends on is down, retry".
SERVICE_UNAVAILABLE = -32000


async def _respond(send, status: int, code: int, message: str, *, id=None, headers=()):
    body = json.dumps({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), *headers],
        }
    )
    await send({"type": "http.response.body", "body": body})


def envelope_problem(message) -> tuple[int, str] | None:
    """What is wrong with one decoded JSON-RPC message, as (code, text), or None."""
    if not isinstance(message, dict):
        return INVALID_REQUEST, "A request is one JSON-RPC object (batches are not supported)."
    if message.get("jsonrpc") != "2.0":
        return INVALID_REQUEST, 'A request must say "jsonrpc": "2.0".'
    if "id" in message:
        request_id = message["id"]
        if isinstance(request_id, bool) or not isinstance(request_id, str | int):
            return INVALID_REQUEST, "The id must be a string or an integer."
    if not isinstance(message.get("method"), str) and "result" not in message and "error" not in message:
        return INVALID_REQUEST, "A request must name its method as a string."
    if "params" in message and not isinstance(message["params"], dict):
        return INVALID_REQUEST, "params must be an object."
    path = unstorable_path(message.get("params"))
    if path is not None:
        return INVALID_PARAMS, f"params.{path}: text with a NUL character or an unpaired surrogate is not accepted."
    return None


class FailureGuard:
    """Outermost: `GET` is refused before anything else, and a failure anywhere underneath (the token check
    included) is a JSON-RPC error in a JSON body, not the server's HTML page."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope.get("method", "GET") == "GET":
            await _respond(
                send,
                405,
                INVALID_REQUEST,
                "This MCP server is stateless: it has no event stream to open. POST each request.",
                headers=[(b"allow", b"POST, DELETE")],
            )
            return
        started = False

        async def tracking_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception as exc:
            if started:
                raise
            if is_dependency_down(exc):
                log.warning("/mcp: a dependency is down or busy (%s), answered 503", type(exc).__name__)
                _code, message, retry_after = unavailable_answer(exc)
                await _respond(
                    send, 503, SERVICE_UNAVAILABLE, message, headers=[(b"retry-after", str(retry_after).encode())]
                )
            else:
                log.exception("/mcp failed")
                await _respond(send, 500, INTERNAL_ERROR, "Something went wrong on our side.")


class EnvelopeCheck:
    """After authentication (an unauthenticated client learns only that it needs a token): each POST body is
    read here, bounded, and must be one well-formed JSON-RPC message whose params follow the text rule."""

    def __init__(self, app, *, max_body: int):
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope.get("method") == "POST":
            body = await self._read(receive)
            if body is None:
                await _respond(send, 413, INVALID_REQUEST, f"A request body is at most {self.max_body} bytes.")
                return
            refused = self._check(body)
            if refused is not None:
                code, text, request_id = refused
                await _respond(send, 400, code, text, id=request_id)
                return
            receive = _replay(body, receive)
        await self.app(scope, receive, send)

    async def _read(self, receive) -> bytes | None:
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return b"".join(chunks)
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return None
            chunks.append(chunk)
            if not message.get("more_body"):
                return b"".join(chunks)

    def _check(self, body: bytes):
        """(code, message, id to answer with) for a body that is refused here, else None."""
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return PARSE_ERROR, "The body is not UTF-8 text.", None
        if json_too_deep(text):
            return INVALID_REQUEST, f"The request nests deeper than {MAX_JSON_DEPTH} levels.", None
        try:
            message = parse_json(text)  # NaN and Infinity are not JSON: a tool would fail on them deep inside
        except ValueError:
            return PARSE_ERROR, "The body is not JSON.", None
        problem = envelope_problem(message)
        if problem is None:
            return None
        # Only a well-formed id is echoed; a request with a bad one gets id null, as JSON-RPC says.
        request_id = message.get("id") if problem[0] == INVALID_PARAMS else None
        return *problem, request_id


def _replay(body: bytes, upstream):
    """A `receive` that hands the body already read to the app, then listens upstream (for the disconnect)."""
    sent = False

    async def receive():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await upstream()

    return receive
