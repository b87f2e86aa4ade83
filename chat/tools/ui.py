"""UI tools: they write nothing. Each validated input becomes the output, and the output becomes a card."""

from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from chat import cards
from chat.tools.base import (
    AMOUNT,
    ASSET_KINDS,
    GOAL_KINDS,
    UI,
    WORKFLOWS,
    BadToolInput,
    Tool,
    ToolContext,
    schema,
)
from goals.progress import resolve_deadline
from suggestions.selectors import suggestion_list_active
from zeus.errors import ValidationFailed
from zeus.money import parse_money

SLUG = {"type": "string", "pattern": r"^[a-z][a-z0-9_]{0,39}$"}
LABEL = {"type": "string", "minLength": 1, "maxLength": 60, "pattern": r"\S"}
PROMPT = {"type": "string", "minLength": 1, "maxLength": 500, "pattern": r"\S"}

# In the reader's language: a tapped prompt becomes the user's own message.
STARTER_PROMPTS = (
    {"label": _("How much did I spend this month?"), "prompt": _("How much did I spend this month, by category?")},
    {"label": _("Record an expense"), "prompt": "KFC 150k"},
    {"label": _("Plan a goal"), "prompt": _("I want to buy a house in 10 years")},
    {"label": _("Show my accounts"), "prompt": _("Show my accounts and assets")},
)
WELCOME_LIMIT = 6

ASSET_OPTIONS = (
    {"kind": "cash", "name": _("Cash")},
    {"kind": "bank_account", "name": _("Bank account")},
    {"kind": "e_wallet", "name": _("E-wallet")},
    {"kind": "savings", "name": _("Savings")},
)


def _in_language(ctx: ToolContext, items) -> list[dict]:
    with translation.override(ctx.language):
        return [{k: str(v) for k, v in item.items()} for item in items]


def show_welcome_suggestions(ctx: ToolContext, args: dict) -> dict:
    """Starter prompts: the user's active suggestions first, then the fixed starters."""
    prompts = [{"label": s["title"][:60], "prompt": s["prompt"]} for s in _active_suggestions(ctx) if s["prompt"]]
    prompts += _in_language(ctx, STARTER_PROMPTS)
    return {"prompts": prompts[:WELCOME_LIMIT]}


def _active_suggestions(ctx: ToolContext) -> list[dict]:
    with translation.override(ctx.language):
        return [
            {"title": s.words.title, "prompt": s.words.prompt} for s in suggestion_list_active(user=ctx.user, limit=3)
        ]


def suggest_asset_creation(ctx: ToolContext, args: dict) -> dict:
    return {"options": _in_language(ctx, ASSET_OPTIONS)}


def show_quick_form(ctx: ToolContext, args: dict) -> dict:
    names = [f["name"] for f in args["fields"]]
    if len(set(names)) != len(names):
        raise BadToolInput("Field names must be unique.")
    fields = []
    for f in args["fields"]:
        if (f["type"] == "select") != bool(f.get("options")):
            raise BadToolInput(f"Field {f['name']}: options go with type select, and select needs options.")
        field = {"name": f["name"], "label": f["label"], "type": f["type"], "required": f.get("required", False)}
        if f.get("options"):
            field["options"] = list(f["options"])
        fields.append(field)
    return {"title": args["title"], "intent": args["intent"], "fields": fields}


def show_goal_planning_form(ctx: ToolContext, args: dict) -> dict:
    values = {"name": args.get("name", ""), "kind": args.get("kind", "savings"), "target_amount": "", "deadline": ""}
    if "target_amount" in args:
        values["target_amount"] = str(parse_money(args["target_amount"], ctx.currency, field="target_amount"))
    if "deadline" in args:
        deadline = resolve_deadline(args["deadline"], today=ctx.today)
        if deadline <= ctx.today:
            raise ValidationFailed(
                gettext("The deadline must be in the future."), fields={"deadline": [gettext("In the future.")]}
            )
        values["deadline"] = deadline.isoformat()
    return {"intent": "create_goal", "currency": ctx.currency, "values": values}


def show_quick_create_suggestion(ctx: ToolContext, args: dict) -> dict:
    return {"items": [{"kind": i["kind"], "name": i["name"]} for i in args["items"]]}


def show_smart_actions(ctx: ToolContext, args: dict) -> dict:
    return {"actions": [{"label": a["label"], "prompt": a["prompt"]} for a in args["actions"]]}


TOOLS = (
    Tool(
        name="show_welcome_suggestions",
        family=UI,
        workflows=("coach", "bundle_create", "create"),
        card=cards.welcome,
        description="Show the user a welcome card with starter prompts they can tap.",
        input_schema=schema({}),
        handler=show_welcome_suggestions,
    ),
    Tool(
        name="suggest_asset_creation",
        family=UI,
        workflows=("coach", "bundle_create", "asset_create", "create"),
        card=cards.asset_suggestions,
        description="Offer one-tap choices to create a first asset (cash, bank account, e-wallet, savings).",
        input_schema=schema({}),
        handler=suggest_asset_creation,
    ),
    Tool(
        name="show_quick_form",
        family=UI,
        workflows=("coach", "bundle_create", "asset_create", "asset_update", "create", "update"),
        card=cards.quick_form,
        description=(
            "Show a small form to collect several fields at once instead of asking one by one. The user's "
            "submission comes back as a message with the form data JSON."
        ),
        input_schema=schema(
            {
                "title": {"type": "string", "minLength": 1, "maxLength": 80, "pattern": r"\S"},
                "fields": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 8,
                    "items": schema(
                        {
                            "name": SLUG,
                            "label": LABEL,
                            "type": {"type": "string", "enum": ["text", "number", "date", "select"]},
                            "options": {"type": "array", "minItems": 1, "maxItems": 20, "items": LABEL},
                            "required": {"type": "boolean"},
                        },
                        required=("name", "label", "type"),
                    ),
                },
                "intent": {**SLUG, "description": "What the form is for, e.g. create_transaction."},
            },
            required=("title", "fields", "intent"),
        ),
        handler=show_quick_form,
    ),
    Tool(
        name="show_goal_planning_form",
        family=UI,
        workflows=("coach", "bundle_create", "create"),
        card=cards.goal_form,
        description=(
            "Show a goal planning form, prefilled with what the user already said (kind, name, target_amount, "
            "deadline as YYYY-MM-DD or '10 years'). Its submission asks you to create the goal."
        ),
        input_schema=schema(
            {
                "kind": {"type": "string", "enum": GOAL_KINDS},
                "name": {"type": "string", "minLength": 1, "maxLength": 100},
                "target_amount": AMOUNT,
                "deadline": {"type": "string", "minLength": 1, "maxLength": 40},
            }
        ),
        handler=show_goal_planning_form,
    ),
    Tool(
        name="show_quick_create_suggestion",
        family=UI,
        workflows=("coach", "bundle_create", "asset_create", "create"),
        card=cards.quick_create,
        description="Offer one-tap cards to create specific manual assets (kind and name each).",
        input_schema=schema(
            {
                "items": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 6,
                    "items": schema(
                        {"kind": {"type": "string", "enum": ASSET_KINDS}, "name": {**LABEL, "maxLength": 100}},
                        required=("kind", "name"),
                    ),
                }
            },
            required=("items",),
        ),
        handler=show_quick_create_suggestion,
    ),
    Tool(
        name="show_smart_actions",
        family=UI,
        workflows=WORKFLOWS,
        card=cards.smart_actions,
        description="Offer up to six follow-up buttons; tapping one sends its prompt as the user's message.",
        input_schema=schema(
            {
                "actions": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 6,
                    "items": schema({"label": LABEL, "prompt": PROMPT}, required=("label", "prompt")),
                }
            },
            required=("actions",),
        ),
        handler=show_smart_actions,
    ),
)
