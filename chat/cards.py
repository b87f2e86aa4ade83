"""Cards (CONTRACT §3.5): `{"kind", "version": 1, ...}` built by this code from a tool's name, its validated
input and its output. The model authors no card; the only model text that reaches one is what a UI tool's
strict schema let through (labels, prompts, form fields).

Each card names the `event` its clicks send back as a `ui_event` frame.
"""

from decimal import Decimal, InvalidOperation

from zeus.errors import ValidationFailed
from zeus.money import format_amount, parse_amount, quantize

VERSION = 1
GOAL_KINDS = ["house", "retirement", "savings", "education", "emergency_fund", "other"]
PERIOD_TITLES = {
    "this_month": "this month",
    "last_month": "last month",
    "last_30_days": "the last 30 days",
    "last_90_days": "the last 90 days",
}


def card_for(tool_name: str, tool_input: dict, output: dict, is_error: bool) -> dict | None:
    """The card for one tool result, or None (reads other than summarize_spending, and every error)."""
    if is_error or not isinstance(output, dict) or "error" in output:
        return None
    builder = _BUILDERS.get(tool_name)
    return builder(tool_name, tool_input or {}, output) if builder else None


def _card(kind: str, **body) -> dict:
    return {"kind": kind, "version": VERSION, **body}


def _amount(value: str, currency: str) -> str:
    try:
        return format_amount(Decimal(value), currency)
    except (InvalidOperation, KeyError, ValueError, TypeError):
        return f"{value} {currency}"


def _pending_amount(value) -> tuple[Decimal | None, str | None]:
    """The pending call's amount as typed ("150k") → (150000, currency the text named); the page shows
    card amounts as decimal strings, so the shorthand is read here, as the tool will read it."""
    try:
        parsed = parse_amount(value)
    except ValidationFailed:
        return None, None
    return parsed.amount, parsed.currency


def _decimal_text(amount: Decimal, currency: str) -> str:
    try:
        return str(quantize(amount, currency))
    except (KeyError, ValueError, ValidationFailed):
        return str(amount)


def _label(key: str) -> str:
    return key.replace("_", " ").capitalize()


def _welcome(name, tool_input, output):
    return _card("welcome", title="What would you like to do?", event="action_selected", prompts=output["prompts"])


def _asset_suggestions(name, tool_input, output):
    return _card(
        "asset_suggestions",
        title="Add your first asset",
        event="quick_create_selected",
        options=[{**o, "label": o["name"]} for o in output["options"]],
    )


def _quick_create(name, tool_input, output):
    return _card("quick_create", title="Create an asset", event="quick_create_selected", items=output["items"])


def _quick_form(name, tool_input, output):
    return _card(
        "quick_form", title=output["title"], intent=output["intent"], event="form_submit", fields=output["fields"]
    )


def _goal_form(name, tool_input, output):
    values = output["values"]
    fields = [
        {"name": "name", "label": "Goal name", "type": "text", "required": True, "value": values["name"]},
        {
            "name": "kind",
            "label": "Kind",
            "type": "select",
            "options": GOAL_KINDS,
            "required": True,
            "value": values["kind"],
        },
        {
            "name": "target_amount",
            "label": f"Target amount ({output['currency']})",
            "type": "text",
            "required": True,
            "value": values["target_amount"],
        },
        {"name": "deadline", "label": "Deadline", "type": "date", "required": True, "value": values["deadline"]},
        {
            "name": "current_amount",
            "label": f"Already saved ({output['currency']})",
            "type": "text",
            "required": False,
            "value": "",
        },
    ]
    return _card(
        "goal_form",
        title="Plan your goal",
        intent="create_goal",
        event="form_submit",
        currency=output["currency"],
        fields=fields,
    )


def _smart_actions(name, tool_input, output):
    return _card("smart_actions", event="action_selected", actions=output["actions"])


def _chart(name, tool_input, output):
    currency = output["currency"]
    by_category = output["group_by"] == "category"
    return _card(
        "chart",
        chart="line" if output["group_by"] == "day" else "bar",
        title=f"Spending by {output['group_by']}, {PERIOD_TITLES[output['period']]}",
        period=output["period"],
        group_by=output["group_by"],
        since=output["since"],
        until=output["until"],
        currency=currency,
        total=output["total"],
        series=[
            {"label": _label(g["label"]) if by_category else g["label"], "key": g["label"], "amount": g["amount"]}
            for g in output["groups"]
        ],
    )


def _transaction_items(txn: dict) -> list[dict]:
    return [
        {"label": "Description", "value": txn["description"] or "—"},
        {"label": "Amount", "value": _amount(txn["amount"], txn["currency"])},
        {"label": "Type", "value": _label(txn["direction"])},
        {"label": "Category", "value": _label(txn["category"])},
        {"label": "Date", "value": txn["occurred_on"]},
    ]


def _asset_items(asset: dict) -> list[dict]:
    return [
        {"label": "Name", "value": asset["name"]},
        {"label": "Kind", "value": _label(asset["kind"])},
        {"label": "Balance", "value": _amount(asset["balance"], asset["currency"])},
    ]


def _summary(name: str, status: str, title: str, record: dict | None, items: list[dict]) -> dict:
    return _card("result_summary", tool=name, status=status, title=title, record=record, items=items)


def _transaction(name, tool_input, output):
    if output.get("status") == "asset_required":
        pending = output["pending"]
        amount, named = _pending_amount(pending["amount"])
        currency = pending.get("currency") or named or (output["assets"][0]["currency"] if output["assets"] else "")
        paid = "into" if pending.get("direction") == "income" else "from"
        return _card(
            "asset_selector",
            title=f"Which asset was this paid {paid}?",
            event="existing_asset_selected",
            pending={
                "description": pending.get("description", ""),
                "amount": _decimal_text(amount, currency) if amount is not None else str(pending["amount"]),
                "currency": currency,
            },
            assets=[
                {k: a[k] for k in ("id", "name", "kind", "balance", "currency")}
                | {"balance_display": _amount(a["balance"], a["currency"])}
                for a in output["assets"]
            ],
        )
    txn = output.get("transaction")
    if output.get("status") == "confirmation_required":
        return _confirm(name, output, "Delete this transaction?", _describe_transaction(txn))
    return _record_summary(name, output, "transaction", txn, _transaction_items)


def _asset(name, tool_input, output):
    asset = output.get("asset")
    if output.get("status") == "confirmation_required":
        detail = f"{asset['name']} ({_label(asset['kind'])}, {_amount(asset['balance'], asset['currency'])})"
        return _confirm(name, output, "Delete this asset?", detail)
    return _record_summary(name, output, "asset", asset, _asset_items)


def _record_summary(name, output, noun, record, items):
    if output.get("status") == "rejected":
        return _summary(name, "cancelled", f"Kept the {noun}; nothing was deleted.", None, [])
    for status in ("created", "updated", "deleted"):
        if output.get(status):
            ref = {"type": noun, "id": record["id"]}
            return _summary(name, status, f"{noun.capitalize()} {status}", ref, items(record))
    return None


def _describe_transaction(txn: dict) -> str:
    what = txn["description"] or _label(txn["category"])
    return f"{what}: {_amount(txn['amount'], txn['currency'])} on {txn['occurred_on']}"


def _confirm(name, output, title, detail):
    return _card(
        "confirm",
        tool=name,
        approval_id=output["approval_id"],
        expires_at=output["expires_at"],
        title=title,
        message=f"{detail}. This cannot be undone.",
        confirm_label="Delete",
        reject_label="Cancel",
        event="confirm",
    )


def _goal(name, tool_input, output):
    goal = output["goal"]
    items = [
        {"label": "Name", "value": goal["name"]},
        {"label": "Kind", "value": _label(goal["kind"])},
        {"label": "Target", "value": _amount(goal["target_amount"], goal["currency"])},
        {"label": "Deadline", "value": goal["deadline"]},
        {"label": "Monthly needed", "value": _amount(goal["monthly_needed"], goal["currency"])},
    ]
    return _summary(name, "created", "Goal created", {"type": "goal", "id": goal["id"]}, items)


_BUILDERS = {
    "summarize_spending": _chart,
    "create_goal": _goal,
    "create_manual_transaction": _transaction,
    "update_manual_transaction": _transaction,
    "delete_manual_transaction": _transaction,
    "create_manual_asset": _asset,
    "update_manual_asset": _asset,
    "delete_manual_asset": _asset,
    "show_welcome_suggestions": _welcome,
    "suggest_asset_creation": _asset_suggestions,
    "show_quick_form": _quick_form,
    "show_goal_planning_form": _goal_form,
    "show_quick_create_suggestion": _quick_create,
    "show_smart_actions": _smart_actions,
}
