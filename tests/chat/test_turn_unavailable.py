"""A turn that meets PostgreSQL down (it cannot even store that it failed) closes the socket with 4503, as the
handshake does, so the page reconnects; a bug of ours still answers INTERNAL_ERROR."""

import django.db
import pytest
from asgiref.sync import sync_to_async

from chat import consumers
from tests.chat import factories as chat
from tests.chat.conftest import open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def _failing(exc):
    async def run_turn(**kwargs):
        raise exc

    return run_turn


async def test_a_turn_with_the_database_down_closes_with_4503(alice, alice_cookie, fake, monkeypatch):
    thread = await sync_to_async(chat.thread)(alice)
    socket, connected, _ = await open_socket(alice_cookie, thread.id)
    assert connected
    monkeypatch.setattr(consumers, "run_turn", _failing(django.db.OperationalError("connection timeout expired")))
    await socket.send({"type": "user_message", "id": "a", "text": "hi"})
    closed = await socket.comm.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4503, "reason": "service unavailable"}


async def test_a_bug_in_a_turn_is_still_internal_error(alice, alice_cookie, fake, monkeypatch):
    thread = await sync_to_async(chat.thread)(alice)
    socket, connected, _ = await open_socket(alice_cookie, thread.id)
    assert connected
    monkeypatch.setattr(consumers, "run_turn", _failing(KeyError("bug")))
    await socket.send({"type": "user_message", "id": "a", "text": "hi"})
    error = await socket.receive()
    assert (error["type"], error["code"]) == ("error", "INTERNAL_ERROR")
    await socket.close()
