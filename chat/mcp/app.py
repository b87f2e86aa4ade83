"""The /mcp application: host check → bearer token (401) → the SDK's streamable HTTP manager.

The manager runs stateless with JSON responses: every POST is self-contained (re-authenticated, no session to
pin to one process), which suits several daphne processes behind a load balancer, and the server never needs
to call the client back. The manager still needs its task group running; daphne sends no ASGI lifespan
events, so it is started on the first request, on the loop serving it.
"""

import asyncio
import json
from dataclasses import dataclass

from django.conf import settings
from django.http.request import split_domain_port, validate_host
from mcp.server.auth.middleware.bearer_auth import BearerAuthBackend, RequireAuthMiddleware
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.middleware.authentication import AuthenticationMiddleware

from chat.mcp.auth import McpTokenVerifier
from chat.mcp.edge import EnvelopeCheck, FailureGuard
from chat.mcp.server import build_server

MAX_REQUEST_BODY = 64 * 1024  # tool inputs are small; the SDK's default is 4 MiB


@dataclass
class _Running:
    loop: asyncio.AbstractEventLoop
    manager: StreamableHTTPSessionManager
    started: asyncio.Event
    stop: asyncio.Event
    task: asyncio.Task


class McpEndpoint:
    """The SDK's session manager, started lazily and stoppable, one per event loop (a process serves on one;
    the tests start servers on several in turn)."""

    def __init__(self):
        self._server = build_server()
        self._running: _Running | None = None

    async def __call__(self, scope, receive, send):
        running = self._ensure_running()
        await running.started.wait()
        await running.manager.handle_request(scope, receive, send)

    def _ensure_running(self) -> _Running:
        loop = asyncio.get_running_loop()
        # No await between the check and the assignment: concurrent first requests on one loop share one start.
        # A manager that stopped (or failed) is replaced: an instance runs only once.
        running = self._running
        if running is None or running.loop is not loop or running.task.done():
            manager = StreamableHTTPSessionManager(
                app=self._server, stateless=True, json_response=True, max_request_body_size=MAX_REQUEST_BODY
            )
            started, stop = asyncio.Event(), asyncio.Event()

            async def run():
                try:
                    async with manager.run():
                        started.set()
                        await stop.wait()
                finally:
                    started.set()  # never leave a request waiting on a manager that failed to start

            self._running = _Running(loop, manager, started, stop, loop.create_task(run()))
        return self._running

    async def stop(self) -> None:
        """Stops the manager running on this loop (its in-flight requests are cancelled)."""
        running = self._running
        if running is not None and running.loop is asyncio.get_running_loop():
            self._running = None
            running.stop.set()
            await running.task


class AllowedHosts:
    """Django's ALLOWED_HOSTS, applied to /mcp too (it never reaches Django's own check)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), "")
        domain, _port = split_domain_port(host)
        allowed = settings.ALLOWED_HOSTS or ([".localhost", "127.0.0.1", "[::1]"] if settings.DEBUG else [])
        if not domain or not validate_host(domain, allowed):
            body = json.dumps({"error": {"code": "BAD_HOST", "message": "Invalid Host header."}}).encode()
            await send(
                {"type": "http.response.start", "status": 400, "headers": [(b"content-type", b"application/json")]}
            )
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)


endpoint = McpEndpoint()
mcp_app = AllowedHosts(
    FailureGuard(
        AuthenticationMiddleware(
            RequireAuthMiddleware(EnvelopeCheck(endpoint, max_body=MAX_REQUEST_BODY), required_scopes=[]),
            backend=BearerAuthBackend(McpTokenVerifier()),
        )
    )
)
