"""Overload is answered as overload: every pooled connection alive and in use, or PostgreSQL's "too many
clients", is 503 SERVER_BUSY with a short Retry-After (REST, MCP) or a socket closed with reason "server busy";
an outage (including the pool's wait running out because no connection can be made) stays SERVICE_UNAVAILABLE."""

import django.db
import psycopg.errors
import psycopg_pool
import pytest

from zeus import dependencies
from zeus.api.views import ProfileView
from zeus.degraded import WebsocketDependencyGuard
from zeus.dependencies import is_busy


def _wrapped(cause: BaseException) -> django.db.OperationalError:
    try:
        try:
            raise cause
        except Exception as exc:
            raise django.db.OperationalError(str(exc)) from exc
    except django.db.OperationalError as wrapped:
        return wrapped


BUSY = psycopg.errors.TooManyConnections("sorry, too many clients already")
POOL_WAIT = psycopg_pool.PoolTimeout("couldn't get a connection after 1.50 sec")
DOWN = ConnectionRefusedError("connection refused")


def test_a_pool_wait_is_busy_only_when_the_pool_is_full_of_live_connections(monkeypatch):
    assert not is_busy(_wrapped(POOL_WAIT))  # PostgreSQL down: no connection can be made, the wait runs out
    monkeypatch.setattr(dependencies, "pool_saturated", lambda: True)
    assert is_busy(_wrapped(POOL_WAIT))


@pytest.mark.django_db
@pytest.mark.parametrize(("cause", "code", "retry"), [(BUSY, "SERVER_BUSY", "1"), (DOWN, "SERVICE_UNAVAILABLE", "5")])
def test_rest_tells_busy_from_down(alice, alice_api, monkeypatch, cause, code, retry):
    def get(self, request):
        raise _wrapped(cause)

    monkeypatch.setattr(ProfileView, "get", get)
    alice_api.raise_request_exception = False
    response = alice_api.get("/api/v1/profile")
    assert response.status_code == 503
    assert response.json()["error"]["code"] == code
    assert response["Retry-After"] == retry


def test_is_busy_reads_through_the_wrapping():
    assert is_busy(_wrapped(BUSY)) and not is_busy(_wrapped(DOWN)) and not is_busy(None)


@pytest.mark.parametrize(("cause", "reason"), [(BUSY, "server busy"), (DOWN, "service unavailable")])
async def test_a_socket_is_closed_4503_saying_busy_or_down(cause, reason):
    sent = []

    async def app(scope, receive, send):
        raise _wrapped(cause)

    async def send(message):
        sent.append(message)

    await WebsocketDependencyGuard(app)({"type": "websocket", "path": "/ws/chat/1"}, None, send)
    assert sent[-1] == {"type": "websocket.close", "code": 4503, "reason": reason}
