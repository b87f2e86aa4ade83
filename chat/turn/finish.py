"""How a turn ends. The reply (unless there is nothing to keep) and the tokens it spent are stored in one trip
that also frees the thread, before `done` or `error` goes out: the client may send its next message the
moment it hears either, and that message must never be refused as TURN_IN_PROGRESS. The run audit follows,
once the client has its answer."""

import asyncio
import logging
import time

from chat import audit
from chat.figures import unverified_figures
from chat.models import Message
from chat.off_loop import off_loop, run_off_loop
from chat.pricing import quantize_cost
from chat.services import assistant_reply_record
from chat.turn.data import Turn, TurnResult
from chat.turn.sent import sent_record
from zeus.text import scrub_data

log = logging.getLogger(__name__)

_runs_writing: set[asyncio.Task] = set()


def metadata(turn: Turn) -> dict:
    """The stored reply's `metadata` (docs/contract/websocket.md)."""
    reply = turn.reply
    built = {
        "workflow": turn.route.workflow,
        "model": turn.model,
        "usage": {**reply.usage, "cost_usd": str(quantize_cost(turn.run.cost()))},
        "unverified_figures": list(turn.run.unverified_figures),
        "duration_ms": round((time.monotonic() - turn.started) * 1000),
        "decided_by": turn.route.decided_by,
        "model_calls": reply.model_calls,
    }
    if turn.sent_messages is not None or turn.sent_router is not None:
        built["sent_to_model"] = True  # what was sent is readable under the reply (chat/turn/sent.py)
    if turn.admin:
        built["admin_initiated"] = True
    if turn.error:
        built["aborted"] = True
        built["error"] = turn.error
    return built


def check_figures(turn: Turn) -> list[str]:
    """The reply's money figures and percentages that no tool result of this turn (nor the user's own
    words, nor a staff prompt) supports (chat/figures.py); kept on the run for the audit."""
    parts = turn.reply.parts
    text = "\n".join(p["text"] for p in parts if p.get("type") == "text")
    sources = [p.get("output") for p in parts if p.get("type") == "tool" and not p.get("is_error")]
    turn.run.unverified_figures = unverified_figures(text, [*sources, turn.user_text, *turn.steering])
    return turn.run.unverified_figures


async def done(turn: Turn) -> TurnResult:
    check_figures(turn)
    message = await _store(turn, keep_message=True)
    await turn.out.done(message, tools_used=list(dict.fromkeys(turn.reply.tools_used)), workflow=turn.route.workflow)
    return TurnResult("done", message=message)


async def failed(turn: Turn, code: str, text: str) -> TurnResult:
    """A stop, the deadline or a failure: what the user saw and what the tools did is kept, marked aborted."""
    turn.error = code
    turn.reply.flush_text()
    check_figures(turn)
    message = await _store(turn, keep_message=bool(turn.reply.parts))
    await turn.out.error(code, text)
    return TurnResult("error", message=message, error=code)


def _store_then_release(turn: Turn, parts: list[dict] | None, reply_metadata: dict | None) -> Message | None:
    try:
        return assistant_reply_record(
            thread_id=turn.thread_id,
            parts=parts,
            metadata=reply_metadata,
            charged_to=None if turn.admin else turn.run.user_id,
            day=turn.run.day,
            tokens=turn.run.budget_tokens(),
            cost_usd=turn.run.cost(),
            sent=sent_record(
                facts=turn.sent_facts,
                messages=turn.sent_messages,
                router=turn.sent_router,
                withheld=turn.withheld,
                outputs=turn.sent_outputs,
            )
            if parts is not None
            else None,
        )
    finally:
        if turn.lock is not None:
            turn.lock.release_sync()


_db_store = off_loop(_store_then_release)


async def _store(turn: Turn, *, keep_message: bool) -> Message | None:
    turn.reply.flush_text()
    # Whatever a tool echoed or a card quoted, the reply must be storable in one piece (docs/security.md).
    parts = scrub_data(turn.reply.parts) if keep_message else None
    turn.saving = asyncio.ensure_future(_db_store(turn, parts, metadata(turn) if keep_message else None))
    # Shielded: a second stop or a disconnect while saving must not lose what the user already saw.
    return await asyncio.shield(turn.saving)


async def record_run(turn: Turn) -> None:
    """The turn's run audit. A turn cut before it could store its end (a second stop, a disconnect while
    finishing) is recorded as STOPPED, its tokens still counted. The write runs to its end even if the turn
    is cancelled again meanwhile."""
    task = asyncio.ensure_future(_write_run(turn))
    _runs_writing.add(task)
    task.add_done_callback(_runs_writing.discard)
    await asyncio.shield(task)


async def _write_run(turn: Turn) -> None:
    try:
        if turn.saving is None:
            turn.error = "STOPPED"
            await _db_store(turn, None, None)
            message = None
        else:
            message = await turn.saving
        outcome, code = audit.outcome_of(turn.error)
        await run_off_loop(
            audit.run_record,
            run={
                "record": turn.run,
                "workflow": turn.route.workflow,
                "decided_by": turn.route.decided_by,
                "outcome": outcome,
                "error_code": code,
            },
            assistant_message_id=message.id if message else None,
        )
    except Exception:
        log.exception("could not record the run of a turn in thread %s", turn.thread_id)
