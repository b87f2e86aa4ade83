"""Server-side turns for the fake websocket, as lists of CONTRACT §3.2 frames ("$ID" is the answered frame's id)."""

import datetime as dt
import uuid

MUTATIONS = {"create_goal", "create_manual_transaction", "delete_manual_transaction"}


def assistant(text="", *, parts=None, metadata=None):
    return {
        "id": str(uuid.uuid4()),
        "role": "assistant",
        "parts": parts if parts is not None else [{"type": "text", "text": text}],
        "metadata": metadata or {"workflow": "coach", "model": "claude-sonnet-4-5"},
        "created_at": dt.datetime.now(dt.UTC).isoformat(),
    }


def turn(*, text="", tools=(), cards=(), workflow="coach", delay=0, hold=False):
    """ack → phase → tool calls → cards → streamed tokens → done; `hold` leaves the turn open (no done)."""
    frames = [{"type": "ack", "id": "$ID"}, {"type": "phase", "phase": "thinking"}]
    parts = []
    for name in tools:
        call_id = f"toolu_{uuid.uuid4().hex[:12]}"
        frames += [
            {"type": "tool", "name": name, "call_id": call_id, "status": "calling"},
            {"$delay": delay},
            {"type": "tool", "name": name, "call_id": call_id, "status": "done"},
        ]
        parts.append({"type": "tool", "name": name, "call_id": call_id, "input": {}, "output": {}, "is_error": False})
    for card in cards:
        frames.append({"type": "spec", "spec": card})
        parts.append({"type": "spec", "spec": card})
    frames.append({"type": "phase", "phase": "generating"})
    for word in text.split(" "):
        frames += [{"$delay": delay}, {"type": "token", "text": word + " "}]
    if text:
        parts.append({"type": "text", "text": text})
    if hold:
        return frames
    frames.append({"type": "done", "message": assistant(parts=parts), "tools_used": list(tools), "workflow": workflow})
    return frames


ASSET_SELECTOR = {
    "kind": "asset_selector",
    "version": 1,
    "title": "Which asset paid for KFC?",
    "assets": [
        {"id": 12, "name": "Cash wallet", "kind": "cash", "balance": "850000", "currency": "VND", "editable": True},
        {"id": 31, "name": "Techcombank", "kind": "bank_account", "balance": "12500000", "currency": "VND"},
    ],
}

GOAL_FORM = {
    "kind": "goal_form",
    "version": 1,
    "title": "Plan your house goal",
    "goal_kind": "house",
    "name": "Buy a house",
}

CONFIRM_DELETE = {
    "kind": "confirm",
    "version": 1,
    "approval_id": "apr_7f3c",
    "tool": "delete_manual_transaction",
    "summary": "Delete the transaction “KFC” of 150,000 ₫ on 29 Nov?",
    "details": {"description": "KFC", "amount": "150000", "currency": "VND", "occurred_on": "2026-11-29"},
}

CHART = {
    "kind": "chart",
    "version": 1,
    "title": "Spending this month by category",
    "period": "this_month",
    "group_by": "category",
    "currency": "VND",
    "series": [
        {"label": "dining", "amount": "1250000"},
        {"label": "groceries", "amount": "2300000"},
        {"label": "transport", "amount": "450000"},
    ],
}

WEEKLY_CHART = {
    "kind": "chart",
    "version": 1,
    "title": "Spending by week",
    "group_by": "week",
    "currency": "USD",
    "series": [
        {"label": "Nov 3", "amount": "120.50"},
        {"label": "Nov 10", "amount": "80.00"},
        {"label": "Nov 17", "amount": "150.25"},
        {"label": "Nov 24", "amount": "60.00"},
    ],
}

WELCOME = {
    "kind": "welcome",
    "version": 1,
    "title": "Welcome back",
    "prompts": [{"label": "Review dining", "prompt": "Why is my dining spend high?"}, "Show my goals"],
}

SMART_ACTIONS = {
    "kind": "smart_actions",
    "version": 1,
    "actions": [
        {"label": "Add another", "prompt": "Add another expense"},
        {"label": "See budget", "prompt": "Budgets"},
    ],
}

QUICK_CREATE = {
    "kind": "quick_create",
    "version": 1,
    "title": "Create an asset to pay from",
    "items": [{"kind": "cash", "name": "Cash"}, {"kind": "e_wallet", "name": "MoMo"}],
}

QUICK_FORM = {
    "kind": "quick_form",
    "version": 1,
    "title": "New expense",
    "intent": "create_transaction",
    "fields": [
        {"name": "amount", "label": "Amount", "type": "number", "required": True},
        {"name": "category", "label": "Category", "type": "select", "options": ["dining", "groceries"]},
        {"name": "occurred_on", "label": "Date", "type": "date"},
    ],
}

RESULT_SUMMARY = {
    "kind": "result_summary",
    "version": 1,
    "title": "Transaction deleted",
    "summary": "KFC, 150,000 ₫ on 29 Nov, is gone.",
}
