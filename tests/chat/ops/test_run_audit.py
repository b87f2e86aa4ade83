"""The run audit, recorded by real turns through the consumer's path, the SDK and the offline model server."""

import asyncio

import pytest
from asgiref.sync import sync_to_async

from chat.models import Message, TurnRun
from tests.chat import factories as chat
from tests.chat import fake_anthropic as model
from tests.chat.conftest import open_socket
from tests.chat.harness import new_chat, turns_settled

pytestmark = pytest.mark.django_db(transaction=True)


async def _runs(thread):
    await turns_settled()
    return await sync_to_async(_stored_runs)(thread)


def _stored_runs(thread):
    runs = list(TurnRun.objects.filter(thread=thread).order_by("id"))
    return [(run, list(run.model_call_rows.all()), list(run.tool_call_rows.all())) for run in runs]


async def test_an_ok_turn_records_its_model_and_tool_calls_and_tokens(alice, fake):
    thread, talk = await new_chat(alice)
    fake.script(model.tools(("list_transactions", {"limit": 5})), model.text("Nothing yet."))
    frames = await talk.say("show my transactions")
    done = frames[-1]
    assert done["type"] == "done"

    [(run, calls, tools)] = await _runs(thread)
    user_message = await sync_to_async(Message.objects.get)(thread=thread, role="user")
    assert run.user_id == alice.id
    assert run.user_message_id == user_message.id
    assert run.assistant_message_id == done["message"]["id"]
    assert (run.outcome, run.error_code) == ("ok", "")
    assert (run.workflow, run.decided_by) == ("inspect", "pattern")
    assert run.admin_initiated is False
    assert run.finished_at >= run.started_at
    assert [(c.seq, c.purpose, c.model, c.stop_reason, c.error) for c in calls] == [
        (1, "main", "claude-sonnet-5-5", "tool_use", ""),
        (2, "main", "claude-sonnet-5-5", "end_turn", ""),
    ]
    assert [(t.name, t.is_error, t.error_code) for t in tools] == [("list_transactions", False, "")]
    assert tools[0].call_id == next(f["call_id"] for f in frames if f["type"] == "tool")
    usage = done["message"]["metadata"]["usage"]
    assert run.input_tokens == usage["input"] == sum(c.input_tokens for c in calls)
    assert run.output_tokens == usage["output"] > 0
    assert run.cache_read_tokens == usage["cache_read"]
    assert run.cache_write_tokens == usage["cache_write"] > 0
    assert (run.model_calls, run.tool_calls, run.tool_errors) == (2, 1, 0)
    await talk.close()


async def test_a_failing_tool_is_recorded_with_its_error_code(alice, fake):
    thread, talk = await new_chat(alice)
    fake.route = "create"
    fake.script(
        model.tools(("create_manual_transaction", {"amount": "a lot", "description": "Taxi"})),
        model.text("How much was it?"),
    )
    assert (await talk.say("add taxi a lot"))[-1]["type"] == "done"
    [(run, _, tools)] = await _runs(thread)
    assert run.outcome == "ok"
    assert run.tool_errors == 1
    [tool] = tools
    assert tool.name == "create_manual_transaction"
    assert tool.is_error is True
    assert tool.error_code
    await talk.close()


async def test_a_stopped_turn_is_recorded_as_aborted_with_its_partial_call(alice, fake):
    thread, talk = await new_chat(alice)
    fake.script(model.text(" ".join(f"w{n}" for n in range(60)), token_delay=0.03))
    await talk.send({"type": "user_message", "id": "s1", "text": "show my transactions"})
    await talk.until("token")
    await talk.send({"type": "stop"})
    assert (await talk.until())[-1]["code"] == "STOPPED"
    [(run, calls, _)] = await _runs(thread)
    assistant = await sync_to_async(Message.objects.get)(thread=thread, role="assistant")
    assert (run.outcome, run.error_code) == ("aborted", "STOPPED")
    assert run.assistant_message_id == assistant.id
    [call] = calls
    assert call.error == "STOPPED"
    assert call.input_tokens + call.cache_write_tokens > 0
    await talk.close()


async def test_a_disconnect_mid_stream_still_records_the_run(alice, alice_cookie, fake):
    thread = await sync_to_async(chat.thread)(alice)
    talk, connected, _ = await open_socket(alice_cookie, thread.id)
    assert connected
    fake.script(model.text(" ".join(f"w{n}" for n in range(60)), token_delay=0.03))
    await talk.send({"type": "user_message", "id": "d1", "text": "show my transactions"})
    await talk.until("token")
    await talk.close()
    for _ in range(50):
        if await _runs(thread):
            break
        await asyncio.sleep(0.05)
    [(run, _, _)] = await _runs(thread)
    assert (run.outcome, run.error_code) == ("aborted", "STOPPED")


async def test_a_provider_error_is_recorded_with_its_cause(alice, fake):
    thread, talk = await new_chat(alice)
    fake.script(model.text("one two three four", error_after_tokens=2, error_type="overloaded_error"))
    assert (await talk.say("show my transactions"))[-1]["code"] == "PROVIDER_UNAVAILABLE"
    [(run, calls, _)] = await _runs(thread)
    assert (run.outcome, run.error_code) == ("error", "PROVIDER_UNAVAILABLE")
    assert [c.error for c in calls] == ["PROVIDER_UNAVAILABLE"]
    assert run.assistant_message_id is not None
    await talk.close()


async def test_a_router_call_is_recorded_with_its_purpose(alice, fake, settings):
    thread, talk = await new_chat(alice)
    fake.route = "inspect"
    fake.script(model.text("Sure."))
    assert (await talk.say("hmm, what about that thing"))[-1]["type"] == "done"
    [(run, calls, _)] = await _runs(thread)
    assert run.decided_by == "model"
    assert [(c.purpose, c.model) for c in calls] == [
        ("router", settings.ZEUS_ROUTER_MODEL),
        ("main", settings.ZEUS_MODEL),
    ]
    assert run.input_tokens == sum(c.input_tokens for c in calls)
    await talk.close()


async def test_a_turn_without_a_provider_key_is_recorded_as_an_error(alice, fake, settings):
    settings.ANTHROPIC_API_KEY = ""
    thread, talk = await new_chat(alice)
    assert (await talk.say("show my transactions"))[-1]["code"] == "AI_PROVIDER_REQUIRED"
    [(run, calls, _)] = await _runs(thread)
    assert (run.outcome, run.error_code, run.assistant_message_id) == ("error", "AI_PROVIDER_REQUIRED", None)
    assert calls == []
    await talk.close()


async def test_a_failing_audit_write_does_not_lose_the_reply(alice, fake, monkeypatch):
    from django.db import DatabaseError

    from chat import audit

    def broken(**kwargs):
        raise DatabaseError("audit table unavailable")

    monkeypatch.setattr(audit, "turn_run_record", broken)
    thread, talk = await new_chat(alice)
    fake.script(model.text("Still here."))
    assert (await talk.say("show my transactions"))[-1]["type"] == "done"
    assistant = await sync_to_async(Message.objects.get)(thread=thread, role="assistant")
    assert assistant.parts == [{"type": "text", "text": "Still here."}]
    assert await _runs(thread) == []
    await talk.close()
