"""The real ASGI app (zeus.asgi) served by uvicorn on a loopback port, in a thread of the test process so the
server sees the test database. uvicorn runs with lifespan off, as daphne does."""

import asyncio
import socket
import threading
import time

import pytest
import uvicorn

from tests.chat.mcp.helpers import McpHarness

PORTS = range(8301, 8400)


def _free_port() -> int:
    for port in PORTS:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 8301-8399")


@pytest.fixture(scope="session")
def mcp_base_url():
    from chat.mcp.app import endpoint
    from zeus.asgi import application

    port = _free_port()
    config = uvicorn.Config(application, host="127.0.0.1", port=port, lifespan="off", log_level="warning")
    server = uvicorn.Server(config)

    async def serve():
        await server.serve()
        await endpoint.stop()

    thread = threading.Thread(target=asyncio.run, args=(serve(),), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def mcp(mcp_base_url) -> McpHarness:
    return McpHarness(mcp_base_url)
