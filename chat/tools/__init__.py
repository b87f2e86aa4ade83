# STAND-IN for chat-loop tests; the chat-tools branch replaces this file at merge.
"""A few real catalog tools (CONTRACT §3.4) on assets.services, with approvals and replay kept in the cache."""

import datetime as dt
import json
import uuid
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.core.cache import cache

from assets import selectors as asset_selectors
from assets import services as asset_services
from zeus.errors import ZeusError
from zeus.money import quantize

TOOL_GUIDE = "Treat form data JSON as authoritative."


@dataclass(frozen=True)
class ToolContext:
    user: object
    thread_id: uuid.UUID
    today: dt.date
    currency: str
    timezone: str


@dataclass(frozen=True)
class ToolOutcome:
    output: dict
    is_error: bool
    card: dict | None


_AMOUNT = {"type": ["number", "string"], "description": "A number or shorthand such as 150k, 2tr, $12.50."}
_DEFINITIONS = {
    "list_transactions": {
        "description": "List the user's transactions, newest first.",
        "input_schema": {
            "type": "object",
            "properties": {
                "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                "source": {"type": "string", "enum": ["all", "manual", "synced"]},
                "category": {"type": "string"},
                "direction": {"type": "string", "enum": ["expense", "income"]},
                "since": {"type": "string"},
                "until": {"type": "string"},
            },
        },
    },
    "create_manual_transaction": {
        "description": "Record a manual transaction.",
        "input_schema": {
            "type": "object",
            "properties": {
                "amount": _AMOUNT,
                "description": {"type": "string"},
                "direction": {"type": "string", "enum": ["expense", "income"]},
                "category": {"type": "string"},
                "occurred_on": {"type": "string"},
                "currency": {"type": "string"},
                "asset_id": {"type": "integer"},
            },
            "required": ["amount", "description"],
        },
    },
    "update_manual_transaction": {
        "description": "Change a manual transaction.",
        "input_schema": {
            "type": "object",
            "properties": {"transaction_id": {"type": "integer"}, "amount": _AMOUNT, "description": {"type": "string"}},
            "required": ["transaction_id"],
        },
    },
    "delete_manual_transaction": {
        "description": "Delete a manual transaction (the user confirms first).",
        "input_schema": {
            "type": "object",
            "properties": {"transaction_id": {"type": "integer"}},
            "required": ["transaction_id"],
        },
    },
}


def tool_definitions(names) -> list[dict]:
    return [{"name": name, **_DEFINITIONS[name]} for name in _DEFINITIONS if name in names]


def _txn(t) -> dict:
    return {
        "id": t.id,
        "occurred_on": t.occurred_on.isoformat(),
        "amount": str(quantize(t.amount, t.currency)),
        "currency": t.currency,
        "direction": t.direction,
        "description": t.description,
        "category": t.category,
        "source": t.source,
        "asset_id": t.asset_id,
        "editable": t.editable,
    }


def _run(ctx: ToolContext, name: str, tool_input: dict) -> ToolOutcome:
    user = ctx.user
    if name == "list_transactions":
        limit = int(tool_input.get("limit") or 20)
        filters = {k: tool_input.get(k) for k in ("source", "category", "direction", "since", "until")}
        rows = list(asset_selectors.transaction_list(user=user, **filters)[: max(1, min(limit, 100))])
        return ToolOutcome({"transactions": [_txn(t) for t in rows]}, False, None)
    if name == "create_manual_transaction":
        t = asset_services.transaction_create(user=user, **tool_input)
        return ToolOutcome({"transaction": _txn(t)}, False, {"kind": "result_summary", "version": 1, "tool": name})
    if name == "update_manual_transaction":
        changes = dict(tool_input)
        t = asset_services.transaction_update(user=user, transaction_id=changes.pop("transaction_id", None), **changes)
        return ToolOutcome({"transaction": _txn(t)}, False, {"kind": "result_summary", "version": 1, "tool": name})
    if name == "delete_manual_transaction":
        t = asset_selectors.transaction_get(user=user, transaction_id=tool_input.get("transaction_id"))
        if not t.editable:
            asset_services.transaction_delete(user=user, transaction_id=t.id)
        approval_id = uuid.uuid4().hex
        cache.set(
            f"standin:approval:{approval_id}",
            {"user": user.id, "thread": str(ctx.thread_id), "tool": name, "input": tool_input},
            600,
        )
        return ToolOutcome(
            {"status": "awaiting_confirmation", "approval_id": approval_id},
            False,
            {"kind": "confirm", "version": 1, "approval_id": approval_id, "tool": name},
        )
    return ToolOutcome({"error": {"code": "UNKNOWN_TOOL", "message": f"No tool {name}."}}, True, None)


def _execute(ctx: ToolContext, name: str, call_id: str, tool_input: dict) -> ToolOutcome:
    replay_key = f"standin:call:{ctx.user.id}:{call_id}"
    stored = cache.get(replay_key)
    if stored is not None:
        return ToolOutcome(**stored)
    try:
        outcome = _run(ctx, name, tool_input if isinstance(tool_input, dict) else {})
    except ZeusError as exc:
        outcome = ToolOutcome({"error": {"code": exc.code, "message": exc.message}}, True, None)
    except (TypeError, ValueError) as exc:
        outcome = ToolOutcome({"error": {"code": "BAD_INPUT", "message": str(exc)}}, True, None)
    json.dumps(outcome.output)
    if name != "list_transactions":
        cache.set(replay_key, {"output": outcome.output, "is_error": outcome.is_error, "card": outcome.card}, 3600)
    return outcome


async def execute_tool(ctx: ToolContext, *, name: str, call_id: str, tool_input: dict) -> ToolOutcome:
    return await sync_to_async(_execute, thread_sensitive=True)(ctx, name, call_id, tool_input)


def _decide(ctx: ToolContext, approval_id: str, decision: str) -> ToolOutcome:
    key = f"standin:approval:{approval_id}"
    stored = cache.get(key)
    if not stored or stored["user"] != ctx.user.id or stored["thread"] != str(ctx.thread_id):
        return ToolOutcome({"error": {"code": "APPROVAL_NOT_FOUND", "message": "No such approval."}}, True, None)
    cache.delete(key)
    if decision != "approve":
        return ToolOutcome({"status": "rejected"}, False, {"kind": "result_summary", "version": 1})
    try:
        asset_services.transaction_delete(user=ctx.user, transaction_id=stored["input"].get("transaction_id"))
    except ZeusError as exc:
        return ToolOutcome({"error": {"code": exc.code, "message": exc.message}}, True, None)
    return ToolOutcome({"status": "deleted", "tool": stored["tool"]}, False, {"kind": "result_summary", "version": 1})


async def decide_approval(ctx: ToolContext, *, approval_id: str, decision: str) -> ToolOutcome:
    return await sync_to_async(_decide, thread_sensitive=True)(ctx, approval_id, decision)
