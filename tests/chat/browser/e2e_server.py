"""The real app on daphne, in a thread of the test process, for the end-to-end browser tests.

A thread, not a process: it shares the test database, the settings the test overrides (ANTHROPIC_BASE_URL of
the offline model server) and, without Redis, the in-memory channel layer and cache. Twisted's reactor cannot be
restarted, so one server serves the whole test session. So daphne's `Server` is built here directly rather than
through `python -m zeus.ws_serve` (a command line, a process of its own); what that adds, a 1009 close for a
frame over 64 KiB, is held on the real `ws` process by tests/zeus/test_proxy.py.
"""

import asyncio
import socket
import threading
import time

from asgiref.sync import sync_to_async

PORTS = range(8501, 8600)


def free_port() -> int:
    for port in PORTS:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {PORTS.start}-{PORTS.stop - 1}")


class DaphneThread:
    def __init__(self):
        from daphne.server import Server
        from twisted.internet import reactor

        from zeus.asgi import application

        self.reactor = reactor
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._ready = threading.Event()
        self.server = Server(
            application=application,
            endpoints=[f"tcp:port={self.port}:interface=127.0.0.1"],
            signal_handlers=False,
            verbosity=0,
            websocket_max_message_size=65536,
            ready_callable=self._ready.set,
        )
        self.thread = threading.Thread(target=self.server.run, name="daphne", daemon=True)

    def start(self) -> "DaphneThread":
        self.thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("daphne did not start")
        # ready_callable fires before the listener is bound; wait until the port answers.
        for _ in range(100):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return self
            time.sleep(0.05)
        raise RuntimeError(f"daphne is not listening on {self.port}")

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        return self.reactor._asyncioEventloop

    def call(self, fn, /, **kwargs):
        """Runs a synchronous function the way a view served by this daphne would (sync_to_async on its loop),
        so what it pushes through the channel layer starts on the server's own loop."""
        return asyncio.run_coroutine_threadsafe(sync_to_async(fn)(**kwargs), self.loop).result(10)

    def stop(self) -> None:
        self.reactor.callFromThread(self.server.stop)
        self.thread.join(10)
