"""Whole turns routed: the router model asked only for ambiguous text, each step offering only its workflow's
tools, a long conversation's trimmed context, card events as user turns."""

import json

import pytest

from chat import limits
from tests.chat import fake_anthropic as model
from tests.chat.harness import new_chat, stored_messages

pytestmark = pytest.mark.django_db(transaction=True)


async def test_the_router_model_is_asked_only_for_ambiguous_text(alice, fake, settings):
    from chat.router import WORKFLOW_TOOLS

    _, talk = await new_chat(alice)
    fake.script(model.text("Here they are."))
    assert (await talk.say("show my transactions"))[-1]["type"] == "done"
    assert [r["body"]["model"] for r in fake.model_requests] == [settings.ZEUS_MODEL]

    fake.route = "inspect"
    fake.script(model.text("Sure."))
    frames = await talk.say("hmm, what about that thing")
    router_call, main_call = fake.model_requests[1:]
    assert router_call["body"]["model"] == settings.ZEUS_ROUTER_MODEL
    assert not router_call["body"].get("stream")
    assert main_call["body"]["model"] == settings.ZEUS_MODEL
    assert {t["name"] for t in main_call["body"]["tools"]} == set(WORKFLOW_TOOLS["inspect"])
    assert frames[-1]["message"]["metadata"]["decided_by"] == "model"
    assert frames[-1]["workflow"] == "inspect"
    await talk.close()


async def test_every_step_offers_only_the_workflows_tools(alice, fake):
    from chat.router import WORKFLOW_TOOLS

    _, talk = await new_chat(alice)
    fake.route = "delete"
    fake.script(model.tools(("list_transactions", {})), model.text("Done."))
    await talk.say("delete the transaction from yesterday")
    for request in fake.main_requests:
        assert {t["name"] for t in request["body"]["tools"]} == set(WORKFLOW_TOOLS["delete"])
    await talk.close()


async def test_a_long_conversation_keeps_a_valid_trimmed_context(alice, fake, monkeypatch):
    monkeypatch.setattr(limits, "TURNS_PER_MINUTE", 100)
    _, talk = await new_chat(alice)

    def route(body):
        text = json.dumps(body["messages"], ensure_ascii=False)
        return "create" if text.rfind("add item") > text.rfind("show my transactions") else "inspect"

    fake.route = route
    for n in range(14):
        if n % 3 == 0:
            fake.script(model.tools(("list_transactions", {"limit": 1}), say="Looking."), model.text(f"Answer {n}."))
        elif n % 3 == 1:
            fake.script(
                model.tools(("create_manual_transaction", {"amount": f"{n}0k", "description": f"item {n}"})),
                model.text(f"Saved {n}."),
            )
        else:
            fake.script(model.text(f"Plain {n}."))
        frames = await talk.say(f"add item {n} {n}0k" if n % 3 == 1 else f"show my transactions {n}")
        assert frames[-1]["type"] == "done", frames
    assert fake.rejected == []
    last = fake.main_requests[-1]["body"]["messages"]
    assert last[0]["role"] == "user"
    user_texts = [b["text"] for m in last if m["role"] == "user" for b in m["content"] if b["type"] == "text"]
    # The newest 10 persisted messages are 5 turns: the 9th to the 13th user messages.
    assert user_texts == [f"show my transactions {n}" if n % 3 != 1 else f"add item {n} {n}0k" for n in range(9, 14)]
    await talk.close()


async def test_a_ui_event_becomes_the_user_turn(alice, fake):
    thread, talk = await new_chat(alice)
    frame = {"type": "ui_event", "id": "ev1", "event": "action_selected", "payload": {"prompt": "show my transactions"}}
    await talk.send(frame)
    frames = await talk.until()
    assert frames[0] == {"type": "ack", "id": "ev1"}
    assert frames[-1]["type"] == "done"
    user = (await stored_messages(thread, "user"))[0]
    assert user.parts == [{"type": "text", "text": "show my transactions"}]
    assert user.client_id == "ev1"
    await talk.close()


async def test_a_quick_create_event_is_routed_by_the_event_not_by_reading_its_text(alice, fake, monkeypatch):
    from chat import router

    def unread(*args, **kwargs):
        raise AssertionError("the event's text was routed")

    monkeypatch.setattr(router, "route_by_patterns", unread)
    fake.script(model.text("Which balance should it start with?"))
    thread, talk = await new_chat(alice)
    frame = {
        "type": "ui_event",
        "id": "qc1",
        "event": "quick_create_selected",
        "payload": {"kind": "cash", "name": "Ví"},
    }
    await talk.send(frame)
    done = (await talk.until())[-1]
    assert done["type"] == "done"
    assert (done["workflow"], done["message"]["metadata"]["decided_by"]) == ("asset_create", "pattern")
    assert {t["name"] for t in fake.main_requests[0]["body"]["tools"]} == set(router.WORKFLOW_TOOLS["asset_create"])
    user = (await stored_messages(thread, "user"))[0]
    assert user.parts[0]["text"].startswith("Create a manual asset named")  # what the model reads
    await talk.close()
