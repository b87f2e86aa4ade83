"""One streamed model call: tokens go out as they arrive, finished text blocks are kept even if a later block
fails, and an `error` event before the first token is retried here (the SDK does not retry those)."""

import asyncio
import random

from chat.provider.client import StreamErrorEvent, classify
from chat.provider.stream import Response
from chat.turn.data import Turn
from zeus.text import scrub

STREAM_RETRIES = 2
STREAM_BACKOFF = 0.25


async def stream_call(client, turn: Turn, request: dict) -> Response:
    import anthropic  # loaded by client_for already; the module must not load it at start

    turn.check_budget()
    attempt = 0
    while True:
        forwarded = False
        response = Response()
        note = turn.run.model_call("main", request["model"], response)
        try:
            # The raw response, read as server-sent events: the SDK would build a pydantic object per event.
            # Leaving this block closes the HTTP response: a stop or the deadline aborts the model stream.
            async with client.messages.with_streaming_response.create(**request) as raw:
                async for sse in anthropic.AsyncStream.raw_events(raw.http_response):
                    if sse.event == "error":
                        raise StreamErrorEvent(_error_body(sse))
                    if sse.event is None or sse.event == "ping" or not sse.data:
                        continue
                    event = sse.json()
                    block = response.add(event)
                    kind = event.get("type")
                    if block is not None and block.is_thinking and kind == "content_block_start":
                        # The model thinks again (a progress note between tool calls): say so.
                        await turn.out.phase("thinking")
                        continue
                    if block is None or block.type != "text":
                        continue
                    if kind == "content_block_delta":
                        # The model's own text is kept, made storable (docs/security.md): a NUL or a lone
                        # surrogate would fail the insert of the whole reply, its tool parts and its charge.
                        text = scrub(event["delta"].get("text") or "")
                        if text:
                            await turn.out.phase("generating")
                            turn.reply.live_text += text
                            forwarded = True
                            await turn.out.token(text)
                    elif kind == "content_block_stop":
                        turn.reply.flush_text()
            note.end()
            return response
        except (anthropic.APIError, StreamErrorEvent) as exc:
            failure = classify(exc)
            note.end(error=failure.code)
            if forwarded or not failure.retryable or attempt >= STREAM_RETRIES:
                turn.reply.flush_text()
                raise failure from exc
            attempt += 1
            await asyncio.sleep(STREAM_BACKOFF * 2 ** (attempt - 1) * (0.75 + random.random() / 2))


def _error_body(sse):
    try:
        return sse.json()
    except ValueError:
        return sse.data
