"""Server-side turns for the fake websocket, as lists of frames (docs/contract/websocket.md; "$ID" is the
answered frame's id)."""

import datetime as dt
import uuid

MUTATIONS = {"create_goal", "create_manual_transaction", "delete_manual_transaction"}


def assistant(text="", *, parts=None, metadata=None):
    return {
        "id": str(uuid.uuid4()),
        "role": "assistant",
        "parts": parts if parts is not None else [{"type": "text", "text": text}],
        "metadata": metadata or {"workflow": "coach", "model": "claude-sonnet-5-5"},
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


# Shapes as the catalog (chat/cards.py on the chat-tools branch) builds them.
ASSET_SELECTOR = {
    "kind": "asset_selector",
    "version": 1,
    "title": "Which asset was this paid from?",
    "event": "existing_asset_selected",
    "pending": {"description": "KFC", "amount": "150000", "currency": "VND"},
    "assets": [
        {
            "id": 12,
            "name": "Cash wallet",
            "kind": "cash",
            "balance": "850000",
            "currency": "VND",
            "balance_display": "850,000 ₫",
        },
        {
            "id": 31,
            "name": "Techcombank",
            "kind": "bank_account",
            "balance": "12500000",
            "currency": "VND",
            "balance_display": "12,500,000 ₫",
        },
    ],
}

GOAL_FORM = {
    "kind": "goal_form",
    "version": 1,
    "title": "Plan your goal",
    "intent": "create_goal",
    "event": "form_submit",
    "currency": "VND",
    "fields": [
        {"name": "name", "label": "Goal name", "type": "text", "required": True, "value": "Buy a house"},
        {
            "name": "kind",
            "label": "Kind",
            "type": "select",
            "required": True,
            "value": "house",
            "options": ["house", "retirement", "savings", "education", "emergency_fund", "other"],
        },
        {"name": "target_amount", "label": "Target amount (VND)", "type": "text", "required": True, "value": ""},
        {"name": "deadline", "label": "Deadline", "type": "date", "required": True, "value": ""},
        {"name": "current_amount", "label": "Already saved (VND)", "type": "text", "required": False, "value": ""},
    ],
}

# The same form described by values only, as the contract's show_goal_planning_form input reads.
GOAL_FORM_FROM_VALUES = {
    "kind": "goal_form",
    "version": 1,
    "goal_kind": "retirement",
    "name": "Retire early",
    "target_amount": "5000000000",
    "deadline": "20 years",
}

CONFIRM_DELETE = {
    "kind": "confirm",
    "version": 1,
    "tool": "delete_manual_transaction",
    "approval_id": "apr_7f3c",
    "expires_at": "2026-11-29T08:11:00Z",
    "title": "Delete this transaction?",
    "message": "KFC: 150,000 ₫ on 2026-11-29. This cannot be undone.",
    "confirm_label": "Delete",
    "reject_label": "Cancel",
    "event": "confirm",
}

CHART = {
    "kind": "chart",
    "version": 1,
    "chart": "bar",
    "title": "Spending by category, this month",
    "period": "this_month",
    "group_by": "category",
    "since": "2026-11-01",
    "until": "2026-11-29",
    "currency": "VND",
    "total": "4000000",
    "series": [
        {"label": "Dining", "key": "dining", "amount": "1250000"},
        {"label": "Groceries", "key": "groceries", "amount": "2300000"},
        {"label": "Transport", "key": "transport", "amount": "450000"},
    ],
}

WEEKLY_CHART = {
    "kind": "chart",
    "version": 1,
    "chart": "line",
    "title": "Spending by day",
    "group_by": "day",
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
    "title": "What would you like to do?",
    "event": "action_selected",
    "prompts": [
        {"label": "Review dining", "prompt": "Why is my dining spend high?"},
        {"label": "Record an expense", "prompt": "KFC 150k"},
    ],
}

SMART_ACTIONS = {
    "kind": "smart_actions",
    "version": 1,
    "event": "action_selected",
    "actions": [
        {"label": "Add another", "prompt": "Add another expense"},
        {"label": "See budget", "prompt": "Budgets"},
    ],
}

ASSET_SUGGESTIONS = {
    "kind": "asset_suggestions",
    "version": 1,
    "title": "Add your first asset",
    "event": "quick_create_selected",
    "options": [
        {"kind": "cash", "name": "Cash", "label": "Cash"},
        {"kind": "bank_account", "name": "Bank", "label": "Bank"},
    ],
}

QUICK_CREATE = {
    "kind": "quick_create",
    "version": 1,
    "title": "Create an asset",
    "event": "quick_create_selected",
    "items": [{"kind": "cash", "name": "Cash"}, {"kind": "e_wallet", "name": "MoMo"}],
}

QUICK_FORM = {
    "kind": "quick_form",
    "version": 1,
    "title": "New expense",
    "intent": "create_transaction",
    "event": "form_submit",
    "fields": [
        {"name": "amount", "label": "Amount", "type": "number", "required": True},
        {"name": "category", "label": "Category", "type": "select", "options": ["dining", "groceries"]},
        {"name": "occurred_on", "label": "Date", "type": "date"},
    ],
}

RESULT_SUMMARY = {
    "kind": "result_summary",
    "version": 1,
    "tool": "delete_manual_transaction",
    "status": "deleted",
    "title": "Transaction deleted",
    "record": {"type": "transaction", "id": 1},
    "items": [
        {"label": "Description", "value": "KFC"},
        {"label": "Amount", "value": "150,000 ₫"},
        {"label": "Date", "value": "2026-11-29"},
    ],
}
