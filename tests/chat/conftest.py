import json

import pytest
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.test import Client

from tests.chat.fake_anthropic import FakeAnthropic
from tests.factories import PASSWORD

SERVER_KEY = "sk-ant-server-test-key-0123456789"


@pytest.fixture(autouse=True)
def _fresh_cache():
    # Rate counters and turn locks live in the cache; with Redis they would outlive a test.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(scope="session", autouse=True)
def _close_connections_of_the_async_thread():
    """sync_to_async runs ORM calls on asgiref's shared thread; its connection must close before the
    test database is dropped."""
    yield
    from asgiref.sync import SyncToAsync
    from django.db import connections

    SyncToAsync.single_thread_executor.submit(connections.close_all).result()


@pytest.fixture
def fake(settings):
    with FakeAnthropic() as server:
        settings.ANTHROPIC_BASE_URL = server.url
        settings.ANTHROPIC_API_KEY = SERVER_KEY
        server.router_model = settings.ZEUS_ROUTER_MODEL
        yield server


def login_cookie(user) -> str:
    """A session cookie from a real login through the login page."""
    client = Client()
    response = client.post("/accounts/login/", {"login": user.username, "password": PASSWORD})
    assert response.status_code == 302, "login failed"
    return f"sessionid={client.cookies['sessionid'].value}"


@pytest.fixture
def alice_cookie(alice):
    return login_cookie(alice)


@pytest.fixture
def bob_cookie(bob):
    return login_cookie(bob)


class Socket:
    """A websocket on the real ASGI application, with helpers to read a turn's frames."""

    def __init__(self, communicator: WebsocketCommunicator):
        self.comm = communicator
        self.frames: list[dict] = []

    async def send(self, frame) -> None:
        await self.comm.send_to(text_data=frame if isinstance(frame, str) else json.dumps(frame))

    async def receive(self, timeout: float = 10) -> dict:
        frame = json.loads(await self.comm.receive_from(timeout=timeout))
        self.frames.append(frame)
        return frame

    async def until(self, *types: str, timeout: float = 10) -> list[dict]:
        """Frames up to and including the first of `types` (done or error by default)."""
        types = types or ("done", "error")
        got = []
        while True:
            frame = await self.receive(timeout)
            got.append(frame)
            if frame["type"] in types:
                return got

    async def say(self, text: str, client_id: str | None = None, timeout: float = 10) -> list[dict]:
        import uuid

        await self.send({"type": "user_message", "id": client_id or str(uuid.uuid4()), "text": text})
        return await self.until(timeout=timeout)

    async def nothing(self, timeout: float = 0.2) -> bool:
        return await self.comm.receive_nothing(timeout=timeout)

    async def close(self) -> None:
        await self.comm.disconnect()


async def open_socket(cookie: str | None, thread_id, *, origin: str = "http://testserver"):
    from zeus.asgi import application

    headers = [(b"origin", origin.encode()), (b"host", b"testserver")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    communicator = WebsocketCommunicator(application, f"/ws/chat/{thread_id}/", headers=headers)
    connected, code = await communicator.connect(timeout=5)
    return Socket(communicator), connected, code


def socket_turn_tasks() -> list:
    """The consumers' turn tasks still running on this event loop."""
    import asyncio

    return [t for t in asyncio.all_tasks() if "ChatConsumer._run" in repr(t.get_coro()) and not t.done()]


async def turns_settled(timeout: float = 10) -> None:
    """Waits for the turns still running here: after `done` a turn goes on to write its run audit."""
    import asyncio

    running = socket_turn_tasks()
    if running:
        await asyncio.wait(running, timeout=timeout)


def types(frames: list[dict]) -> list[str]:
    return [f["type"] for f in frames]
