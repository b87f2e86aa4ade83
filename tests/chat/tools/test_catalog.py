import json

import pytest

from chat.tools import TOOL_GUIDE, TOOL_NAMES, WORKFLOW_TOOLS, tool_definitions
from chat.tools.capping import MAX_RESULT_BYTES, cap_output
from tests import factories
from tests.chat.tools.helpers import call

CONTRACT_TOOLS = {
    "list_transactions": {"limit", "source", "category", "direction", "since", "until"},
    "list_linked_accounts": set(),
    "list_assets": {"source"},
    "list_budgets": {"month"},
    "list_goals": {"status"},
    "list_smart_suggestions": {"limit"},
    "summarize_spending": {"period", "group_by"},
    "list_recurring": {"status", "kind", "due_within_days"},
    "create_goal": {"name", "kind", "target_amount", "deadline", "current_amount", "currency"},
    "create_manual_transaction": {
        "amount", "description", "direction", "category", "occurred_on", "currency", "asset_id",
    },
    "update_manual_transaction": {
        "transaction_id", "amount", "description", "direction", "category", "occurred_on", "currency", "asset_id",
        "note", "excluded",
    },
    "list_transfers": {"status"},
    "mark_transfer": {"outgoing_id", "incoming_id", "transfer_id", "decision"},
    "delete_manual_transaction": {"transaction_id"},
    "create_manual_asset": {"name", "kind", "balance", "currency"},
    "update_manual_asset": {"asset_id", "name", "kind", "balance"},
    "delete_manual_asset": {"asset_id"},
    "show_welcome_suggestions": set(),
    "suggest_asset_creation": set(),
    "show_quick_form": {"title", "fields", "intent"},
    "show_goal_planning_form": {"kind", "name", "target_amount", "deadline"},
    "show_quick_create_suggestion": {"items"},
    "show_smart_actions": {"actions"},
}  # fmt: skip


def test_every_tool_schema_is_a_valid_json_schema():
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    from chat.tools import CATALOG

    for tool in CATALOG.values():
        Draft202012Validator.check_schema(tool.input_schema)
    broken = {"type": "object", "properties": {"n": {"type": "integer", "minimum": "one"}}}
    with pytest.raises(SchemaError):
        Draft202012Validator.check_schema(broken)


def test_the_catalog_has_exactly_the_contract_tools_and_fields():
    defs = tool_definitions(list(CONTRACT_TOOLS))
    assert {d["name"]: set(d["input_schema"]["properties"]) for d in defs} == CONTRACT_TOOLS
    for d in defs:
        assert d["input_schema"]["additionalProperties"] is False
        assert d["description"]


def test_amount_inputs_accept_numbers_and_strings():
    for d in tool_definitions(TOOL_NAMES):
        for field in ("amount", "target_amount", "current_amount", "balance"):
            if field in d["input_schema"]["properties"]:
                assert d["input_schema"]["properties"][field]["type"] == ["number", "string"]


def test_definitions_are_in_catalog_order_and_byte_stable():
    first = tool_definitions(["show_smart_actions", "list_assets", "create_goal", "nope"])
    assert [d["name"] for d in first] == ["list_assets", "create_goal", "show_smart_actions"]
    first[-1]["cache_control"] = {"type": "ephemeral"}
    again = tool_definitions(["show_smart_actions", "list_assets", "create_goal"])
    assert "cache_control" not in again[-1]
    assert json.dumps(tool_definitions(TOOL_NAMES)) == json.dumps(tool_definitions(list(reversed(TOOL_NAMES))))


def test_the_tool_guide_is_stable_text():
    assert "form data JSON" in TOOL_GUIDE and "confirm" in TOOL_GUIDE


def test_cap_output_truncates_lists_without_breaking_json():
    output = {"transactions": [{"description": "x" * 500, "i": i} for i in range(100)], "count": 100}
    capped = cap_output(output)
    text = json.dumps(capped)
    assert len(text.encode()) <= MAX_RESULT_BYTES
    assert capped["truncated"] is True and capped["count"] == len(capped["transactions"]) < 100
    assert capped["transactions"] == output["transactions"][: capped["count"]]
    assert cap_output({"a": [1]}) == {"a": [1]}


def test_cap_output_counts_escaped_unicode():
    output = {"items": ["tiền điện " * 40 for _ in range(60)]}
    capped = cap_output(output)
    assert len(json.dumps(capped).encode()) <= MAX_RESULT_BYTES
    assert len(json.dumps(capped, ensure_ascii=False).encode()) <= MAX_RESULT_BYTES


def test_a_result_with_no_list_to_shorten_becomes_an_error():
    assert cap_output({"blob": "x" * 20000})["error"]["code"] == "RESULT_TOO_LARGE"


@pytest.mark.django_db(transaction=True)
def test_a_large_transaction_list_is_capped_at_16_kib(alice, alice_ctx):
    for i in range(100):
        factories.txn(alice, description=f"{i} " + "long description " * 11, occurred_on=alice_ctx.today)

    outcome = call(alice_ctx, "list_transactions", {"limit": 100})

    assert len(json.dumps(outcome.output).encode()) <= MAX_RESULT_BYTES
    assert outcome.output["truncated"] is True
    assert 0 < outcome.output["count"] == len(outcome.output["transactions"]) < 100


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", TOOL_NAMES)
def test_no_tool_takes_a_user_id(alice_ctx, name):
    outcome = call(alice_ctx, name, {"user_id": 1})
    assert outcome.is_error and outcome.output["error"]["code"] == "INVALID_INPUT"
    assert "user_id" in outcome.output["error"]["message"]


def test_the_kind_lists_match_the_domain_models():
    from assets.models import Asset
    from chat import cards, ui_events
    from chat.tools import base
    from goals.models import Goal

    assert list(base.ASSET_KINDS) == list(ui_events.ASSET_KINDS) == Asset.Kind.values
    assert list(base.GOAL_KINDS) == list(ui_events.GOAL_KINDS) == list(cards.GOAL_KINDS) == Goal.Kind.values


def test_the_tool_list_sent_to_the_model_is_built_once_and_never_changed():
    from chat.turn import prompt

    names = WORKFLOW_TOOLS["inspect"]
    sent = prompt.tool_list(names)
    assert prompt.tool_list(reversed(names)) is sent
    # The catalog's definitions, in the order laid out for the cache, one of them with a breakpoint.
    unmarked = {t["name"]: {k: v for k, v in t.items() if k != "cache_control"} for t in sent}
    assert unmarked == {t["name"]: t for t in tool_definitions(names)}
    assert [t["name"] for t in sent if "cache_control" in t]
    # The catalog's own definitions carry no breakpoint.
    assert not any("cache_control" in tool for tool in tool_definitions(names))
