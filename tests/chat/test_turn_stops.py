"""Whole turns cut short: stop, a disconnect, a stop during a tool call, the deadline, the cap on model calls."""

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async

from assets.models import Transaction
from chat import limits
from tests.chat import factories as chat
from tests.chat import fake_anthropic as model
from tests.chat.conftest import open_socket, socket_turn_tasks, types
from tests.chat.harness import new_chat, stored_messages, turn_tasks, turns_settled

pytestmark = pytest.mark.django_db(transaction=True)


async def test_stop_aborts_the_stream_and_keeps_what_was_streamed(alice, fake):
    thread, talk = await new_chat(alice)
    words = " ".join(f"w{n}" for n in range(60))
    fake.script(model.text(words, token_delay=0.03))
    await talk.send({"type": "user_message", "id": "s1", "text": "show my transactions"})
    await talk.until("token")
    await talk.until("token")
    await talk.send({"type": "stop"})
    frames = await talk.until()
    assert frames[-1]["code"] == "STOPPED"
    # The task ends at once: after the error frame it only writes its run audit (the rest of the stream
    # would take another 1.5 s).
    await turns_settled(timeout=0.5)
    assert turn_tasks() == []
    streamed = "".join(f["text"] for f in talk.frames if f["type"] == "token")
    assistant = (await stored_messages(thread, "assistant"))[0]
    assert assistant.metadata["aborted"] is True
    assert assistant.parts == [{"type": "text", "text": streamed}]
    assert words.startswith(streamed) and streamed != words
    # The model stream was closed: the server saw the client go away.
    for _ in range(50):
        if fake.main_requests[0]["aborted"]:
            break
        await asyncio.sleep(0.05)
    assert fake.main_requests[0]["aborted"]
    # The thread is free again.
    assert types(await talk.say("show my transactions"))[-1] == "done"
    await talk.close()


async def test_a_disconnect_mid_stream_stores_the_partial_reply_and_leaves_no_task(alice, alice_cookie, fake):
    thread = await sync_to_async(chat.thread)(alice)
    talk, connected, _ = await open_socket(alice_cookie, thread.id)
    assert connected
    fake.script(model.text(" ".join(f"w{n}" for n in range(60)), token_delay=0.03))
    await talk.send({"type": "user_message", "id": "d1", "text": "show my transactions"})
    await talk.until("token")
    await talk.close()
    assert socket_turn_tasks() == []
    assistant = (await stored_messages(thread, "assistant"))[0]
    assert assistant.metadata["aborted"] is True
    assert assistant.parts[0]["text"].startswith("w0")


async def test_a_stop_during_a_tool_call_lets_the_tool_finish_and_records_it(alice, fake, monkeypatch):
    from chat.turn import tool_batch

    real = tool_batch.execute_tool
    started = asyncio.Event()

    async def slow(ctx, **kwargs):
        started.set()
        await asyncio.sleep(0.3)
        return await real(ctx, **kwargs)

    monkeypatch.setattr(tool_batch, "execute_tool", slow)
    thread, talk = await new_chat(alice)
    fake.route = "create"
    fake.script(model.tools(("create_manual_transaction", {"amount": "30k", "description": "Bánh mì"})))
    await talk.send({"type": "user_message", "id": "k1", "text": "add bánh mì 30k"})
    await asyncio.wait_for(started.wait(), 5)
    await talk.send({"type": "stop"})
    frames = await talk.until()
    assert frames[-1]["code"] == "STOPPED"
    assert await sync_to_async(Transaction.objects.filter(user=alice, amount=30000).count)() == 1
    assistant = (await stored_messages(thread, "assistant"))[0]
    assert assistant.metadata["aborted"] is True
    assert assistant.parts[0]["type"] == "tool"
    assert assistant.parts[0]["is_error"] is False
    assert "Bánh mì" in json.dumps(assistant.parts[0]["output"], ensure_ascii=False)
    # The next turn's context carries the recorded call with its result, which the strict server accepts.
    fake.script(model.text("Anything else?"))
    assert types(await talk.say("show my transactions"))[-1] == "done"
    assert fake.rejected == []
    await talk.close()


async def test_the_deadline_stops_a_turn_that_runs_too_long(alice, fake, monkeypatch):
    monkeypatch.setattr(limits, "TURN_DEADLINE_SECONDS", 0.4)
    thread, talk = await new_chat(alice)
    fake.script(model.text(" ".join(f"w{n}" for n in range(100)), token_delay=0.02))
    frames = await talk.say("show my transactions")
    assert frames[-1]["code"] == "TIMEOUT"
    assistant = (await stored_messages(thread, "assistant"))[0]
    assert assistant.metadata["aborted"] is True
    assert assistant.metadata["error"] == "TIMEOUT"
    await talk.close()


async def test_a_turn_makes_at_most_six_model_calls(alice, fake):
    fake.responder = lambda body: model.tools(("list_transactions", {"limit": 1}))
    _, talk = await new_chat(alice)
    frames = await talk.say("show my transactions")
    assert frames[-1]["type"] == "done"
    assert len(fake.main_requests) == limits.MAX_MODEL_CALLS
    assert all(r["body"]["max_tokens"] == 2048 for r in fake.main_requests)
    await talk.close()
