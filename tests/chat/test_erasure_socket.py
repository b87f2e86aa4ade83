import pytest
from asgiref.sync import sync_to_async
from rest_framework.test import APIClient

from tests.chat import factories as chat
from tests.chat.conftest import login_cookie, open_socket
from tests.factories import PASSWORD

pytestmark = [pytest.mark.django_db(transaction=True)]


async def test_an_open_chat_socket_ends_with_the_sessions_and_a_locked_sign_in_opens_none(alice, alice_cookie):
    thread = await sync_to_async(chat.thread)(alice)
    socket, connected, _ = await open_socket(alice_cookie, thread.id)
    assert connected

    def request_erasure():
        api = APIClient()
        api.force_authenticate(alice)
        return api.post("/api/v1/account/delete", {"password": PASSWORD}, format="json").status_code

    assert await sync_to_async(request_erasure)() == 202
    closed = await socket.comm.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4401, "reason": "signed out"}

    cookie = await sync_to_async(login_cookie)(alice)  # signs in: the session may only cancel
    _, connected, _ = await open_socket(cookie, thread.id)
    assert not connected
