"""What gunicorn and the ASGI server agree on for a handed-over connection (docs/serving.md).

gunicorn serves HTTP; a websocket upgrade on `/ws/` and every request to `/mcp` belong to the ASGI server
(daphne). gunicorn has already read that request off the client's socket, so it sends the socket itself
(SCM_RIGHTS over a local Unix socket) together with the request's bytes, rebuilt from what it parsed, in one
frame: a 4-byte big-endian length, then the bytes. The ASGI server adopts the socket, reads the frame's bytes
as if they had just arrived on it, and serves the connection from then on.

Pure functions only: no sockets here, so both sides and the tests share one definition.
"""

import os
import struct
from urllib.parse import unquote

SOCKET_ENV = "ASGI_HANDOVER_SOCKET"
DEFAULT_SOCKET = "/tmp/zeus-asgi-handover.sock"
# `/mcp` bodies are JSON-RPC messages of a few kilobytes (the endpoint refuses more than 64 KiB itself);
# past this bound gunicorn answers 413 rather than hold the body in memory to pass it on.
MAX_BODY = 1024 * 1024
_LENGTH = struct.Struct("!I")
# Framing of the body is rewritten (gunicorn has decoded a chunked body, and answered `Expect` itself).
_REWRITTEN = frozenset({"CONTENT-LENGTH", "TRANSFER-ENCODING", "EXPECT"})


def socket_path() -> str:
    return os.environ.get(SOCKET_ENV) or DEFAULT_SOCKET


def is_handed_over(path: str, headers: list[tuple[str, str]]) -> bool:
    """A websocket upgrade under `/ws/`, or any request to `/mcp`: the ASGI server's. `path` is the raw path
    of the request line, matched decoded as the ASGI router matches it (so `/mc%70` goes where `/mcp` goes)."""
    path = unquote(path)
    if path == "/mcp" or path.startswith("/mcp/"):
        return True
    if not path.startswith("/ws/"):
        return False
    return any(name.upper() == "UPGRADE" and "websocket" in value.lower() for name, value in headers)


def has_body(headers: list[tuple[str, str]]) -> bool:
    return any(name.upper() in ("CONTENT-LENGTH", "TRANSFER-ENCODING") for name, _ in headers)


def request_bytes(
    method: str, uri: str, version: tuple[int, int], headers: list[tuple[str, str]], body: bytes | None
) -> bytes:
    """The request as HTTP/1.x bytes: the request line as received, the headers gunicorn kept (names as it
    parsed them; HTTP header names are case-insensitive), and a body, when there is one, with its length."""
    lines = [f"{method} {uri} HTTP/{version[0]}.{version[1]}"]
    lines += [f"{name}: {value}" for name, value in headers if name.upper() not in _REWRITTEN]
    if body is not None:
        lines.append(f"Content-Length: {len(body)}")
    head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
    return head + (body or b"")


def frame(data: bytes) -> bytes:
    return _LENGTH.pack(len(data)) + data


def split_frames(buffer: bytearray) -> list[bytes]:
    """The complete frames at the start of `buffer`, removed from it; a partial frame stays for more bytes."""
    out = []
    while len(buffer) >= _LENGTH.size:
        (size,) = _LENGTH.unpack_from(buffer)
        end = _LENGTH.size + size
        if len(buffer) < end:
            break
        out.append(bytes(buffer[_LENGTH.size : end]))
        del buffer[:end]
    return out
