import uuid

from asgiref.sync import async_to_sync

from chat.tools import ToolContext, decide_approval, execute_tool
from zeus.selectors import profile_get
from zeus.timeutil import user_today


def ctx_for(user, *, thread_id=None, allowed_tools=None) -> ToolContext:
    profile = profile_get(user=user)
    return ToolContext(
        user=user,
        thread_id=thread_id or uuid.uuid4(),
        today=user_today(user),
        currency=profile.currency,
        timezone=profile.timezone,
        allowed_tools=allowed_tools,
    )


def call(ctx, name, tool_input=None, *, call_id=None):
    """execute_tool from a sync test; the tool's own DB work runs in a worker thread."""
    return async_to_sync(execute_tool)(
        ctx,
        name=name,
        call_id=call_id or f"toolu_{uuid.uuid4().hex}",
        tool_input={} if tool_input is None else tool_input,
    )


def decide(ctx, approval_id, decision):
    return async_to_sync(decide_approval)(ctx, approval_id=approval_id, decision=decision)
