"""Cards (docs/contract/cards.md): `{"kind", "version": 1, ...}` built by this code from a tool's name, its validated
input and its output. The model authors no card; the only model text that reaches one is what a UI tool's
strict schema let through (labels, prompts, form fields).

Each card names the `event` its clicks send back as a `ui_event` frame.
"""

from decimal import Decimal, InvalidOperation

from chat.kinds import GOAL_KINDS
from zeus.errors import ValidationFailed
from zeus.money import format_amount, parse_amount, quantize

VERSION = 1
PERIOD_TITLES = {
    "this_month": "this month",
    "last_month": "last month",
    "last_30_days": "the last 30 days",
    "last_90_days": "the last 90 days",
}


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


def welcome(name, tool_input, output):
    return _card("welcome", title="What would you like to do?", event="action_selected", prompts=output["prompts"])


def asset_suggestions(name, tool_input, output):
    return _card(
        "asset_suggestions",
        title="Add your first asset",
        event="quick_create_selected",
        options=[{**o, "label": o["name"]} for o in output["options"]],
    )


def quick_create(name, tool_input, output):
    return _card("quick_create", title="Create an asset", event="quick_create_selected", items=output["items"])


def quick_form(name, tool_input, output):
    return _card(
        "quick_form", title=output["title"], intent=output["intent"], event="form_submit", fields=output["fields"]
    )


def goal_form(name, tool_input, output):
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


def smart_actions(name, tool_input, output):
    return _card("smart_actions", event="action_selected", actions=output["actions"])


def chart(name, tool_input, output):
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
        converted=output.get("converted", []),
        rate_missing=output.get("rate_missing", []),
    )


def recurring(name, tool_input, output):
    """What is due and what it costs: each series with its next date and its monthly and yearly cost, and
    the totals of what goes out."""
    due = output.get("due_within_days")
    kind = output.get("kind", "all")
    if due is not None:
        title = "Due today" if due == 0 else f"Due in the next {due} days"
    else:
        title = {"subscription": "Your subscriptions", "bill": "Your bills", "income": "Your regular income"}.get(
            kind, "Your recurring payments"
        )
    return _card(
        "recurring",
        title=title,
        status=output.get("status", "active"),
        series_kind=kind,
        due_within_days=due,
        items=[
            {
                "id": s["id"],
                "merchant": s["merchant"],
                "kind": s["kind"],
                "interval": s["interval"],
                "amount": s["amount"],
                "currency": s["currency"],
                "next_on": s["next_on"],
                "status": s["status"],
                "monthly_cost": s["monthly_cost"],
                "yearly_cost": s["yearly_cost"],
            }
            for s in output["series"]
        ],
        totals=output.get("totals", []),
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


def transaction(name, tool_input, output):
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
    if output.get("status") == "confirmation_required":
        return _confirm(name, output)
    return _record_summary(name, output, "transaction", output.get("transaction"), _transaction_items)


def asset(name, tool_input, output):
    if output.get("status") == "confirmation_required":
        return _confirm(name, output)
    return _record_summary(name, output, "asset", output.get("asset"), _asset_items)


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


def delete_question(output: dict) -> tuple[str, str]:
    """What a pending delete asks, as (title, message): the confirm card shows it, MCP returns it as the
    summary of a confirmation_required result."""
    if "transaction" in output:
        title, detail = "Delete this transaction?", _describe_transaction(output["transaction"])
    elif "budget" in output:
        budget = output["budget"]
        title = "Delete this budget?"
        detail = f"{_label(budget['category'])}: {_amount(budget['amount'], budget['currency'])} a month"
    else:
        asset = output["asset"]
        title = "Delete this asset?"
        detail = f"{asset['name']} ({_label(asset['kind'])}, {_amount(asset['balance'], asset['currency'])})"
    return title, f"{detail}. This cannot be undone."


def delete_confirm_card(name, output):
    """The confirm card of a pending delete (chat.cards_ahead's budgets use it too)."""
    return _confirm(name, output)


def _confirm(name, output):
    title, message = delete_question(output)
    return _card(
        "confirm",
        tool=name,
        approval_id=output["approval_id"],
        expires_at=output["expires_at"],
        title=title,
        message=message,
        confirm_label="Delete",
        reject_label="Cancel",
        event="confirm",
    )


def goal(name, tool_input, output):
    goal = output["goal"]
    items = [
        {"label": "Name", "value": goal["name"]},
        {"label": "Kind", "value": _label(goal["kind"])},
        {"label": "Target", "value": _amount(goal["target_amount"], goal["currency"])},
        {"label": "Deadline", "value": goal["deadline"]},
        {"label": "Monthly needed", "value": _amount(goal["monthly_needed"], goal["currency"])},
    ]
    return _summary(name, "created", "Goal created", {"type": "goal", "id": goal["id"]}, items)


def transaction_draft(name, tool_input, output):
    """A bank text read into a draft: what it says, where it goes, and Save / Discard (`draft_decision`).
    When the ledger already holds the payment (a feed or statement row), `duplicate_of` names it and the
    card offers only to discard."""
    draft = output["draft"]
    items = [
        {"label": "Amount", "value": _amount(draft["amount"], draft["currency"])},
        {"label": "Type", "value": _label(draft["direction"])},
        {"label": "When", "value": draft["occurred_at"]},
        {"label": "Description", "value": draft["description"] or "—"},
        {"label": "Category", "value": _label(draft["category"])},
    ]
    if draft["parsed_by"] == "vietqr":
        # A pasted VietQR: the account it pays into, not one of the user's.
        items.append({"label": "To", "value": f"{draft['bank']} {draft['account_mask']}"})
    else:
        if draft.get("bank"):
            items.append({"label": "Bank", "value": draft["bank"]})
        if draft.get("account_mask"):
            items.append({"label": "Account", "value": draft["account_mask"]})
    return _card(
        "transaction_draft",
        draft_id=draft["draft_id"],
        event="draft_decision",
        title="Already in your ledger" if draft.get("duplicate_of") else "Save this transaction?",
        amount=draft["amount"],
        currency=draft["currency"],
        direction=draft["direction"],
        date=draft["occurred_at"][:10],
        occurred_at=draft["occurred_at"],
        description=draft["description"],
        category=draft["category"],
        bank=draft.get("bank"),
        account_mask=draft.get("account_mask"),
        asset_id=draft.get("asset_id"),
        linked_account_id=draft.get("linked_account_id"),
        duplicate_of=draft.get("duplicate_of"),
        parsed_by=draft["parsed_by"],
        items=items,
        decisions=["discard"] if draft.get("duplicate_of") else ["save", "discard"],
    )


def draft_decided(name, tool_input, output):
    if output.get("discarded"):
        return _summary(name, "cancelled", "Draft discarded; nothing was saved.", None, [])
    return transaction(name, tool_input, output)


def rule(name, tool_input, output):
    record = output["rule"]
    items = [
        {"label": "Text", "value": record["match"]},
        {"label": "Category", "value": _label(record["category"])},
        {"label": "Applied to", "value": f"{output.get('applied', 0)} existing transaction(s)"},
    ]
    return _summary(name, "created", "Rule created", {"type": "rule", "id": record["id"]}, items)
