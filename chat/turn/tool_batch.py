"""The tool calls of one model response, run concurrently. A stop or the deadline does not interrupt them: a
mutation that started is finished and recorded, then the interruption goes on."""

import asyncio
import logging
import time

from chat.tools import ToolOutcome, card_of, execute_tool
from chat.turn.conversation import tool_result_block
from chat.turn.data import Turn
from zeus.text import MAX_JSON_DEPTH, data_too_deep, scrub_data, unstorable_path

log = logging.getLogger(__name__)

BAD_INPUT = {"error": {"code": "INVALID_INPUT", "message": "The tool input was not a JSON object; nothing was run."}}
FAILED = {"error": {"code": "TOOL_FAILED", "message": "The tool failed."}}


async def run_tool_batch(turn: Turn, uses: list[tuple[str, str, dict, bool]]) -> list[dict]:
    """`uses`: (call id, tool name, input, whether the input failed to parse). Returns the tool_result blocks
    for the model; the calls and their cards go into the reply."""
    for call_id, name, _, _ in uses:
        turn.reply.tools_used.append(name)
        await turn.out.tool(name, call_id, "calling")

    running = asyncio.ensure_future(asyncio.gather(*(_one(turn, *use) for use in uses)))
    interrupted: asyncio.CancelledError | None = None
    while not running.done():
        try:
            await asyncio.shield(running)
        except asyncio.CancelledError as exc:
            if running.cancelled():
                raise
            interrupted = exc
    results = []
    for (call_id, name, tool_input, _), (outcome, card) in zip(uses, running.result(), strict=True):
        turn.reply.parts.append(
            {
                "type": "tool",
                "name": name,
                "call_id": call_id,
                "input": _storable_input(tool_input),
                "output": outcome.output,
                "is_error": outcome.is_error,
            }
        )
        if card:
            turn.reply.add_card(card)
        results.append(tool_result_block(call_id, scrub_data(outcome.output), outcome.is_error, turn.sent_outputs))
    if interrupted is not None:
        raise interrupted
    return results


async def _one(
    turn: Turn, call_id: str, name: str, tool_input: dict, input_error: bool
) -> tuple[ToolOutcome, dict | None]:
    """One call, its frames and its card (the turn draws cards; the catalog says how)."""
    began = time.monotonic()
    try:
        refused = BAD_INPUT if input_error else _refused_input(tool_input)
        if refused:
            outcome = ToolOutcome(refused, True, tool=name)
        else:
            outcome = await execute_tool(turn.ctx, name=name, call_id=call_id, tool_input=tool_input)
    except Exception:
        log.exception("tool %s raised", name)
        outcome = ToolOutcome(FAILED, True, tool=name)
    turn.run.tool_call(name=name, call_id=call_id, started=began, output=outcome.output, is_error=outcome.is_error)
    await turn.out.tool(name, call_id, "error" if outcome.is_error else "done")
    card = card_of(outcome, language=turn.ctx.language)
    if card:
        await turn.out.spec(card)
    return outcome, card


def _refused_input(tool_input) -> dict | None:
    """The text rule and the depth limit for a model's tool input (docs/security.md): an INVALID_INPUT result
    the model can read and correct, before anything runs."""
    if data_too_deep(tool_input):
        message = f"The tool input nests deeper than {MAX_JSON_DEPTH} levels; nothing was run."
        return {"error": {"code": "INVALID_INPUT", "message": message}}
    path = unstorable_path(tool_input)
    if path is not None:
        message = f"input.{path} has a NUL character or an unpaired surrogate; nothing was run. Send plain text."
        return {"error": {"code": "INVALID_INPUT", "message": message}}
    return None


def _storable_input(tool_input):
    """The input as the tool part keeps it: too deep to keep is noted, bad text is replaced."""
    if data_too_deep(tool_input):
        return {"omitted": f"nested deeper than {MAX_JSON_DEPTH} levels"}
    return scrub_data(tool_input)
