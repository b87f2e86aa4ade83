"""The HTTP side: POST /v1/messages answered as JSON or as SSE (`event:` + `data:` lines, thinking blocks with
their signature_delta, text, and tool_use blocks with input_json_delta in several chunks, usage with cache
fields, ping); 429/529 with retry-after; an `event: error` mid-stream on a 200; a delay per token; 404 for a
retired model, 401 without a key, 413 past the request size limit, 400 for what validation.py refuses."""

import dataclasses
import json
import re
import socket
import time
from http.server import BaseHTTPRequestHandler

from tests.chat.fake_anthropic.caching import tokens
from tests.chat.fake_anthropic.models import RETIRED
from tests.chat.fake_anthropic.replies import Reply, Status, next_id
from tests.chat.fake_anthropic.validation import InvalidRequest, check_replay, validate

MAX_REQUEST_BYTES = 32 * 1024 * 1024


def chunks(value: str, size: int) -> list[str]:
    return [value[i : i + size] for i in range(0, len(value), size)] or [""]


def handler_for(fake):
    """The request handler class of one FakeAnthropic (server.py): it reads the server's script and records."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def setup(self):
            super().setup()
            # Each SSE event is its own small write: without NODELAY, Nagle's algorithm and the client's
            # delayed ACK hold events back by up to 40 ms, which no real API does.
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def _json(self, status: int, payload: dict, headers: dict | None = None) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.send_header("request-id", f"req_{next_id()}")
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            length = int(self.headers.get("content-length") or 0)
            if length > MAX_REQUEST_BYTES:  # the API's request size limit: the body drained, never kept
                while length > 0:
                    length -= len(self.rfile.read(min(length, 1 << 20)) or b"\0" * length)
                self._json(
                    413,
                    {
                        "type": "error",
                        "error": {
                            "type": "request_too_large",
                            "message": "Request exceeds the maximum allowed number of bytes.",
                        },
                    },
                )
                return
            raw = self.rfile.read(length)
            record = {"path": self.path, "headers": dict(self.headers), "at": time.perf_counter(), "aborted": False}
            fake.record(record)
            try:
                body = json.loads(raw)
            except ValueError:
                body = None
            record["body"] = body
            if self.path.split("?")[0] != "/v1/messages" or not isinstance(body, dict):
                record["status"] = 404
                self._json(404, {"type": "error", "error": {"type": "not_found_error", "message": "Not found"}})
                return
            bearer = self.headers.get("authorization") or ""
            record["api_key"] = self.headers.get("x-api-key") or (bearer[7:] if bearer.startswith("Bearer ") else None)
            if not record["api_key"]:
                record["status"] = 401
                self._json(401, {"type": "error", "error": {"type": "authentication_error", "message": "no key"}})
                return
            if body.get("model") in RETIRED:
                record["status"] = 404
                self._json(
                    404, {"type": "error", "error": {"type": "not_found_error", "message": f"model: {body['model']}"}}
                )
                return
            try:
                validate(body, max_tokens_limit=fake.max_tokens_limit)
                check_replay(body, fake.thinking)
            except InvalidRequest as exc:
                record["status"] = 400
                record["error"] = str(exc)
                self._json(400, {"type": "error", "error": {"type": "invalid_request_error", "message": str(exc)}})
                return
            answer = fake.answer(body)
            if isinstance(answer, Status):
                record["status"] = answer.status
                self._json(
                    answer.status,
                    {"type": "error", "error": {"type": answer.error_type, "message": answer.error_type}},
                    {
                        "retry-after": str(max(0, round(answer.retry_after))),
                        "retry-after-ms": str(answer.retry_after * 1000),
                    },
                )
                return
            record["status"] = 200
            if answer.delay:
                time.sleep(answer.delay)
            usage = fake.usage(body)
            answer = dataclasses.replace(answer, blocks=fake.thinking.blocks(body, answer))
            if body.get("stream"):
                try:
                    self._stream(body, answer, usage)
                except (BrokenPipeError, ConnectionResetError):
                    record["aborted"] = True
                    self.close_connection = True
            else:
                self._json(200, self._message(body, answer, usage, complete=True))

        def _message(self, body: dict, answer: Reply, usage: dict, *, complete: bool) -> dict:
            content = []
            for block in answer.blocks if complete else []:
                if block[0] == "text":
                    content.append({"type": "text", "text": block[1]})
                elif block[0] == "thinking":
                    content.append({"type": "thinking", "thinking": block[1], "signature": block[2]})
                else:
                    content.append({"type": "tool_use", "id": block[3], "name": block[1], "input": block[2]})
            stop = answer.stop_reason or ("tool_use" if any(b[0] == "tool_use" for b in answer.blocks) else "end_turn")
            output = answer.output_tokens or sum(tokens(len(json.dumps(b))) for b in answer.blocks)
            return {
                "id": f"msg_{next_id():06d}",
                "type": "message",
                "role": "assistant",
                "model": body["model"],
                "content": content,
                "stop_reason": stop if complete else None,
                "stop_sequence": None,
                "usage": {**usage, "output_tokens": output if complete else 1},
            }

        def _send_event(self, name: str, payload: dict) -> None:
            data = f"event: {name}\ndata: {json.dumps(payload)}\n\n".encode()
            self._out.append(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            if self._eager:
                self._flush()

        def _flush(self) -> None:
            if self._out:
                self.wfile.write(b"".join(self._out))
                self._out = []

        def _stream(self, body: dict, answer: Reply, usage: dict) -> None:
            # A reply paced by token_delay goes out event by event; one answered at once goes out in one
            # write, as a fast model's burst would, instead of a packet per event.
            self._out: list[bytes] = []
            self._eager = bool(answer.token_delay)
            try:
                self._stream_events(body, answer, usage)
            finally:
                self._flush()

        def _stream_events(self, body: dict, answer: Reply, usage: dict) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            self.send_header("transfer-encoding", "chunked")
            self.send_header("request-id", f"req_{next_id()}")
            self.end_headers()
            message = self._message(body, answer, usage, complete=False)
            self._send_event("message_start", {"type": "message_start", "message": message})
            self._send_event("ping", {"type": "ping"})
            sent_tokens = 0
            for index, block in enumerate(answer.blocks):
                if block[0] == "thinking":
                    self._thinking_block(index, block, answer)
                    continue
                if block[0] == "text":
                    start = {"type": "text", "text": ""}
                    pieces = re.findall(r"\S+\s*|\s+", block[1]) or [block[1]]
                    delta_of = lambda piece: {"type": "text_delta", "text": piece}  # noqa: E731
                else:
                    start = {"type": "tool_use", "id": block[3], "name": block[1], "input": {}}
                    encoded = json.dumps(block[2])
                    pieces = chunks(encoded, max(1, len(encoded) // 3 + 1))
                    delta_of = lambda piece: {"type": "input_json_delta", "partial_json": piece}  # noqa: E731
                self._send_event(
                    "content_block_start", {"type": "content_block_start", "index": index, "content_block": start}
                )
                for piece in pieces:
                    if (
                        block[0] == "text"
                        and answer.error_after_tokens is not None
                        and sent_tokens >= answer.error_after_tokens
                    ):
                        self._send_event(
                            "error", {"type": "error", "error": {"type": answer.error_type, "message": "Overloaded"}}
                        )
                        self._out.append(b"0\r\n\r\n")
                        return
                    if answer.token_delay:
                        time.sleep(answer.token_delay)
                    self._send_event(
                        "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta_of(piece)}
                    )
                    if block[0] == "text":
                        sent_tokens += 1
                        if fake.record_token_times:
                            fake.token_times.append((piece, time.perf_counter()))
                self._send_event("content_block_stop", {"type": "content_block_stop", "index": index})
            if answer.error_after_tokens is not None and sent_tokens <= answer.error_after_tokens:
                self._send_event(
                    "error", {"type": "error", "error": {"type": answer.error_type, "message": "Overloaded"}}
                )
                self._out.append(b"0\r\n\r\n")
                return
            final = self._message(body, answer, usage, complete=True)
            self._send_event(
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": final["stop_reason"], "stop_sequence": None},
                    "usage": {"output_tokens": final["usage"]["output_tokens"]},
                },
            )
            self._send_event("message_stop", {"type": "message_stop"})
            self._out.append(b"0\r\n\r\n")

        def _thinking_block(self, index: int, block: tuple, answer: Reply) -> None:
            start = {"type": "thinking", "thinking": "", "signature": ""}
            self._send_event(
                "content_block_start", {"type": "content_block_start", "index": index, "content_block": start}
            )
            for piece in re.findall(r"\S+\s*|\s+", block[1]):
                self._send_event(
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": index,
                        "delta": {"type": "thinking_delta", "thinking": piece},
                    },
                )
            if answer.thinking_delay:
                self._flush()
                time.sleep(answer.thinking_delay)
            self._send_event(
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "signature_delta", "signature": block[2]},
                },
            )
            self._send_event("content_block_stop", {"type": "content_block_stop", "index": index})

    return Handler
