"""The prompt cache (docs/chat.md, "Prompt caching"): what a turn sends is laid out so that the next call reads as
much of it as it can from the cache. Read on the requests the offline model server receives, and on the usage
it reports with its cache emulation."""

import json

import pytest
from asgiref.sync import sync_to_async

from tests import factories
from tests.chat import fake_anthropic as model
from tests.chat.harness import new_chat

pytestmark = pytest.mark.django_db(transaction=True)

BREAKPOINT = {"type": "ephemeral"}


def _without_breakpoints(value):
    if isinstance(value, dict):
        return {k: _without_breakpoints(v) for k, v in value.items() if k != "cache_control"}
    if isinstance(value, list):
        return [_without_breakpoints(v) for v in value]
    return value


def _sent(value) -> str:
    """The JSON as the server received it, keys in the order sent, without the breakpoints (the newest block's
    moves on every call)."""
    return json.dumps(_without_breakpoints(value), ensure_ascii=False)


def _usage(frames: list[dict]) -> dict:
    assert frames[-1]["type"] == "done", frames
    return frames[-1]["message"]["metadata"]["usage"]


async def test_the_next_turn_starts_with_the_previous_turns_last_request_byte_for_byte(alice, fake):
    for n in range(3):
        await sync_to_async(factories.txn)(alice, amount=f"{n + 1}5000", description=f"Lunch {n}")
    _, talk = await new_chat(alice)
    # The model writes the input's keys in an order PostgreSQL's jsonb does not keep (it puts shorter keys
    # first), and the tool's result has keys jsonb reorders too: the next turn reads both back from the store.
    fake.script(model.tools(("list_transactions", {"source": "all", "limit": 5})), model.text("Here they are."))
    _usage(await talk.say("show my transactions"))
    fake.script(model.text("That is all of them."))
    _usage(await talk.say("show my transactions from last week"))

    first_turns_last, second_turns_first = (r["body"] for r in fake.main_requests[1:3])
    assert _sent(second_turns_first["tools"]) == _sent(first_turns_last["tools"])
    assert _sent(second_turns_first["system"]) == _sent(first_turns_last["system"])
    sent = first_turns_last["messages"]
    assert [b["type"] for m in sent for b in m["content"]] == ["text", "tool_use", "tool_result"]
    assert _sent(second_turns_first["messages"][: len(sent)]) == _sent(sent)
    await talk.close()


async def test_tools_and_system_are_the_same_bytes_across_turns_and_carry_breakpoints(alice, fake):
    _, talk = await new_chat(alice)
    await talk.say("show my transactions")
    second = await talk.say("show my transactions since March")
    first_body, second_body = (r["body"] for r in fake.main_requests)
    for body in (first_body, second_body):
        assert body["system"][0]["cache_control"] == BREAKPOINT
        # The per-turn facts follow the stable block, with a breakpoint of their own (see the next test).
        assert body["system"][1]["cache_control"] == BREAKPOINT
        assert "Today is" in body["system"][1]["text"] and "VND" in body["system"][1]["text"]
        assert "Today is" not in body["system"][0]["text"]
        # No breakpoint on the last tool: the system block's right after it reads and writes the same prefix.
        assert "cache_control" not in body["tools"][-1]
    assert json.dumps(first_body["tools"]) == json.dumps(second_body["tools"])
    assert json.dumps(first_body["system"]) == json.dumps(second_body["system"])
    assert _usage(second)["cache_read"] > 0
    await talk.close()


async def test_a_turn_whose_messages_changed_from_the_start_still_reads_tools_system_and_facts(alice, fake):
    # A thread past its context window drops its oldest messages every turn, so its messages differ from the
    # first one on; a new thread of the same user's is the same case with no history at all.
    _, talk = await new_chat(alice)
    _usage(await talk.say("show my transactions"))
    await talk.close()
    _, other = await new_chat(alice)
    usage = _usage(await other.say("show my assets"))

    facts = fake.main_requests[-1]["body"]["system"][1]["text"]
    # Only the new user message is written; the facts block was read with everything before it.
    assert usage["cache_read"] > 0
    assert usage["cache_write"] < len(facts) // 4
    await other.close()


async def test_a_switch_between_inspect_and_the_coach_reads_the_tools_their_lists_share(alice, fake):
    _, talk = await new_chat(alice)
    assert (await talk.say("show my transactions"))[-1]["workflow"] == "inspect"
    frames = await talk.say("show my budgets")
    assert frames[-1]["workflow"] == "coach"

    inspect_tools, coach_tools = (r["body"]["tools"] for r in fake.main_requests)
    marks = [[i for i, tool in enumerate(tools) if "cache_control" in tool] for tools in (inspect_tools, coach_tools)]
    assert marks[0] == marks[1] and len(marks[0]) == 1
    shared = marks[0][0] + 1
    assert _sent(inspect_tools[:shared]) == _sent(coach_tools[:shared])
    assert inspect_tools[shared]["name"] != coach_tools[shared]["name"]
    # Everything after the first tool the lists do not share is new to the cache; the shared start is read.
    assert _usage(frames)["cache_read"] > 0
    await talk.close()
