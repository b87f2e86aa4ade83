"""The agent loop of a begun turn: route, then model ⇄ tools until the model answers without a tool call,
MAX_MODEL_CALLS calls or the deadline; then finish. Every way a turn can end is decided here, once."""

import asyncio
import dataclasses
import logging

from django.utils.translation import gettext as _

from chat import limits
from chat.provider.client import ProviderFailure, client_for, load_sdk
from chat.turn import finish, prompt
from chat.turn.conversation import key_sorted
from chat.turn.data import INTERNAL_ERROR_MESSAGE, Turn, TurnResult
from chat.turn.request import model_request
from chat.turn.routing import route
from chat.turn.streaming import stream_call
from chat.turn.tool_batch import run_tool_batch
from zeus.text import scrub, scrub_data

log = logging.getLogger(__name__)


async def run_agent(turn: Turn) -> TurnResult:
    try:
        async with asyncio.timeout(limits.TURN_DEADLINE_SECONDS):
            await load_sdk()
            client = client_for(turn.provider)
            turn.route = await route(client, turn)
            # The catalog refuses a call outside the workflow's subset, beyond what the model is offered.
            turn.ctx = dataclasses.replace(turn.ctx, allowed_tools=frozenset(turn.route.tools))
            await turn.out.phase("thinking")
            await _loop(client, turn)
    except TimeoutError:
        return await finish.failed(turn, "TIMEOUT", _("The turn took too long and was stopped."))
    except asyncio.CancelledError:
        return await finish.failed(turn, "STOPPED", _("Stopped."))
    except ProviderFailure as failure:
        cause = failure.__cause__
        log.warning(
            "provider failure in thread %s: %s (%s %s)",
            turn.thread_id,
            failure.code,
            type(cause).__name__,
            getattr(cause, "status_code", ""),
        )
        return await finish.failed(turn, failure.code, failure.message)
    except Exception:
        # Our own fault (a bug, the database): said as such, never as the provider's.
        log.exception("chat turn failed in thread %s", turn.thread_id)
        return await finish.failed(turn, "INTERNAL_ERROR", INTERNAL_ERROR_MESSAGE)
    try:
        return await finish.done(turn)
    except Exception:
        # The store itself failed (a connection cut under it): the turn is told so truthfully, and what it
        # did (a tool that ran, its usage) is stored again on a fresh connection, marked aborted.
        log.exception("storing the reply failed in thread %s", turn.thread_id)
        return await finish.failed(turn, "INTERNAL_ERROR", INTERNAL_ERROR_MESSAGE)


async def _loop(client, turn: Turn) -> None:
    ctx = turn.ctx
    system = prompt.system_blocks(today=ctx.today, currency=ctx.currency, timezone=ctx.timezone, language=ctx.language)
    tools = prompt.tool_list(turn.route.tools)
    while turn.reply.model_calls < limits.MAX_MODEL_CALLS:
        turn.reply.model_calls += 1
        request = model_request(
            model=turn.model,
            system=system,
            tools=tools,
            conversation=turn.conversation,
            workflow=turn.route.workflow,
        )
        turn.sent_messages, turn.sent_facts = request["messages"], system[-1]["text"]
        final = await stream_call(client, turn, request)
        turn.reply.add_usage(final.usage)
        turn.reply.flush_text()
        # Text parts were stored as their blocks finished streaming; thinking blocks are never parts, but go
        # back unchanged, first, with the tool results (chat/provider/stream.py).
        uses = [(b.id, b.name, b.input or {}, b.input_error) for b in final.tool_uses()]
        if not uses:
            return
        turn.conversation.append({"role": "assistant", "content": _sendable(final.replay_content())})
        results = await run_tool_batch(turn, uses)
        turn.conversation.append({"role": "user", "content": results})
        await turn.out.phase("thinking")


def _sendable(content: list[dict]) -> list[dict]:
    """The replayed assistant turn with its text and tool inputs as they are stored (docs/security.md): a lone
    surrogate from the model cannot even be encoded to send back; the inputs key-sorted, as the later turns
    send them from the stored message (chat.turn.conversation.key_sorted). Thinking blocks go back byte for
    byte."""
    out = []
    for block in content:
        if block["type"] == "text":
            block = {**block, "text": scrub(block["text"])}
        elif block["type"] == "tool_use":
            block = {**block, "input": key_sorted(scrub_data(block["input"]))}
        out.append(block)
    return out
