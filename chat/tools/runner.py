"""Running tools: validation, replay protection for mutations, delete approvals, capping, cards.

Each call does its database work in a worker thread (thread_sensitive=False) so several calls of one model
response really run side by side; the connection is tidied before and after like database_sync_to_async does.
"""

import dataclasses
import datetime as dt
import logging
import uuid

from django.db import IntegrityError, transaction
from django.utils import timezone

from chat.models import Approval, ToolExecution
from chat.off_loop import run_off_loop
from chat.tools.base import (
    CONFIRM,
    MUTATION,
    Tool,
    ToolContext,
    ToolOutcome,
    error,
    error_output,
    validate_input,
)
from chat.tools.capping import cap_output
from chat.tools.registry import CATALOG
from zeus.errors import ZeusError

log = logging.getLogger(__name__)

APPROVAL_TTL = dt.timedelta(minutes=10)
MAX_CALL_ID = 128


async def execute_tool(ctx: ToolContext, *, name: str, call_id: str, tool_input: dict) -> ToolOutcome:
    tool = CATALOG.get(name) if isinstance(name, str) else None
    if tool is None:
        return error("UNKNOWN_TOOL", f"There is no tool named {name!r}.")
    if ctx.allowed_tools is not None and name not in ctx.allowed_tools:
        return error("TOOL_NOT_AVAILABLE", f"{name} is not available for this request.")
    if not isinstance(call_id, str) or not call_id or len(call_id) > MAX_CALL_ID:
        return error("INVALID_INPUT", "A tool call needs an id of at most 128 characters.")
    try:
        return await run_off_loop(_run, ctx, tool, call_id, tool_input)
    except Exception:
        log.exception("tool %s failed (call %s)", name, call_id)
        return error("TOOL_FAILED", f"{name} failed unexpectedly; nothing was changed.")


async def decide_approval(ctx: ToolContext, *, approval_id: str, decision: str) -> ToolOutcome:
    if decision not in ("approve", "reject"):
        return error("INVALID_INPUT", "decision must be approve or reject.")
    try:
        key = uuid.UUID(str(approval_id))
    except ValueError:
        return error("NOT_FOUND", "No such confirmation.")
    try:
        return await run_off_loop(_decide, ctx, key, decision)
    except Exception:
        log.exception("approval %s failed", approval_id)
        return error("TOOL_FAILED", "The confirmed action failed unexpectedly; nothing was changed.")


def _outcome(tool_name: str, tool_input: dict, output: dict, is_error: bool) -> ToolOutcome:
    return ToolOutcome(output=output, is_error=is_error, tool=tool_name, tool_input=tool_input)


def _run(ctx: ToolContext, tool: Tool, call_id: str, tool_input) -> ToolOutcome:
    try:
        args = validate_input(tool, tool_input)
    except ZeusError as exc:
        return ToolOutcome(output=error_output(exc), is_error=True, tool=tool.name)
    if tool.family in (MUTATION, CONFIRM):
        return _recorded(ctx, tool, call_id, args)
    try:
        output = cap_output(tool.handler(ctx, args))
    except ZeusError as exc:
        return ToolOutcome(output=error_output(exc), is_error=True, tool=tool.name)
    return _outcome(tool.name, args, output, "error" in output)


def _recorded(ctx: ToolContext, tool: Tool, call_id: str, args: dict) -> ToolOutcome:
    """Runs a mutation once per (user, call id): its effect and its record commit together."""
    stored = replayed(ctx, call_id, tool.name, args)
    if stored is not None:
        return stored
    try:
        with transaction.atomic():
            try:
                with transaction.atomic():
                    output = tool.handler(ctx, args)
                    if tool.family == CONFIRM:
                        output = _ask_approval(ctx, tool, call_id, args, output)
                is_error = False
            except ZeusError as exc:
                output, is_error = error_output(exc), True
            output = cap_output(output)
            execution_record(ctx, call_id, tool.name, args, output, is_error)
    except IntegrityError:
        # A concurrent run of the same call won the unique row; everything this run wrote is rolled back.
        stored = replayed(ctx, call_id, tool.name, args)
        if stored is None:
            raise
        return stored
    return _outcome(tool.name, args, output, is_error)


REUSED = "This tool call id was already used for a different call."


def replayed(ctx: ToolContext, call_id: str, tool_name: str, args: dict, *, reused: str = REUSED) -> ToolOutcome | None:
    """The one replay path, chat's and MCP's: the stored outcome of this (user, call id), None when the id is
    new, CALL_ID_REUSED when it was used for another call. Blocking."""
    stored = ToolExecution.objects.filter(user=ctx.user, call_id=call_id).first()
    if stored is None:
        return None
    if stored.tool != tool_name or stored.tool_input != args:
        return error("CALL_ID_REUSED", reused)
    return _outcome(stored.tool, stored.tool_input, stored.output, stored.is_error)


def execution_record(ctx: ToolContext, call_id: str, tool_name: str, args: dict, output: dict, is_error: bool) -> None:
    """The row `replayed` answers from; unique per (user, call id). Blocking."""
    ToolExecution.objects.create(
        user=ctx.user,
        thread_id=ctx.thread_id,
        call_id=call_id,
        tool=tool_name,
        tool_input=args,
        output=output,
        is_error=is_error,
    )


def _ask_approval(ctx: ToolContext, tool: Tool, call_id: str, args: dict, target: dict) -> dict:
    approval = Approval.objects.create(
        user=ctx.user,
        thread_id=ctx.thread_id,
        call_id=call_id,
        tool=tool.name,
        arguments=args,
        expires_at=timezone.now() + APPROVAL_TTL,
    )
    return {
        "status": "confirmation_required",
        "approval_id": str(approval.id),
        "expires_at": approval.expires_at.isoformat(),
        "message": (
            "Nothing was deleted yet. The user is asked to confirm on a card; the deletion happens only if they "
            "approve. Do not call this tool again for the same record."
        ),
        **target,
    }


def _decide(ctx: ToolContext, key: uuid.UUID, decision: str) -> ToolOutcome:
    now = timezone.now()
    with transaction.atomic():
        mine = Approval.objects.filter(id=key, user=ctx.user, thread_id=ctx.thread_id)
        status = Approval.Status.APPROVED if decision == "approve" else Approval.Status.REJECTED
        # The claim: only one caller can move a pending, unexpired approval; a racing click updates nothing.
        claimed = mine.filter(status=Approval.Status.PENDING, expires_at__gt=now).update(status=status, decided_at=now)
        if not claimed:
            approval = mine.first()
            if approval is None:
                return error("NOT_FOUND", "No such confirmation.")
            if approval.status != Approval.Status.PENDING:
                refused = error("APPROVAL_USED", "This confirmation was already answered.")
            else:
                refused = error("APPROVAL_EXPIRED", "This confirmation expired; ask again if it is still wanted.")
            return dataclasses.replace(refused, tool=approval.tool)
        approval = mine.get()
        tool = CATALOG[approval.tool]
        if decision == "reject":
            output = {"status": "rejected", "message": "The user declined; nothing was deleted."}
            is_error = False
        else:
            try:
                with transaction.atomic():
                    output = tool.execute(ctx, approval.arguments)
                is_error = False
            except ZeusError as exc:
                output, is_error = error_output(exc), True
        approval.result, approval.result_is_error = output, is_error
        approval.save(update_fields=["result", "result_is_error"])
    return _outcome(tool.name, approval.arguments, output, is_error)
