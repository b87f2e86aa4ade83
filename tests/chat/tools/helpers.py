import uuid
from dataclasses import dataclass

from asgiref.sync import async_to_sync

from chat.tools import ToolContext, card_of, decide_approval, execute_tool, tool_context


def ctx_for(user, *, thread_id=None, allowed_tools=None) -> ToolContext:
    return tool_context(user, thread_id=thread_id or uuid.uuid4(), allowed_tools=allowed_tools)


@dataclass(frozen=True)
class Called:
    """A tool's outcome with the card a turn draws from it."""

    output: dict
    is_error: bool
    card: dict | None


def _called(ctx, outcome) -> Called:
    return Called(outcome.output, outcome.is_error, card_of(outcome, language=ctx.language))


def call(ctx, name, tool_input=None, *, call_id=None) -> Called:
    """execute_tool from a sync test; the tool's own DB work runs in a worker thread."""
    outcome = async_to_sync(execute_tool)(
        ctx,
        name=name,
        call_id=call_id or f"toolu_{uuid.uuid4().hex}",
        tool_input={} if tool_input is None else tool_input,
    )
    return _called(ctx, outcome)


def decide(ctx, approval_id, decision) -> Called:
    return _called(ctx, async_to_sync(decide_approval)(ctx, approval_id=approval_id, decision=decision))
