import json

import pytest

from chat.ui_events import GOAL_FORM_PREFIX, ui_event_to_turn
from zeus.errors import ValidationFailed


def test_action_selected_sends_its_prompt():
    assert ui_event_to_turn("action_selected", {"prompt": "  How much did I spend?  "}) == "How much did I spend?"


@pytest.mark.parametrize("asset_id", [12, "12"])
def test_existing_asset_selected(asset_id):
    assert ui_event_to_turn("existing_asset_selected", {"asset_id": asset_id}) == "Use my asset #12 for that"


def test_quick_create_selected_quotes_the_name_safely():
    assert ui_event_to_turn("quick_create_selected", {"kind": "cash", "name": "Cash"}) == (
        'Create a manual asset named "Cash" (kind: cash).'
    )
    text = ui_event_to_turn("quick_create_selected", {"kind": "e_wallet", "name": 'Ví "MoMo"'})
    assert text == 'Create a manual asset named "Ví \\"MoMo\\"" (kind: e_wallet).'


def test_a_goal_form_becomes_the_exact_json_prompt():
    values = {
        "deadline": "10 years",
        "target_amount": "2 tỷ",
        "kind": "house",
        "name": " Nhà  mới ",
        "current_amount": "",
        "currency": "vnd",
    }
    text = ui_event_to_turn("form_submit", {"intent": "create_goal", "values": values})

    assert text.startswith(GOAL_FORM_PREFIX)
    assert text == (
        'Create a financial goal using this form data JSON exactly: {"name": "Nhà mới", "kind": "house", '
        '"target_amount": "2 tỷ", "deadline": "10 years", "currency": "VND"}'
    )
    assert json.loads(text.removeprefix(GOAL_FORM_PREFIX))["deadline"] == "10 years"


def test_other_forms_carry_their_data_json():
    text = ui_event_to_turn("form_submit", {"intent": "create_txn", "values": {"amount": 150000, "note": " KFC "}})
    assert text == 'Submit the create_txn form with this form data JSON: {"amount": 150000, "note": "KFC"}'


def test_confirm_results():
    ok = ui_event_to_turn(
        "confirm_result",
        {"tool": "delete_manual_transaction", "decision": "approve", "output": {"deleted": True}},
    )
    no = ui_event_to_turn("confirm_result", {"tool": "delete_manual_asset", "decision": "reject", "output": {}})
    failed = ui_event_to_turn(
        "confirm_result",
        {
            "tool": "delete_manual_asset",
            "decision": "approve",
            "output": {"error": {"code": "APPROVAL_EXPIRED", "message": "expired"}},
        },
    )
    assert ok == 'I approved the delete_manual_transaction confirmation. Result JSON: {"deleted": true}'
    assert no == "I rejected the delete_manual_asset confirmation, so nothing was deleted."
    assert "did not go through" in failed and "APPROVAL_EXPIRED" in failed
    unknown = ui_event_to_turn(
        "confirm_result",
        {"tool": None, "decision": "approve", "output": {"error": {"code": "NOT_FOUND", "message": "No such."}}},
    )
    assert unknown.startswith("I answered the confirmation (approve), but it did not go through.")


@pytest.mark.parametrize(
    ("event", "payload"),
    [
        ("teleport", {}),
        ("confirm", {"approval_id": "x", "decision": "approve"}),
        ("action_selected", {}),
        ("action_selected", {"prompt": "   "}),
        ("action_selected", {"prompt": "x" * 4001}),
        ("action_selected", {"prompt": "hi", "extra": 1}),
        ("action_selected", ["prompt"]),
        ("existing_asset_selected", {"asset_id": 0}),
        ("existing_asset_selected", {"asset_id": True}),
        ("existing_asset_selected", {"asset_id": "12; drop"}),
        ("existing_asset_selected", {"asset_id": 1.5}),
        ("quick_create_selected", {"kind": "boat", "name": "x"}),
        ("quick_create_selected", {"kind": "cash"}),
        ("quick_create_selected", {"kind": "cash", "name": "x" * 101}),
        ("form_submit", {"intent": "create_goal"}),
        ("form_submit", {"intent": "Create Goal", "values": {}}),
        ("form_submit", {"intent": "create_goal", "values": []}),
        ("form_submit", {"intent": "create_goal", "values": {"name": "H", "kind": "house", "deadline": "10 years"}}),
        (
            "form_submit",
            {"intent": "create_goal", "values": {"name": "H", "kind": "yacht", "target_amount": "1", "deadline": "1y"}},
        ),
        (
            "form_submit",
            {
                "intent": "create_goal",
                "values": {"name": "H", "kind": "house", "target_amount": "lots", "deadline": "1y"},
            },
        ),
        (
            "form_submit",
            {
                "intent": "create_goal",
                "values": {"name": "H", "kind": "house", "target_amount": "1m", "deadline": "soon"},
            },
        ),
        (
            "form_submit",
            {
                "intent": "create_goal",
                "values": {"name": "H", "kind": "house", "target_amount": "1m", "deadline": "1y", "user_id": 2},
            },
        ),
        ("form_submit", {"intent": "x", "values": {"Bad Key": 1}}),
        ("form_submit", {"intent": "x", "values": {"a": {"nested": 1}}}),
        ("form_submit", {"intent": "x", "values": {f"f{i}": "y" * 400 for i in range(12)}}),
        ("confirm_result", {"tool": "create_goal", "decision": "approve", "output": {}}),
        ("confirm_result", {"tool": "delete_manual_asset", "decision": "maybe", "output": {}}),
    ],
)
def test_malformed_events_are_bad_frames(event, payload):
    with pytest.raises(ValidationFailed) as exc:
        ui_event_to_turn(event, payload)
    assert exc.value.code == "BAD_FRAME"
