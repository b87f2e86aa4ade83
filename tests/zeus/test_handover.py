"""The handover's request rebuilding and framing (zeus/serving/handover.py), on requests parsed by gunicorn's
own parser: what daphne reads must be the request the browser sent, with the body framed by its length."""

import pytest
from gunicorn.config import Config
from gunicorn.http.parser import RequestParser

from zeus.serving.gunicorn_worker import HandoverWorker
from zeus.serving.handover import MAX_BODY, frame, has_body, is_handed_over, request_bytes, split_frames


def _parsed(raw: bytes):
    request = next(RequestParser(Config(), [raw], ("127.0.0.1", 5000)))
    body = request.body.read(MAX_BODY + 1) if has_body(request.headers) else None
    return request, body


def _rebuilt(raw: bytes) -> bytes:
    request, body = _parsed(raw)
    return request_bytes(request.method, request.uri, request.version, request.headers, body)


def test_a_websocket_upgrade_keeps_its_request_line_query_string_and_headers():
    raw = (
        b"GET /ws/chat/7f1c/?lang=vi&x=%20y HTTP/1.1\r\nHost: zeus.example:8000\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        b"Origin: https://zeus.example\r\nCookie: sessionid=abc; csrftoken=def\r\n\r\n"
    )
    assert _rebuilt(raw) == (
        b"GET /ws/chat/7f1c/?lang=vi&x=%20y HTTP/1.1\r\nHOST: zeus.example:8000\r\nUPGRADE: websocket\r\n"
        b"CONNECTION: Upgrade\r\nSEC-WEBSOCKET-KEY: dGhlIHNhbXBsZSBub25jZQ==\r\nSEC-WEBSOCKET-VERSION: 13\r\n"
        b"ORIGIN: https://zeus.example\r\nCOOKIE: sessionid=abc; csrftoken=def\r\n\r\n"
    )


def test_a_body_is_passed_whole_with_its_length_whether_it_came_by_length_or_in_chunks():
    message = b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}'
    by_length = b"POST /mcp HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (
        len(message),
        message,
    )
    chunked = (
        b"POST /mcp HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n"
        b"Expect: 100-continue\r\n\r\n10\r\n"
        + message[:16]
        + b"\r\n%x\r\n" % (len(message) - 16)
        + message[16:]
        + b"\r\n0\r\n\r\n"
    )
    expected = b"POST /mcp HTTP/1.1\r\nHOST: h\r\nCONTENT-TYPE: application/json\r\nContent-Length: %d\r\n\r\n%s" % (
        len(message),
        message,
    )
    assert _rebuilt(by_length) == expected
    # No Transfer-Encoding (gunicorn decoded the chunks) and no Expect (gunicorn answered it) reach daphne.
    assert _rebuilt(chunked) == expected


def test_an_empty_body_is_still_framed_and_a_request_without_one_has_no_length():
    assert _rebuilt(b"POST /mcp HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n").endswith(
        b"\r\nContent-Length: 0\r\n\r\n"
    )
    assert b"Content-Length" not in _rebuilt(b"DELETE /mcp HTTP/1.1\r\nHost: h\r\n\r\n")


@pytest.mark.parametrize(
    ("path", "headers", "handed_over"),
    [
        ("/mcp", [], True),
        ("/mcp/", [], True),
        ("/mc%70", [], True),
        ("/mcpx", [], False),
        ("/ws/chat/1/", [("UPGRADE", "WebSocket")], True),
        ("/ws/chat/1/", [], False),
        ("/api/v1/profile", [("UPGRADE", "websocket")], False),
        ("/", [], False),
    ],
)
def test_what_is_handed_over(path, headers, handed_over):
    assert is_handed_over(path, headers) is handed_over


def test_frames_come_apart_where_they_were_joined_and_a_partial_one_waits():
    buffer = bytearray(frame(b"first") + frame(b"") + frame(b"third")[:-2])
    assert split_frames(buffer) == [b"first", b""]
    buffer += b"rd"
    assert split_frames(buffer) == [b"third"]
    assert buffer == bytearray()


def test_the_worker_refuses_to_start_with_tls_of_its_own(tmp_path):
    cfg = Config()
    HandoverWorker.check_config(cfg, None)
    cfg.set("certfile", str(tmp_path / "cert.pem"))
    with pytest.raises(RuntimeError, match="end TLS before gunicorn"):
        HandoverWorker.check_config(cfg, None)
