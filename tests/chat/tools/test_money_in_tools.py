"""The money-in tools (bank-text drafts, rules), the draft card and its ui_event, and the router's
pattern for a pasted bank text."""

import datetime as dt

import pytest

from assets.models import BankTextDraft, CategoryRule, Transaction
from chat.router import route_by_patterns
from chat.tools import WORKFLOW_TOOLS
from chat.ui_events import BadFrame, ui_event_to_turn
from tests import factories
from tests.chat.tools.helpers import call

KFC = "TK 0123xxx789 -150,000VND 01/12 10:15 SD 2,345,000VND ND: KFC NGUYEN HUE"


@pytest.mark.django_db(transaction=True)
def test_read_bank_text_makes_a_draft_and_a_transaction_draft_card(alice, alice_ctx, settings):
    settings.ANTHROPIC_API_KEY = ""
    called = call(alice_ctx, "read_bank_text", {"text": KFC})
    assert not called.is_error, called.output
    draft = called.output["draft"]
    assert (draft["amount"], draft["direction"], draft["category"], draft["bank"]) == (
        "150000",
        "expense",
        "dining",
        "MB",
    )
    card = called.card
    assert card["kind"] == "transaction_draft" and card["version"] == 1
    assert card["draft_id"] == draft["draft_id"] and card["event"] == "draft_decision"
    assert card["decisions"] == ["save", "discard"] and card["duplicate_of"] is None
    assert {"amount", "direction", "date", "description", "category"} <= set(card)
    assert not Transaction.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_draft_the_ledger_holds_offers_only_discard(alice, alice_ctx, settings):
    settings.ANTHROPIC_API_KEY = ""
    factories.txn(alice, amount="150000", source="synced", external_id="x", occurred_on=dt.date(2026, 12, 1))
    card = call(alice_ctx, "read_bank_text", {"text": KFC}).card
    assert card["duplicate_of"] is not None and card["decisions"] == ["discard"]
    assert card["title"] == "Already in your ledger"


@pytest.mark.django_db(transaction=True)
def test_deciding_a_draft_saves_once_or_discards(alice, alice_ctx, bob_ctx, settings):
    settings.ANTHROPIC_API_KEY = ""
    draft_id = call(alice_ctx, "read_bank_text", {"text": KFC}).output["draft"]["draft_id"]
    assert call(bob_ctx, "decide_bank_text_draft", {"draft_id": draft_id, "decision": "save"}).is_error
    saved = call(
        alice_ctx,
        "decide_bank_text_draft",
        {"draft_id": draft_id, "decision": "save", "values": {"description": "KFC lunch"}},
    )
    assert not saved.is_error and saved.card["kind"] == "result_summary"
    assert Transaction.objects.get().description == "KFC lunch"
    again = call(alice_ctx, "decide_bank_text_draft", {"draft_id": draft_id, "decision": "discard"})
    assert again.is_error and again.output["error"]["code"] == "DRAFT_CLOSED"
    other = call(alice_ctx, "read_bank_text", {"text": KFC.replace("150,000", "99,000")}).output["draft"]
    discarded = call(alice_ctx, "decide_bank_text_draft", {"draft_id": other["draft_id"], "decision": "discard"})
    assert discarded.card["status"] == "cancelled"
    assert BankTextDraft.objects.get(id=other["draft_id"]).status == "discarded"
    assert Transaction.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_rules_are_listed_and_created_from_the_chat(alice, alice_ctx):
    factories.txn(alice, description="Circle K Q1", category="other")
    created = call(alice_ctx, "create_rule", {"match": "circle k", "category": "groceries", "apply_to_existing": True})
    assert not created.is_error and created.output["applied"] == 1 and created.card["kind"] == "result_summary"
    listed = call(alice_ctx, "list_rules", {})
    assert [r["match"] for r in listed.output["rules"]] == ["circle k"]
    assert call(alice_ctx, "create_rule", {"match": "x", "category": "nope"}).is_error
    assert CategoryRule.objects.count() == 1


def test_the_bank_text_workflow_offers_the_draft_tools():
    assert {"read_bank_text", "decide_bank_text_draft", "create_rule"} <= set(WORKFLOW_TOOLS["bank_text"])
    assert "read_bank_text" not in WORKFLOW_TOOLS["create"]


@pytest.mark.parametrize(
    "text",
    [
        KFC,
        "SD TK 0071000123456 -150,000VND luc 01-12-2026 10:15:20. SD 2,345,000VND. Ref KFC",
        "Thanh toán thành công 150.000đ cho KFC Nguyễn Huệ",
        "Sacombank 29/11/2026 10:14 TK: 050109499355 PS: +1,200,000 VND So du kha dung: 414,546,016 VND",
    ],
)
def test_a_pasted_bank_text_routes_to_bank_text_by_pattern(text):
    route = route_by_patterns([text])
    assert (route.workflow, route.decided_by) == ("bank_text", "pattern")


@pytest.mark.parametrize("text", ["spent 150k on KFC", "what did I spend on dining?", "delete the last one"])
def test_ordinary_messages_are_not_taken_for_bank_texts(text):
    route = route_by_patterns([text])
    assert route is None or route.workflow != "bank_text"


def test_a_draft_decision_becomes_a_turn_routed_to_bank_text():
    text = ui_event_to_turn("draft_decision", {"draft_id": 12, "decision": "save"})
    assert text == "Decide the bank-text draft #12: save."
    assert route_by_patterns([text]).workflow == "bank_text"
    corrected = ui_event_to_turn(
        "draft_decision", {"draft_id": "12", "decision": "save", "values": {"amount": "155000", "category": "gifts"}}
    )
    assert corrected.endswith('{"amount": "155000", "category": "gifts"}')
    assert ui_event_to_turn("draft_decision", {"draft_id": 3, "decision": "discard"}).endswith("discard.")


@pytest.mark.parametrize(
    "payload",
    [
        {"draft_id": 0, "decision": "save"},
        {"draft_id": True, "decision": "save"},
        {"draft_id": 1, "decision": "keep"},
        {"draft_id": 1},
        {"draft_id": 1, "decision": "save", "values": {"user_id": 2}},
        {"draft_id": 1, "decision": "save", "values": "x"},
        {"draft_id": 1, "decision": "save", "extra": 1},
    ],
)
def test_a_bad_draft_decision_is_a_bad_frame(payload):
    with pytest.raises(BadFrame):
        ui_event_to_turn("draft_decision", payload)


@pytest.mark.django_db(transaction=True)
def test_recategorizing_in_the_chat_offers_a_rule(alice, alice_ctx):
    txn = factories.txn(alice, description="Circle K Le Loi", category="other")
    updated = call(alice_ctx, "update_manual_transaction", {"transaction_id": txn.id, "category": "groceries"})
    assert updated.output["rule_offer"] == {
        "match": "circle k",
        "direction": "expense",
        "category": "groceries",
        "apply_to_existing": True,
    }
    renamed = call(alice_ctx, "update_manual_transaction", {"transaction_id": txn.id, "description": "Circle K Q1"})
    assert "rule_offer" not in renamed.output
