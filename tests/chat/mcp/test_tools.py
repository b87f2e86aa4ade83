"""The catalog over MCP, driven by the SDK's own client against the real ASGI app."""

import asyncio

import pytest

from assets.models import Asset, Source, Transaction
from chat.models import Approval, ToolExecution
from chat.tools import tool_definitions
from tests import factories
from tests.chat.mcp.helpers import output, token_for

pytestmark = pytest.mark.django_db(transaction=True)

READS = (
    "list_transactions",
    "list_linked_accounts",
    "list_assets",
    "list_budgets",
    "list_goals",
    "list_smart_suggestions",
    "summarize_spending",
    "list_recurring",
)
MUTATIONS = (
    "create_goal",
    "create_manual_transaction",
    "update_manual_transaction",
    "delete_manual_transaction",
    "create_manual_asset",
    "update_manual_asset",
    "delete_manual_asset",
)
# The transfers (chat.tools.transfers): list_transfers only reads.
TRANSFERS = ("list_transfers", "mark_transfer")
# The money-in family (chat.tools.money_in): bank-text drafts and rules; list_rules only reads.
MONEY_IN = ("read_bank_text", "decide_bank_text_draft", "list_rules", "create_rule")
# Looking ahead and what is owed (chat.tools.ahead); the first four only read.
AHEAD_READS = ("get_plan", "get_cash_forecast", "list_debts", "get_debt_vietqr")
AHEAD = (
    *AHEAD_READS,
    "create_debt",
    "record_debt_payment",
    "create_budget",
    "update_budget",
    "delete_budget",
)


def test_it_lists_the_catalogs_read_and_mutation_tools_and_confirm_action(mcp, alice):
    async def scenario(session):
        return (await session.list_tools()).tools

    tools = mcp.run(token_for(alice), scenario)

    assert [t.name for t in tools] == [*READS, *MUTATIONS, *TRANSFERS, *MONEY_IN, *AHEAD, "confirm_action"]
    catalog = tool_definitions(READS + MUTATIONS + TRANSFERS + MONEY_IN + AHEAD)
    assert [(t.name, t.description, t.input_schema) for t in tools[:-1]] == [
        (d["name"], d["description"], d["input_schema"]) for d in catalog
    ]
    assert tools[-1].input_schema["required"] == ["approval_id", "decision"]
    assert {t.name: t.annotations.read_only_hint for t in tools} == {
        name: name in (*READS, "list_transfers", "list_rules", *AHEAD_READS)
        for name in (*READS, *MUTATIONS, *TRANSFERS, *MONEY_IN, *AHEAD, "confirm_action")
    }


def test_a_read_tool_answers_with_the_users_own_rows_as_json(mcp, alice, bob):
    mine = factories.txn(alice, description="KFC", amount="150000")
    factories.txn(bob, description="Bob's lunch")

    (result,) = mcp.calls(token_for(alice), ("list_transactions", {"limit": 5}))

    assert not result.is_error
    body = output(result)
    assert body == result.structured_content
    assert [(t["id"], t["description"], t["amount"]) for t in body["transactions"]] == [(mine.id, "KFC", "150000")]


def test_it_creates_a_transaction_from_shorthand(mcp, alice):
    (result,) = mcp.calls(token_for(alice), ("create_manual_transaction", {"amount": "150k", "description": "KFC"}))

    assert not result.is_error
    created = output(result)["transaction"]
    assert (created["amount"], created["currency"], created["description"]) == ("150000", "VND", "KFC")
    txn = Transaction.objects.get(id=created["id"])
    assert (txn.user, txn.amount, txn.source) == (alice, 150000, Source.MANUAL)


def test_a_synced_record_is_refused(mcp, alice):
    synced = factories.txn(alice, source=Source.SYNCED, external_id="bank-1", description="Salary")

    update, delete = mcp.calls(
        token_for(alice),
        ("update_manual_transaction", {"transaction_id": synced.id, "amount": "1"}),
        ("delete_manual_transaction", {"transaction_id": synced.id}),
    )

    assert update.is_error and output(update)["error"]["code"] == "SYNCED_READ_ONLY"
    assert delete.is_error and output(delete)["error"]["code"] == "SYNCED_READ_ONLY"
    synced.refresh_from_db()
    assert synced.description == "Salary" and not Approval.objects.exists()


def test_a_delete_waits_for_confirm_action_and_then_runs_once(mcp, alice):
    txn = factories.txn(alice, description="KFC", amount="150000")
    token = token_for(alice)

    (asked,) = mcp.calls(token, ("delete_manual_transaction", {"transaction_id": txn.id}))

    asked_body = output(asked)
    assert not asked.is_error and asked_body["status"] == "confirmation_required"
    assert "KFC" in asked_body["summary"] and "confirm_action" in asked_body["message"]
    assert Transaction.objects.filter(id=txn.id).exists()

    confirm = {"approval_id": asked_body["approval_id"], "decision": "approve"}
    approved, again = mcp.calls(token, ("confirm_action", confirm), ("confirm_action", confirm))

    assert not approved.is_error and output(approved)["deleted"] is True
    assert again.is_error and output(again)["error"]["code"] == "APPROVAL_USED"
    assert not Transaction.objects.filter(id=txn.id).exists()


def test_a_rejected_delete_keeps_the_record(mcp, alice):
    asset = factories.asset(alice, name="Cash")
    token = token_for(alice)
    (asked,) = mcp.calls(token, ("delete_manual_asset", {"asset_id": asset.id}))

    (rejected,) = mcp.calls(
        token, ("confirm_action", {"approval_id": output(asked)["approval_id"], "decision": "reject"})
    )

    assert not rejected.is_error and output(rejected)["status"] == "rejected"
    assert Asset.objects.filter(id=asset.id).exists()


def test_a_replayed_idempotency_key_returns_the_stored_result_and_changes_nothing(mcp, alice):
    token = token_for(alice)
    args = {"amount": "40k", "description": "Grab"}

    first, replay, other_args = mcp.calls(
        token,
        ("create_manual_transaction", args, "key-1"),
        ("create_manual_transaction", args, "key-1"),
        ("create_manual_transaction", {**args, "amount": "41k"}, "key-1"),
    )

    assert output(first) == output(replay) and not replay.is_error
    assert other_args.is_error and output(other_args)["error"]["code"] == "CALL_ID_REUSED"
    assert Transaction.objects.filter(user=alice, description="Grab").count() == 1


def test_without_a_key_a_repeated_call_acts_again(mcp, alice):
    args = {"amount": "40k", "description": "Grab"}

    mcp.calls(token_for(alice), ("create_manual_transaction", args), ("create_manual_transaction", args))

    assert Transaction.objects.filter(user=alice, description="Grab").count() == 2


def test_a_replayed_confirm_returns_the_stored_decision(mcp, alice):
    txn = factories.txn(alice)
    token = token_for(alice)
    (asked,) = mcp.calls(token, ("delete_manual_transaction", {"transaction_id": txn.id}, "ask-1"))
    confirm = {"approval_id": output(asked)["approval_id"], "decision": "approve"}

    asked_again, approved, replayed = mcp.calls(
        token,
        ("delete_manual_transaction", {"transaction_id": txn.id}, "ask-1"),
        ("confirm_action", confirm, "confirm-1"),
        ("confirm_action", confirm, "confirm-1"),
    )

    assert output(asked_again)["approval_id"] == confirm["approval_id"]
    assert Approval.objects.count() == 1
    assert not replayed.is_error and output(replayed) == output(approved)
    assert output(approved)["deleted"] is True
    assert not Transaction.objects.filter(id=txn.id).exists()


def test_another_users_ids_are_not_found(mcp, alice, bob):
    bobs_txn = factories.txn(bob, description="Bob's")
    bobs_asset = factories.asset(bob, name="Bob's wallet")
    (bobs_ask,) = mcp.calls(token_for(bob), ("delete_manual_transaction", {"transaction_id": bobs_txn.id}))

    update, delete, asset, confirm = mcp.calls(
        token_for(alice),
        ("update_manual_transaction", {"transaction_id": bobs_txn.id, "amount": "1"}),
        ("delete_manual_transaction", {"transaction_id": bobs_txn.id}),
        ("update_manual_asset", {"asset_id": bobs_asset.id, "name": "Mine"}),
        ("confirm_action", {"approval_id": output(bobs_ask)["approval_id"], "decision": "approve"}),
    )

    assert [output(r)["error"]["code"] for r in (update, delete, asset, confirm)] == ["NOT_FOUND"] * 4
    assert Transaction.objects.filter(id=bobs_txn.id, description="Bob's").exists()
    bobs_asset.refresh_from_db()
    assert bobs_asset.name == "Bob's wallet"


def test_bad_input_is_an_error_result_with_a_clear_message(mcp, alice):
    too_many, bad_amount, user_id, ui_tool, bad_key = mcp.calls(
        token_for(alice),
        ("list_transactions", {"limit": 500}),
        ("create_manual_transaction", {"amount": "lots", "description": "KFC"}),
        ("list_assets", {"user_id": 2}),
        ("show_smart_actions", {"actions": []}),
        ("list_assets", {}, "x" * 121),
    )

    assert all(r.is_error for r in (too_many, bad_amount, user_id, ui_tool, bad_key))
    assert output(too_many)["error"] == {
        "code": "INVALID_INPUT",
        "message": "limit: 500 is greater than the maximum of 100",
        "fields": {"limit": ["500 is greater than the maximum of 100"]},
    }
    assert output(bad_amount)["error"]["code"] == "INVALID_AMOUNT"
    assert "user_id" in output(user_id)["error"]["message"]
    assert output(ui_tool)["error"]["code"] == "TOOL_NOT_AVAILABLE"
    assert "idempotency_key" in output(bad_key)["error"]["message"]
    assert not Transaction.objects.exists() and not ToolExecution.objects.filter(is_error=False).exists()


def test_racing_confirmations_delete_once(mcp, alice):
    txn = factories.txn(alice)
    token = token_for(alice)
    (asked,) = mcp.calls(token, ("delete_manual_transaction", {"transaction_id": txn.id}))
    confirm = {"approval_id": output(asked)["approval_id"], "decision": "approve"}

    async def scenario(session):
        return await asyncio.gather(*(session.call_tool("confirm_action", confirm) for _ in range(3)))

    results = mcp.run(token, scenario)

    assert sorted(output(r).get("error", {}).get("code", "ok") for r in results) == [
        "APPROVAL_USED",
        "APPROVAL_USED",
        "ok",
    ]
    assert not Transaction.objects.filter(id=txn.id).exists()


def test_it_serves_the_2026_protocol_too(mcp, alice):
    """A client that negotiates with server/discover instead of the initialize handshake gets the same tools."""
    token = token_for(alice)

    async def go():
        async with mcp.session(token, handshake=False) as session:
            await session.discover()
            tools = (await session.list_tools()).tools
            created = await session.call_tool("create_manual_transaction", {"amount": "2tr", "description": "Rent"})
            return session.protocol_version, tools, created

    version, tools, created = asyncio.run(go())

    assert version == "2026-07-28"
    assert len(tools) == len(READS + MUTATIONS + TRANSFERS + MONEY_IN + AHEAD) + 1
    assert output(created)["transaction"]["amount"] == "2000000"
