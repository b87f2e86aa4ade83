"""One streamed model call: tokens go out as they arrive, finished text blocks are kept even if a later block
fails, and an `error` event before the first token is retried here (the SDK does not retry those)."""

import asyncio
import random

from chat.provider.client import classify
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
            stream = await client.messages.create(**request)
            # Leaving this block closes the HTTP response: a stop or the deadline aborts the model stream.
            async with stream:
                async for event in stream:
                    block = response.add(event)
                    if block is not None and block.is_thinking and event.type == "content_block_start":
                        # The model thinks again (a progress note between tool calls): say so.
                        await turn.out.phase("thinking")
                        continue
                    if block is None or block.type != "text":
                        continue
                    if event.type == "content_block_delta":
                        # The model's own text is kept, made storable (docs/security.md): a NUL or a lone
                        # surrogate would fail the insert of the whole reply, its tool parts and its charge.
                        text = scrub(event.delta.text or "")
                        if text:
                            await turn.out.phase("generating")
                            turn.reply.live_text += text
                            forwarded = True
                            await turn.out.token(text)
                    elif event.type == "content_block_stop":
                        turn.reply.flush_text()
            note.end()
            return response
        except anthropic.APIError as exc:
            failure = classify(exc)
            note.end(error=failure.code)
            if forwarded or not failure.retryable or attempt >= STREAM_RETRIES:
                turn.reply.flush_text()
                raise failure from exc
            attempt += 1
            await asyncio.sleep(STREAM_BACKOFF * 2 ** (attempt - 1) * (0.75 + random.random() / 2))
