import json

import pytest
from django.utils import translation

from chat.tools import card_for


@pytest.fixture(autouse=True)
def english():
    """These read the cards' shapes in English; tests/chat/tools/test_cards_vi.py reads them in Vietnamese."""
    with translation.override("en"):
        yield


TXN = {
    "id": 7,
    "occurred_on": "2026-11-29",
    "amount": "150000",
    "currency": "VND",
    "direction": "expense",
    "description": "KFC",
    "category": "dining",
    "source": "manual",
    "asset_id": None,
    "editable": True,
}
ASSET = {"id": 3, "name": "Cash", "kind": "cash", "balance": "200000", "currency": "VND", "source": "manual"}
ASSET_EDITABLE = {**ASSET, "editable": True}

CASES = {
    "welcome": ("show_welcome_suggestions", {}, {"prompts": [{"label": "Hi", "prompt": "Hello"}]}),
    "asset_suggestions": ("suggest_asset_creation", {}, {"options": [{"kind": "cash", "name": "Cash"}]}),
    "quick_create": ("show_quick_create_suggestion", {}, {"items": [{"kind": "cash", "name": "Cash"}]}),
    "quick_form": (
        "show_quick_form",
        {},
        {"title": "T", "intent": "x", "fields": [{"name": "a", "label": "A", "type": "text", "required": False}]},
    ),
    "goal_form": (
        "show_goal_planning_form",
        {},
        {
            "intent": "create_goal",
            "currency": "VND",
            "values": {"name": "", "kind": "savings", "target_amount": "", "deadline": ""},
        },
    ),
    "smart_actions": ("show_smart_actions", {}, {"actions": [{"label": "A", "prompt": "P"}]}),
    "asset_selector": (
        "create_manual_transaction",
        {"amount": "150k", "description": "KFC"},
        {
            "status": "asset_required",
            "pending": {"amount": "150k", "description": "KFC"},
            "assets": [ASSET_EDITABLE, {**ASSET_EDITABLE, "id": 4, "name": "MoMo"}],
        },
    ),
    "confirm": (
        "delete_manual_transaction",
        {"transaction_id": 7},
        {
            "status": "confirmation_required",
            "approval_id": "5b0c9d4e-0000-4000-8000-000000000000",
            "expires_at": "2026-11-29T10:10:00+00:00",
            "transaction": TXN,
        },
    ),
    "chart": (
        "summarize_spending",
        {},
        {
            "period": "this_month",
            "since": "2026-11-01",
            "until": "2026-11-29",
            "group_by": "category",
            "currency": "VND",
            "total": "150000",
            "groups": [{"label": "dining", "amount": "150000"}],
        },
    ),
    "result_summary": ("create_manual_transaction", {}, {"created": True, "transaction": TXN}),
}


def test_every_card_kind_is_built_with_version_1():
    for kind, (tool, tool_input, output) in CASES.items():
        card = card_for(tool, tool_input, output, False)
        assert card["kind"] == kind and card["version"] == 1
        json.dumps(card)


def test_cards_are_deterministic():
    for tool, tool_input, output in CASES.values():
        assert card_for(tool, tool_input, output, False) == card_for(tool, tool_input, output, False)


def test_errors_and_plain_reads_have_no_card():
    assert card_for("create_manual_transaction", {}, {"error": {"code": "X", "message": "m"}}, True) is None
    assert card_for("list_transactions", {}, {"transactions": []}, False) is None
    assert card_for("no_such_tool", {}, {}, False) is None


def test_the_asset_selector_lists_ids_and_what_is_pending():
    card = card_for(*CASES["asset_selector"], False)
    assert [a["id"] for a in card["assets"]] == [3, 4]
    assert card["assets"][0]["balance_display"] == "₫200,000"
    assert card["pending"] == {"description": "KFC", "amount": "150000", "currency": "VND"}
    assert card["event"] == "existing_asset_selected"


def test_the_asset_selector_reads_the_pending_shorthand_as_the_tool_will():
    # The page formats card amounts as decimal strings: the model's "150k" must not reach it raw.
    name, tool_input, output = CASES["asset_selector"]
    usd = card_for(name, tool_input, {**output, "pending": {"amount": "$12.5", "description": "Lunch"}}, False)
    assert usd["pending"] == {"description": "Lunch", "amount": "12.50", "currency": "USD"}
    odd = card_for(name, tool_input, {**output, "pending": {"amount": "a lot", "description": "Taxi"}}, False)
    assert odd["pending"]["amount"] == "a lot"


def test_the_confirm_card_carries_the_approval_and_describes_the_record():
    card = card_for(*CASES["confirm"], False)
    assert card["approval_id"] == "5b0c9d4e-0000-4000-8000-000000000000"
    assert card["message"] == "KFC: ₫150,000 on Nov 29, 2026. This cannot be undone."
    assert card["tool"] == "delete_manual_transaction" and card["event"] == "confirm"


def test_the_chart_is_a_series_of_labelled_amounts():
    card = card_for(*CASES["chart"], False)
    assert card["chart"] == "bar" and card["currency"] == "VND"
    assert card["series"] == [{"label": "Dining", "key": "dining", "amount": "150000"}]


def test_result_summaries_for_deletes_and_rejections():
    deleted = card_for("delete_manual_asset", {}, {"deleted": True, "asset": ASSET_EDITABLE}, False)
    rejected = card_for("delete_manual_asset", {}, {"status": "rejected", "message": "m"}, False)
    assert (deleted["kind"], deleted["status"], deleted["record"]) == (
        "result_summary",
        "deleted",
        {"type": "asset", "id": 3},
    )
    assert rejected["status"] == "cancelled" and rejected["record"] is None
