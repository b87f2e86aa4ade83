"""What every tool family shares: the context, the outcome, the tool record and the JSON shapes."""

import datetime as dt
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from assets import categories
from chat import kinds
from zeus.errors import ZeusError
from zeus.money import quantize
from zeus.selectors import profile_get
from zeus.timeutil import user_today

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator


@dataclass(frozen=True)
class ToolContext:
    user: object  # the authenticated user; tools never take a user id
    thread_id: uuid.UUID
    today: dt.date  # the user's today (zeus.timeutil.user_today)
    currency: str  # the user's currency
    timezone: str  # the user's IANA timezone
    language: str = "vi"  # the language the user reads Zeus in (profile.language)
    # The current workflow's tool names; a call outside them is refused. None allows the whole catalog.
    allowed_tools: tuple[str, ...] | None = None


def tool_context(
    user, *, thread_id, allowed_tools: tuple[str, ...] | None = None, today: dt.date | None = None
) -> ToolContext:
    """The one way to build a ToolContext (chat turns, MCP, the demo data): the user's currency and timezone
    read once, from their profile, and their today (the demo seeds at a fixed one). Blocking."""
    profile = profile_get(user=user)
    return ToolContext(
        user=user,
        thread_id=thread_id,
        today=today or user_today(user),
        currency=profile.currency,
        timezone=profile.timezone,
        language=profile.language,
        allowed_tools=allowed_tools,
    )


@dataclass(frozen=True)
class ToolOutcome:
    """What a call did. The card the chat draws from it is built by the turn (chat.tools.card_of)."""

    output: dict
    is_error: bool
    tool: str | None = None  # the tool that produced it; for a decided approval, the one the approval was for
    tool_input: dict | None = None  # the validated input (for a decided approval, the approved arguments)


READ, MUTATION, CONFIRM, UI = "read", "mutation", "confirm", "ui"

# The workflows a chat turn can run (chat.router picks one per turn). A tool names the workflows that offer it;
# a workflow's tool subset is whatever names it.
WORKFLOWS = (
    "coach",
    "bundle_create",
    "asset_create",
    "asset_update",
    "asset_delete",
    "create",
    "update",
    "delete",
    "inspect",
    "bank_text",
)


@dataclass(frozen=True)
class Tool:
    name: str
    family: str  # READ, MUTATION (recorded for replay), CONFIRM (a delete behind an approval), UI
    description: str
    input_schema: dict
    handler: Callable[[ToolContext, dict], dict]
    # For CONFIRM tools: the effect that runs once the user approves, and the check done before asking.
    execute: Callable[[ToolContext, dict], dict] | None = None
    workflows: tuple[str, ...] = ()  # the chat workflows that offer it (WORKFLOWS); none: MCP only
    # (name, validated input, output) → the chat card for a successful result, or None (chat.cards)
    card: Callable[[str, dict, dict], dict | None] | None = None

    def __post_init__(self):
        unknown = set(self.workflows) - set(WORKFLOWS)
        if unknown:
            raise ValueError(f"{self.name}: unknown workflows {sorted(unknown)}")

    @property
    def validator(self) -> "Draft202012Validator":
        """Built on the tool's first call, not when the catalog is imported: every process imports the
        catalog at start, few of them run a tool. Each schema is checked by tests/chat/tools/test_catalog.py."""
        built = self.__dict__.get("_validator")
        if built is None:
            from jsonschema import Draft202012Validator

            built = Draft202012Validator(self.input_schema)
            object.__setattr__(self, "_validator", built)
        return built

    @property
    def writes(self) -> bool:
        """It changes the user's data (now, or once they approve)."""
        return self.family in (MUTATION, CONFIRM)

    def definition(self) -> dict:
        return {"name": self.name, "description": self.description, "input_schema": self.input_schema}


class BadToolInput(ZeusError):
    code = "INVALID_INPUT"


def error_output(exc: ZeusError) -> dict:
    return {"error": exc.as_dict()}


def error(code: str, message: str, *, tool: str | None = None) -> ToolOutcome:
    return ToolOutcome(output={"error": {"code": code, "message": message}}, is_error=True, tool=tool)


def validate_input(tool: Tool, tool_input) -> dict:
    return validated(tool.name, tool.validator, tool_input)


def validated(name: str, validator: "Draft202012Validator", tool_input) -> dict:
    """The one input check of every tool call, chat and MCP alike: a JSON object that fits the schema."""
    if not isinstance(tool_input, dict):
        raise BadToolInput(f"{name} takes a JSON object.")
    problems = sorted(validator.iter_errors(tool_input), key=lambda e: list(e.absolute_path))
    if problems:
        first = problems[0]
        where = ".".join(str(p) for p in first.absolute_path) or "input"
        raise BadToolInput(f"{where}: {first.message}", fields={where: [first.message]})
    return tool_input


def schema(properties: dict, required: tuple[str, ...] = ()) -> dict:
    out = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        out["required"] = list(required)
    return out


AMOUNT = {
    "type": ["number", "string"],
    "description": "A positive amount: a number or text with shorthand (150k, 1.5m, 2tr, 2 triệu, 150.000, $12.50).",
}
DATE = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$", "description": "A date as YYYY-MM-DD."}
ID = {"type": "integer", "minimum": 1}
CURRENCY = {"type": "string", "pattern": "^[A-Za-z]{3}$", "description": "ISO code; defaults to the user's."}
CATEGORY = {"type": "string", "enum": list(categories.ALL)}
DIRECTION = {"type": "string", "enum": ["expense", "income"]}
ASSET_KINDS, GOAL_KINDS = kinds.ASSET_KINDS, kinds.GOAL_KINDS


def money(amount: Decimal, currency: str) -> str:
    return str(quantize(amount, currency))


def transaction_out(txn, *, ledger: dict | None = None) -> dict:
    """A row as the tools show it. `ledger`: its `transfer` and `split` as the REST shows them
    (assets.ledger.selectors.transaction_ledger_fields, or transaction_ledgers for a page); without it,
    a paired transfer is named by its id alone and the split is not read."""
    if ledger is None:
        paired = {"id": txn.transfer_id, "counterpart": None, "status": "paired"} if txn.transfer_id else None
        ledger = {"transfer": paired, "split": None}
    return {
        "id": txn.id,
        "occurred_on": txn.occurred_on.isoformat(),
        "amount": money(txn.amount, txn.currency),
        "currency": txn.currency,
        "direction": txn.direction,
        "description": txn.description,
        "category": txn.category,
        "source": txn.source,
        "asset_id": txn.asset_id,
        "editable": txn.editable,
        "note": txn.note,
        "excluded": txn.excluded,  # left out of every total by its owner
        "transfer": ledger["transfer"],  # a paired transfer counts nowhere; a suggested one still counts
        "split": ledger["split"],
    }


def asset_out(asset) -> dict:
    return {
        "id": asset.id,
        "name": asset.name,
        "kind": asset.kind,
        "balance": money(asset.balance, asset.currency),
        "currency": asset.currency,
        "source": asset.source,
        "editable": asset.editable,
    }


def goal_out(goal, progress) -> dict:
    return {
        "id": goal.id,
        "name": goal.name,
        "kind": goal.kind,
        "target_amount": money(goal.target_amount, goal.currency),
        "current_amount": money(goal.current_amount, goal.currency),
        "currency": goal.currency,
        "deadline": goal.deadline.isoformat(),
        "status": goal.status,
        "progress_pct": str(progress.progress_pct),
        "monthly_needed": money(progress.monthly_needed, goal.currency),
        "on_track": progress.on_track,
    }
