"""The Procfile's `ws` process: daphne serving zeus.asgi:application, plus the handover socket gunicorn passes
websocket and `/mcp` connections through (docs/serving.md).

`python -m zeus.serving.asgi_server` takes daphne's own command line. Besides daphne's TCP listener (for a
load balancer that routes `/ws/` and `/mcp` to this process directly), it listens on the Unix socket
`ASGI_HANDOVER_SOCKET` (zeus.serving.handover), readable by this user only. Each frame arriving there comes
with a client's socket: daphne's HTTP factory adopts it, as if daphne had accepted it, and reads the frame's
bytes as the start of that connection. The peer address daphne sees is the client's own.
"""

# daphne.server installs Twisted's asyncio reactor; it must be imported before anything imports a reactor.
import daphne.server  # isort: skip

import errno
import logging
import os
import socket
import stat
import sys
from collections import deque

from daphne.cli import CommandLineInterface
from twisted.internet import protocol, reactor
from twisted.internet.interfaces import IFileDescriptorReceiver
from zope.interface import implementer

from zeus import collector
from zeus.serving.handover import socket_path, split_frames

log = logging.getLogger(__name__)


class _Capture:
    """daphne's HTTP factory, keeping the protocol it builds for an adopted socket (the reactor returns none)."""

    def __init__(self, factory):
        self.factory = factory
        self.built = None

    def buildProtocol(self, addr):
        self.built = self.factory.buildProtocol(addr)
        return self.built


def adopt(fd: int, request: bytes, http_factory) -> None:
    """Serve the client socket `fd` with daphne, `request` being the bytes already read off it."""
    capture = _Capture(http_factory)
    try:
        # socket.socket learns the family from the descriptor; closing it closes our copy of the descriptor,
        # after adoptStreamConnection has made its own (socket.fromfd duplicates it).
        with socket.socket(fileno=fd) as client:
            client.setblocking(False)
            reactor.adoptStreamConnection(client.fileno(), client.family, capture)
    except OSError as gone:
        # The client hung up while its socket was in flight: nothing to serve.
        log.info("A handed-over connection was already closed: %s", gone)
        return
    if capture.built is not None:
        capture.built.dataReceived(request)


@implementer(IFileDescriptorReceiver)
class HandoverReceiver(protocol.Protocol):
    """One gunicorn connection to the handover socket: frames, each with the client socket it came with."""

    def __init__(self, http_factory):
        self.http_factory = http_factory
        self.fds: deque[int] = deque()
        self.buffer = bytearray()

    def fileDescriptorReceived(self, fd):
        # A frame's descriptor arrives with the frame's first bytes, so always before the frame is complete.
        os.set_inheritable(fd, False)
        self.fds.append(fd)

    def dataReceived(self, data):
        self.buffer += data
        for request in split_frames(self.buffer):
            if not self.fds:
                log.error("A handover frame came without a socket; closing the handover connection")
                self.transport.loseConnection()
                return
            adopt(self.fds.popleft(), request, self.http_factory)

    def connectionLost(self, reason=protocol.connectionDone):
        while self.fds:
            os.close(self.fds.popleft())


class HandoverFactory(protocol.Factory):
    def __init__(self, http_factory):
        self.http_factory = http_factory

    def buildProtocol(self, addr):
        return HandoverReceiver(self.http_factory)


def clear_stale(path: str) -> None:
    """Remove a socket file a previous run left behind; refuse to take over one a live server listens on."""
    try:
        if not stat.S_ISSOCK(os.stat(path).st_mode):
            raise SystemExit(f"{path} exists and is not a socket")
    except FileNotFoundError:
        return
    with socket.socket(socket.AF_UNIX) as probe:
        try:
            probe.connect(path)
        except OSError as refused:
            if refused.errno not in (errno.ECONNREFUSED, errno.ENOENT):
                raise
        else:
            raise SystemExit(f"another server listens on {path}")
    os.unlink(path)


class HandoverServer(daphne.server.Server):
    """daphne's server, also listening on the handover socket once its HTTP factory exists."""

    def run(self):
        announce = self.ready_callable

        def ready():
            path = socket_path()
            clear_stale(path)
            reactor.listenUNIX(path, HandoverFactory(self.http_factory), mode=0o600)
            collector.freeze_loaded()  # the app is loaded: its objects leave the collector's passes
            if announce:
                announce()

        self.ready_callable = ready
        super().run()


class HandoverCommandLine(CommandLineInterface):
    server_class = HandoverServer


if __name__ == "__main__":
    sys.exit(HandoverCommandLine.entrypoint())
