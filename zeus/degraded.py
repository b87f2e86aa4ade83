"""The websocket when a dependency is down: accepted, then closed with a code the page understands.

Without this a session read against a dead PostgreSQL, or a channel-layer call against a dead Redis, ends the
handshake as a bare HTTP 500, which a browser cannot tell from a refusal (logged out). Accepting and closing
with 4503 lets the chat page say "reconnecting…" and retry with its backoff; 403 (a refused handshake) stays
the answer for "not logged in" and "not your thread" (docs/security.md, "Degraded mode").
"""

import logging

from zeus.dependencies import is_busy, is_dependency_down

log = logging.getLogger(__name__)

# 4000-4999 are the application's own close codes; 4503 echoes HTTP's 503.
CLOSE_UNAVAILABLE = 4503
UNAVAILABLE_REASON = "service unavailable"
# Overload closes with the same code (the page reconnects with its backoff) and says it is only busy.
BUSY_REASON = "server busy"


def close_reason(exc: BaseException | None) -> str:
    return BUSY_REASON if is_busy(exc) else UNAVAILABLE_REASON


class WebsocketDependencyGuard:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        state = {"accepted": False, "closed": False}

        async def tracking_send(message):
            if message["type"] == "websocket.accept":
                state["accepted"] = True
            elif message["type"] == "websocket.close":
                state["closed"] = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception as exc:
            if not is_dependency_down(exc) or state["closed"]:
                raise
            log.warning("websocket %s: a dependency is down (%s), closed with 4503", scope["path"], type(exc).__name__)
            if not state["accepted"]:
                await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": CLOSE_UNAVAILABLE, "reason": close_reason(exc)})
