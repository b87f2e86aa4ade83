"""Whole turns on claude-sonnet-5-5 through the real SDK and the offline server: what Zeus sends, the thinking
blocks replayed within a turn and never shown or stored, truthful phase frames, and a router call that
Haiku 5.5 accepts."""

import json

import pytest
from asgiref.sync import sync_to_async

from chat.models import Message
from chat.provider.wire import EffortInvalid, effort_for, main_request_options, parse_effort
from tests.chat import factories as chat
from tests.chat import fake_anthropic as model
from tests.chat.conftest import open_socket

pytestmark = pytest.mark.django_db(transaction=True)

REFUSED_BY_55 = ("temperature", "top_p", "top_k", "tool_choice")


async def _socket(user, cookie):
    thread = await sync_to_async(chat.thread)(user)
    socket, connected, _ = await open_socket(cookie, thread.id)
    assert connected
    return thread, socket


async def test_a_tool_turn_sends_thinking_back_unchanged_and_never_shows_or_stores_it(alice, alice_cookie, fake):
    thread, socket = await _socket(alice, alice_cookie)
    fake.script(
        model.tools(("list_transactions", {"limit": 5}), thinking="SECRET-PLAN check the ledger", think=True),
        model.text("You have no transactions yet.", thinking="SECRET-NOTE nothing found"),
    )
    frames = await socket.say("show my transactions")
    assert frames[-1]["type"] == "done"
    first, second = fake.main_requests
    for request in (first, second):
        body = request["body"]
        assert body["model"] == "claude-sonnet-5-5"
        assert body["thinking"] == {"type": "between_tools"}
        assert body["output_config"] == {"effort": "low"}  # inspect: ZEUS_EFFORT's default
        assert not set(REFUSED_BY_55) & set(body)
        assert body["messages"][-1]["role"] == "user"
    replayed = second["body"]["messages"][-2]["content"]
    assert replayed[0]["type"] == "thinking"
    assert replayed[0]["thinking"] == "SECRET-PLAN check the ledger" and replayed[0]["signature"]
    assert [b["type"] for b in replayed] == ["thinking", "tool_use"]
    assert "SECRET" not in json.dumps(frames)
    stored = await sync_to_async(list)(Message.objects.filter(thread=thread).values_list("parts", "metadata"))
    assert "SECRET" not in json.dumps(stored) and "signature" not in json.dumps(stored)
    await socket.close()


async def test_the_next_turn_does_not_replay_the_last_turns_thinking(alice, alice_cookie, fake):
    _, socket = await _socket(alice, alice_cookie)
    fake.script(model.tools(("list_transactions", {}), think=True), model.text("None."), model.text("Sure."))
    await socket.say("show my transactions")
    await socket.say("show my transactions again")
    third = fake.main_requests[-1]["body"]["messages"]
    assert all(b["type"] != "thinking" for m in third for b in m["content"] if isinstance(m["content"], list))
    await socket.close()


async def test_phases_are_thinking_while_the_model_thinks_and_generating_when_text_flows(alice, alice_cookie, fake):
    _, socket = await _socket(alice, alice_cookie)
    fake.script(
        model.tools(("list_transactions", {}), say="Let me look.", think=True, thinking_delay=0.3),
        model.text("Nothing yet.", thinking="progress", thinking_delay=0.3, token_delay=0.01),
    )
    await socket.send({"type": "user_message", "id": "p1", "text": "show my transactions"})
    frames = await socket.until()
    kinds = [(f["type"], f.get("phase") or f.get("status")) for f in frames if f["type"] in ("phase", "tool", "token")]
    assert kinds[0] == ("phase", "thinking")
    # thinking first, generating as text flows, thinking again once the tool ran (the model reads its result
    # and notes progress in a thinking block), generating again with the answer
    phases = [p for kind, p in kinds if kind == "phase"]
    assert phases == ["thinking", "generating", "thinking", "generating"]
    done = kinds.index(("tool", "done"))
    assert kinds[done + 1] == ("phase", "thinking")
    assert kinds[kinds.index(("token", None)) - 1] == ("phase", "generating")
    assert frames[-1]["type"] == "done"
    await socket.close()


async def test_the_coach_workflow_thinks_harder(alice, alice_cookie, fake, settings):
    settings.ZEUS_EFFORT = "default=low,coach=high"
    _, socket = await _socket(alice, alice_cookie)
    fake.script(model.text("Let us plan."))
    frames = await socket.say("help me plan my savings for a house")
    assert frames[-1]["workflow"] == "coach"
    assert fake.main_requests[-1]["body"]["output_config"] == {"effort": "high"}
    await socket.close()


async def test_the_router_call_is_one_haiku_55_accepts(alice, alice_cookie, fake, settings):
    _, socket = await _socket(alice, alice_cookie)
    fake.route = "inspect"
    fake.script(model.text("Sure."))
    frames = await socket.say("hmm, what about that thing")
    assert frames[-1]["type"] == "done"
    assert fake.rejected == []
    router = fake.model_requests[0]["body"]
    assert router["model"] == settings.ZEUS_ROUTER_MODEL == "claude-haiku-5-5"
    assert router["output_config"] == {"effort": "low"}
    assert "thinking" not in router and not set(REFUSED_BY_55) & set(router)
    assert router["messages"][-1]["role"] == "user"
    assert router["max_tokens"] >= 256  # its adaptive thinking counts against max_tokens
    await socket.close()


async def test_an_older_model_gets_neither_thinking_nor_effort(alice, alice_cookie, fake, settings):
    settings.ZEUS_MODEL = "claude-haiku-4-5"
    _, socket = await _socket(alice, alice_cookie)
    fake.script(model.tools(("list_transactions", {})), model.text("None."))
    assert (await socket.say("show my transactions"))[-1]["type"] == "done"
    for request in fake.main_requests:
        assert "thinking" not in request["body"] and "output_config" not in request["body"]
    await socket.close()


@pytest.mark.parametrize(
    ("raw", "table"),
    [
        ("", {"default": "low"}),
        ("medium", {"default": "medium"}),
        ("default=low,coach=medium", {"default": "low", "coach": "medium"}),
        (" coach = high , inspect=low ", {"default": "low", "coach": "high", "inspect": "low"}),
    ],
)
def test_zeus_effort_reads_one_level_or_pairs(raw, table):
    assert parse_effort(raw) == table


@pytest.mark.parametrize("raw", ["max", "xhigh", "coach=extreme", "coach", "=low"])
def test_zeus_effort_refuses_levels_between_tools_cannot_take(raw):
    with pytest.raises(EffortInvalid):
        parse_effort(raw)


def test_an_invalid_zeus_effort_is_a_check_error_and_falls_back_to_low(settings):
    from chat.checks import check_effort

    settings.ZEUS_EFFORT = "coach=max"
    assert [m.id for m in check_effort()] == ["chat.E002"]
    assert effort_for("coach", settings.ZEUS_EFFORT) == "low"
    assert main_request_options("claude-sonnet-5-5", "coach", settings.ZEUS_EFFORT)["output_config"] == {
        "effort": "low"
    }
