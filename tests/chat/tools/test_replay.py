import asyncio
import uuid

import pytest
from channels.db import database_sync_to_async

from assets.models import Transaction
from chat.models import ToolExecution
from chat.tools import execute_tool
from goals.models import Goal
from tests import factories
from tests.chat.tools.helpers import call
from tests.race import at_once

pytestmark = pytest.mark.django_db(transaction=True)

KFC = {"amount": "150k", "description": "KFC"}


def test_replaying_a_call_id_returns_the_stored_outcome_and_writes_nothing(alice, alice_ctx):
    first = call(alice_ctx, "create_manual_transaction", KFC, call_id="toolu_1")
    second = call(alice_ctx, "create_manual_transaction", KFC, call_id="toolu_1")

    assert Transaction.objects.filter(user=alice).count() == 1
    assert first == second
    assert ToolExecution.objects.get(call_id="toolu_1").output == first.output


def test_a_failed_mutation_is_recorded_and_replays_as_the_same_error(alice, alice_ctx, bob):
    bobs = factories.txn(bob)
    first = call(alice_ctx, "update_manual_transaction", {"transaction_id": bobs.id, "amount": "1k"}, call_id="c1")
    second = call(alice_ctx, "update_manual_transaction", {"transaction_id": bobs.id, "amount": "1k"}, call_id="c1")
    assert first.is_error and first == second


def test_a_call_id_reused_for_another_call_is_refused(alice, alice_ctx):
    call(alice_ctx, "create_manual_transaction", KFC, call_id="toolu_2")
    other = call(alice_ctx, "create_manual_transaction", {"amount": "40k", "description": "Grab"}, call_id="toolu_2")

    assert other.output["error"]["code"] == "CALL_ID_REUSED"
    assert Transaction.objects.count() == 1


def test_call_ids_are_per_user(alice, bob, alice_ctx, bob_ctx):
    call(alice_ctx, "create_manual_transaction", KFC, call_id="toolu_same")
    call(bob_ctx, "create_manual_transaction", KFC, call_id="toolu_same")
    assert Transaction.objects.filter(user=alice).count() == Transaction.objects.filter(user=bob).count() == 1


def test_reads_are_not_recorded(alice_ctx):
    call(alice_ctx, "list_transactions", call_id="toolu_r")
    call(alice_ctx, "list_transactions", call_id="toolu_r")
    assert not ToolExecution.objects.exists()


async def test_concurrent_tool_calls_each_run(alice, alice_ctx):
    calls = [
        execute_tool(alice_ctx, name="create_manual_transaction", call_id=f"toolu_c{i}", tool_input=dict(KFC))
        for i in range(4)
    ]
    calls.append(execute_tool(alice_ctx, name="list_goals", call_id="toolu_read", tool_input={}))
    outcomes = await asyncio.gather(*calls)

    assert not any(o.is_error for o in outcomes)
    assert await database_sync_to_async(Transaction.objects.filter(user=alice).count)() == 4


async def test_concurrent_replays_of_one_call_write_once(alice, alice_ctx):
    goal = {"name": "House", "kind": "house", "target_amount": "2 tỷ", "deadline": "10 years"}
    outcomes = await asyncio.gather(
        *(execute_tool(alice_ctx, name="create_goal", call_id="toolu_goal", tool_input=dict(goal)) for _ in range(3))
    )
    assert await database_sync_to_async(Goal.objects.filter(user=alice).count)() == 1
    assert all(o == outcomes[0] for o in outcomes)


def test_racing_threads_replaying_one_call_write_once(alice, alice_ctx):
    def run():
        return call(alice_ctx, "create_manual_transaction", KFC, call_id="toolu_race")

    outcomes = at_once(run, run, run, run)

    assert Transaction.objects.count() == 1
    assert len({o.output["transaction"]["id"] for o in outcomes}) == 1


def test_unknown_tools_and_tools_outside_the_workflow_are_errors(alice):
    from tests.chat.tools.helpers import ctx_for

    ctx = ctx_for(alice, allowed_tools=("list_transactions",))
    assert call(ctx, "transfer_money", {}).output["error"]["code"] == "UNKNOWN_TOOL"
    assert call(ctx, ["list_transactions"], {}).output["error"]["code"] == "UNKNOWN_TOOL"
    assert call(ctx, "create_manual_transaction", KFC).output["error"]["code"] == "TOOL_NOT_AVAILABLE"
    assert not Transaction.objects.exists()
    assert not call(ctx, "list_transactions").is_error


@pytest.mark.parametrize("tool_input", [None, [], "KFC 150k", 42])
def test_a_non_object_input_is_an_error(alice_ctx, tool_input):
    from asgiref.sync import async_to_sync

    outcome = async_to_sync(execute_tool)(
        alice_ctx, name="create_manual_transaction", call_id=uuid.uuid4().hex, tool_input=tool_input
    )
    assert outcome.is_error


def test_a_bad_call_id_is_an_error(alice_ctx):
    from asgiref.sync import async_to_sync

    for call_id in ("", "x" * 129, None):
        outcome = async_to_sync(execute_tool)(alice_ctx, name="list_goals", call_id=call_id, tool_input={})
        assert outcome.output["error"]["code"] == "INVALID_INPUT"


def test_a_card_that_cannot_be_drawn_does_not_fail_a_committed_mutation(alice, alice_ctx, monkeypatch):
    import dataclasses

    from chat.tools import CATALOG

    def broken(*args):
        raise KeyError("card")

    tool = CATALOG["create_manual_transaction"]
    monkeypatch.setitem(CATALOG, tool.name, dataclasses.replace(tool, card=broken))
    outcome = call(alice_ctx, "create_manual_transaction", KFC)
    assert not outcome.is_error and outcome.card is None
    assert Transaction.objects.count() == 1
