"""The MCP server: the chat's tool catalog (minus the card-only UI tools) plus `confirm_action`.

Each call runs `chat.tools.execute_tool` for the user the bearer token belongs to, exactly as a chat turn does:
same validation, replay records, approvals and 16 KiB cap. What differs is only how the caller is identified and
how a delete is confirmed (no cards here: the first call's result carries the approval id, and the client calls
`confirm_action`).
"""

import json
import logging
import uuid

from django.db import IntegrityError, transaction
from django.utils import translation
from jsonschema import Draft202012Validator
from mcp import types
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

from chat.cards import delete_question
from chat.off_loop import run_off_loop
from chat.tools import (
    CATALOG,
    ToolContext,
    ToolOutcome,
    decide_approval,
    execute_tool,
    tool_context,
    tool_definitions,
)
from chat.tools.base import CONFIRM, READ, UI, BadToolInput, error, error_output, validated
from chat.tools.runner import execution_record, replayed
from zeus.consent import CONSENT_REQUIRED, CONSENT_REQUIRED_MESSAGE

log = logging.getLogger(__name__)

CONFIRM_TOOL = "confirm_action"
# The UI tools only draw chat cards (forms, pickers, suggestion chips); an MCP client has nowhere to show them.
CATALOG_TOOLS: tuple[str, ...] = tuple(name for name, tool in CATALOG.items() if tool.family != UI)
IDEMPOTENCY_KEY = "idempotency_key"
KEY_REUSED = "This idempotency key was already used for a different call."
MAX_IDEMPOTENCY_KEY = 120  # the call id it becomes ("mcp:" + key) must fit the runner's 128
# Approvals are bound to a thread; an MCP token's calls share one synthetic thread derived from the token.
THREAD_NAMESPACE = uuid.UUID("6f1c2a52-9a4e-4f43-9d1e-6a8f0c3b7e21")

INSTRUCTIONS = """\
Zeus personal finance: read and record the signed-in user's transactions, assets, budgets and goals.
Amounts accept shorthand (150k, 1.5m, 2tr, $12.50); dates are YYYY-MM-DD and default to the user's today.
Synced records (editable false) are read only. Where a tool description mentions a card: over MCP there are
no cards. A delete's first call deletes nothing and returns status confirmation_required with an approval_id
and a summary; ask the user, then call confirm_action with that approval_id and approve or reject (it expires
after 10 minutes and works once). create_manual_transaction may answer asset_required: ask which asset and call
it again with asset_id (or asset_id null). Send _meta.idempotency_key with a tools/call to make a retry of
the same call return the stored result instead of acting twice.
"""

CONFIRM_SCHEMA = {
    "type": "object",
    "properties": {
        "approval_id": {"type": "string", "minLength": 1, "maxLength": 64, "description": "From the delete's result."},
        "decision": {"type": "string", "enum": ["approve", "reject"]},
    },
    "required": ["approval_id", "decision"],
    "additionalProperties": False,
}
_confirm_validator = Draft202012Validator(CONFIRM_SCHEMA)

_ANNOTATIONS = {
    READ: types.ToolAnnotations(read_only_hint=True, open_world_hint=False),
    CONFIRM: types.ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False),
}
_WRITES = types.ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)


def _listed_tools() -> list[types.Tool]:
    tools = [
        types.Tool(
            name=d["name"],
            description=d["description"],
            input_schema=d["input_schema"],
            annotations=_ANNOTATIONS.get(CATALOG[d["name"]].family, _WRITES),
        )
        for d in tool_definitions(CATALOG_TOOLS)
    ]
    confirm = types.Tool(
        name=CONFIRM_TOOL,
        description=(
            "Approve or reject a pending deletion. A delete tool's first call only returns an approval_id and a "
            "summary; after the user decides, call this once with that approval_id. It runs the stored deletion "
            "at most once and expires 10 minutes after it was asked for."
        ),
        input_schema=CONFIRM_SCHEMA,
        annotations=types.ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False),
    )
    return [*tools, confirm]


TOOLS = _listed_tools()
INPUT_SCHEMAS = {t.name: t.input_schema for t in TOOLS}


def thread_for(token_id: int) -> uuid.UUID:
    return uuid.uuid5(THREAD_NAMESPACE, f"mcp-token:{token_id}")


async def list_tools(ctx: ServerRequestContext, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(tools=TOOLS)


async def call_tool(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> types.CallToolResult:
    outcome = await _call(ctx, params)
    output = _for_mcp(outcome)
    return types.CallToolResult(
        content=[types.TextContent(text=json.dumps(output, ensure_ascii=False))],
        structured_content=output,
        is_error=outcome.is_error,
    )


async def _call(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> ToolOutcome:
    user = ctx.request.scope.get("user") if ctx.request is not None else None
    tool_ctx = getattr(user.access_token, "context", None) if isinstance(user, AuthenticatedUser) else None
    if not isinstance(tool_ctx, ToolContext):
        # The HTTP layer answers 401 before this; a transport without it must not run anything either.
        return error("UNAUTHENTICATED", "An MCP token is required.")
    if not getattr(user.access_token, "consent_given", False):
        # Nothing runs, not even a read: its result would go to the client's model.
        with translation.override(tool_ctx.language):
            return error(CONSENT_REQUIRED, str(CONSENT_REQUIRED_MESSAGE))
    key = (params.meta or {}).get(IDEMPOTENCY_KEY)
    if key is not None and (not isinstance(key, str) or not 1 <= len(key) <= MAX_IDEMPOTENCY_KEY):
        return error(
            "INVALID_INPUT", f"_meta.{IDEMPOTENCY_KEY} must be a string of 1 to {MAX_IDEMPOTENCY_KEY} characters."
        )
    # Without a key every call is new: a retried call acts again (see docs/mcp.md).
    call_id = f"mcp:{key if key is not None else uuid.uuid4().hex}"
    arguments = params.arguments or {}
    if params.name == CONFIRM_TOOL:
        return await _confirm(tool_ctx, call_id if key is not None else None, arguments)
    return await execute_tool(tool_ctx, name=params.name, call_id=call_id, tool_input=arguments)


async def _confirm(tool_ctx: ToolContext, call_id: str | None, arguments: dict) -> ToolOutcome:
    try:
        arguments = validated(CONFIRM_TOOL, _confirm_validator, arguments)
    except BadToolInput as exc:
        return ToolOutcome(output=error_output(exc), is_error=True)
    if call_id is not None:
        stored = await run_off_loop(replayed, tool_ctx, call_id, CONFIRM_TOOL, arguments, reused=KEY_REUSED)
        if stored is not None:
            return stored
    outcome = await decide_approval(tool_ctx, **arguments)
    if call_id is not None and _claimed(outcome):
        outcome = await run_off_loop(_record_confirm, tool_ctx, call_id, arguments, outcome)
    return outcome


# decide_approval answers these without having moved the approval; anything else means this call decided it.
_NOT_CLAIMED = {"NOT_FOUND", "APPROVAL_USED", "APPROVAL_EXPIRED", "INVALID_INPUT", "TOOL_FAILED"}


def _claimed(outcome: ToolOutcome) -> bool:
    return not outcome.is_error or outcome.output.get("error", {}).get("code") not in _NOT_CLAIMED


def _record_confirm(tool_ctx: ToolContext, call_id: str, arguments: dict, outcome: ToolOutcome) -> ToolOutcome:
    """Stores the decision under the key, as the runner does for mutations, so a replay returns it.

    Only the call that claimed the approval gets here, so no concurrent run of the same key can have stored a
    different outcome first."""
    try:
        with transaction.atomic():
            execution_record(tool_ctx, call_id, CONFIRM_TOOL, arguments, outcome.output, outcome.is_error)
    except IntegrityError:
        # The key was used meanwhile for another tool: the decision stands, the key keeps its first meaning.
        log.warning("idempotency key %s reused while confirming", call_id)
    return outcome


def _for_mcp(outcome: ToolOutcome) -> dict:
    """The tool output, with the chat's card-shaped next steps said in MCP terms."""
    output = outcome.output
    status = output.get("status")
    if status == "confirmation_required":
        # The summary is for the client's model, which speaks to the user in their language itself.
        with translation.override("en"):
            title, message = delete_question(output)
        return {
            **output,
            "summary": f"{title} {message}",
            "message": (
                "Nothing was deleted yet. Show the user the summary; if they confirm, call confirm_action with "
                "this approval_id and decision approve (or reject). It expires at expires_at and works once."
            ),
        }
    if status == "asset_required":
        return {
            **output,
            "message": (
                "Nothing was recorded yet. Ask the user which of these assets it was paid from or into, then call "
                "create_manual_transaction again with the same fields and that asset_id (or asset_id null)."
            ),
        }
    return output


def tool_context_for(user, *, token_id: int) -> ToolContext:
    return tool_context(user, thread_id=thread_for(token_id), allowed_tools=CATALOG_TOOLS)


def build_server() -> Server:
    return Server(
        "zeus",
        version="1",
        instructions=INSTRUCTIONS,
        get_tool_input_schema=INPUT_SCHEMAS.get,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )
