"""gunicorn's threaded worker, handing websockets and `/mcp` to the ASGI server (docs/serving.md).

gunicorn faces the browser and serves every HTTP request itself. For a request that belongs to the ASGI
server (zeus.serving.handover.is_handed_over) it sends the client's socket, with the request rebuilt from
what it parsed, to the ASGI server's handover socket, and lets go of the connection without ending it: the
ASGI server answers that request and serves the connection from then on. A new connection is accepted by
the worker holding fewest (zeus.serving.balance), and a kept-alive connection is closed after
KEEPALIVE_REQUESTS requests, so that a split the workers could not balance (a worker still starting, or
one just respawned) evens out as clients reconnect. Everything else is gthread's own code, unchanged.
"""

import json
import logging
import os
import socket

from gunicorn.workers.gthread import ThreadWorker

from zeus.dependencies import RETRY_AFTER_SECONDS
from zeus.serving.balance import Share
from zeus.serving.handover import MAX_BODY, frame, has_body, is_handed_over, request_bytes, socket_path

log = logging.getLogger(__name__)
# A local Unix socket answers at once; a wait this long means the ASGI process is stuck, not slow.
CONNECT_TIMEOUT = 2.0
# As nginx's `keepalive_requests` (1000): a client reconnects once in that many requests, a TCP handshake on
# loopback or from the load balancer, and the new connection goes to the worker holding fewest.
KEEPALIVE_REQUESTS = int(os.environ.get("WEB_KEEPALIVE_REQUESTS") or 1000)
UNAVAILABLE = json.dumps(
    {
        "error": {
            "code": "SERVICE_UNAVAILABLE",
            "message": "A service Zeus depends on is unavailable; try again shortly.",
        }
    }
).encode()
TOO_LARGE = json.dumps(
    {"error": {"code": "TOO_LARGE", "message": f"A request body is at most {MAX_BODY} bytes."}}
).encode()


def _answer(sock: socket.socket, status: str, body: bytes, extra: str = "") -> None:
    head = (
        f"HTTP/1.1 {status}\r\nServer: gunicorn\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n{extra}Connection: close\r\n\r\n"
    )
    sock.sendall(head.encode("latin-1") + body)


class HandoverWorker(ThreadWorker):
    _share: Share | None = None  # taken in the worker process (init_process); the master's copy has none

    @property
    def nr_conns(self) -> int:
        return self._nr_conns

    @nr_conns.setter
    def nr_conns(self, value: int) -> None:
        # gthread counts every connection it opens and closes here; the siblings read the count (balance.py).
        self._nr_conns = value
        if self._share is not None:
            self._share.hold(value)

    def init_process(self):
        self._share = Share()
        try:
            super().init_process()  # the worker's whole life: it returns, or raises SystemExit, when it stops
        finally:
            self._share.release()

    def accept(self, listener):
        if self._share is not None and self._share.leave_to_sibling():
            return  # the socket stays readable: the poller calls again, and a sibling may accept meanwhile
        super().accept(listener)

    @classmethod
    def check_config(cls, cfg, log):
        super().check_config(cfg, log)
        if cfg.is_ssl:
            # A TLS session lives in this process: its socket carries ciphertext daphne could not read.
            raise RuntimeError("the handover worker serves plain HTTP: end TLS before gunicorn (docs/serving.md)")

    def handle_request(self, req, conn):
        if not is_handed_over(req.path, req.headers):
            if req.req_number >= KEEPALIVE_REQUESTS:
                req.must_close = True  # answered with `Connection: close`, as a request asking for it is
            return super().handle_request(req, conn)
        return self.hand_over(req, conn)

    def hand_over(self, req, conn) -> bool:
        """Pass the connection to the ASGI server; False, as for any connection gunicorn no longer keeps."""
        asgi = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        asgi.settimeout(CONNECT_TIMEOUT)
        with asgi:
            try:
                asgi.connect(socket_path())
            except OSError as refused:
                log.warning("The ASGI server is unreachable at %s (%s): 503", socket_path(), refused)
                _answer(conn.sock, "503 Service Unavailable", UNAVAILABLE, f"Retry-After: {RETRY_AFTER_SECONDS}\r\n")
                return False
            body = None
            if has_body(req.headers):
                if req.version >= (1, 1) and any(
                    name == "EXPECT" and value.lower() == "100-continue" for name, value in req.headers
                ):
                    conn.sock.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
                body = req.body.read(MAX_BODY + 1)
                if len(body) > MAX_BODY:
                    _answer(conn.sock, "413 Request Entity Too Large", TOO_LARGE)
                    return False
            # Whatever the client sent behind this request (a pipelined one) is the ASGI server's to read too.
            data = request_bytes(req.method, req.uri, req.version, req.headers, body)
            data += conn.parser.unreader.take_buffered()
            message = frame(data)
            sent = socket.send_fds(asgi, [message], [conn.sock.fileno()])
            asgi.sendall(message[sent:])
        # Our copy of the socket is closed without shutdown(): gthread's graceful close would send FIN on the
        # connection the ASGI server now serves.
        os.close(conn.sock.detach())
        return False

    def finish_request(self, conn, fs):
        if conn.sock.fileno() == -1:
            # Handed over: nothing of this connection is left here to close or to keep alive.
            self.nr_conns -= 1
            return
        super().finish_request(conn, fs)
