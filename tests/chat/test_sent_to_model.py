"""What was sent to the model, per reply (CONTRACT §10, chat/turn/sent.py): taken from the requests the loopback
Messages API server received, readable over REST and as a page, escaped, bounded, and the user's own."""

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from rest_framework.test import APIClient

from chat.admin_reply import admin_reply_send
from chat.models import Message, SentToModel
from chat.turn.sent import MAX_SENT_BYTES, sent_record
from tests import factories
from tests.chat import factories as chat
from tests.chat import fake_anthropic as model
from tests.chat.harness import new_chat

pytestmark = pytest.mark.django_db(transaction=True)

HOSTILE = '<script>alert("x")</script> Phở Hòa'


def _api(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {factories.api_key(user)}")
    return client


def _url(thread_id, message_id) -> str:
    return f"/api/v1/chat/threads/{thread_id}/messages/{message_id}/sent"


async def _read_turn(alice, fake):
    await sync_to_async(factories.txn)(alice, amount="85000", description=HOSTILE, category="dining")
    thread, talk = await new_chat(alice)
    fake.script(model.tools(("list_transactions", {"limit": 5})), model.text("You spent 85,000 ₫ on phở."))
    frames = await talk.say("show my transactions")
    await talk.close()
    return thread, frames[-1]["message"]


async def test_a_reply_keeps_exactly_what_its_turn_sent_tool_results_included(alice, fake):
    thread, reply = await _read_turn(alice, fake)
    assert reply["metadata"]["sent_to_model"] is True
    body = await sync_to_async(lambda: _api(alice).get(_url(thread.id, reply["id"])).json())()

    last = fake.main_requests[-1]["body"]
    # The record is the last request's messages and per-turn facts, as the model server received them.
    expected = sent_record(facts=last["system"][-1]["text"], messages=last["messages"], router=None)
    assert {k: body[k] for k in ("facts", "router", "messages", "omitted_messages")} == expected
    assert body["message_id"] == reply["id"] and body["model"] == reply["metadata"]["model"] and body["sent_at"]
    assert "VND" in body["facts"] and "Asia/Ho_Chi_Minh" in body["facts"]
    user, asked, answered = body["messages"]
    assert user == {"role": "user", "content": [{"type": "text", "text": "show my transactions"}]}
    assert asked["content"][-1] == {"type": "tool_use", "name": "list_transactions", "input": {"limit": 5}}
    result = answered["content"][0]
    assert result["type"] == "tool_result" and result["name"] == "list_transactions" and not result["is_error"]
    assert result["output"]["transactions"][0]["description"] == HOSTILE
    # A user message sent nothing of its own; nothing leaks the system prompt's stable part.
    user_message = await sync_to_async(Message.objects.filter(thread=thread, role="user").get)()
    assert (await sync_to_async(lambda: _api(alice).get(_url(thread.id, user_message.id)))()).status_code == 404
    assert "You are Zeus" not in json.dumps(body)


async def test_the_router_models_prompt_is_kept_when_it_was_asked(alice, fake):
    thread, talk = await new_chat(alice)
    fake.route = "inspect"
    fake.script(model.text("Sure."))
    reply = (await talk.say("hmm, what about that thing"))[-1]["message"]
    await talk.close()
    assert reply["metadata"]["decided_by"] == "model"
    body = await sync_to_async(lambda: _api(alice).get(_url(thread.id, reply["id"])).json())()
    router_request = next(
        r for r in fake.model_requests if r["body"]["model"] != fake.main_requests[0]["body"]["model"]
    )
    assert body["router"] == router_request["body"]["messages"][0]["content"]
    assert "hmm, what about that thing" in body["router"]


async def test_it_is_the_users_own(alice, bob, fake):
    thread, reply = await _read_turn(alice, fake)

    def answers():
        return [
            _api(bob).get(_url(thread.id, reply["id"])).status_code,
            _api(alice).get(_url(thread.id, 10**30)).status_code,
            _api(alice).get(_url(thread.id, "abc")).status_code,
            _api(alice).get(_url("not-a-thread", reply["id"])).status_code,
            APIClient().get(_url(thread.id, reply["id"])).status_code,
        ]

    statuses = await sync_to_async(answers)()
    assert statuses[:4] == [404, 404, 404, 404] and statuses[4] in (401, 403)
    other = await sync_to_async(chat.thread)(alice)
    assert (await sync_to_async(lambda: _api(alice).get(_url(other.id, reply["id"])))()).status_code == 404


async def test_the_page_shows_it_escaped(alice, bob, fake):
    thread, reply = await _read_turn(alice, fake)

    def pages():
        page = Client()
        page.force_login(alice)
        mine = page.get(f"/chat/{thread.id}/messages/{reply['id']}/sent")
        page.force_login(bob)
        return mine, page.get(f"/chat/{thread.id}/messages/{reply['id']}/sent")

    mine, bobs = await sync_to_async(pages)()
    html = mine.content.decode()
    assert mine.status_code == 200 and bobs.status_code == 404
    assert "What was sent to the model?" in html and "list_transactions" in html
    assert "<script>alert" not in html and "&lt;script&gt;alert(\\&quot;x\\&quot;)&lt;/script&gt; Phở Hòa" in html


async def test_a_staff_reply_shows_that_an_instruction_was_sent_but_not_what(alice, staff, fake):
    prompt = "Gently remind them their dining budget is nearly used up"
    thread = await sync_to_async(chat.thread)(alice)
    await sync_to_async(chat.user_message)(thread, "show my transactions")
    fake.script(model.text("A quick heads-up."))
    message = await sync_to_async(admin_reply_send)(staff_user=staff, thread_id=thread.id, prompt=prompt)
    sent = await sync_to_async(SentToModel.objects.get)(message=message)
    assert prompt in json.dumps(fake.main_requests[0]["body"]["messages"])
    assert prompt not in json.dumps(sent.content)
    assert sent.content["messages"][0]["content"] == [
        {"type": "text", "text": "show my transactions"},
        {"type": "staff_instruction"},
    ]


async def test_a_turn_that_failed_before_the_model_keeps_no_record(alice, fake, settings):
    settings.ANTHROPIC_API_KEY = ""
    thread, talk = await new_chat(alice)
    assert (await talk.say("show my transactions"))[-1]["code"] == "AI_PROVIDER_REQUIRED"
    await talk.close()
    assert not await sync_to_async(SentToModel.objects.filter(message__thread=thread).exists)()


def test_a_record_over_its_bound_leaves_out_the_oldest_messages_and_says_how_many():
    big = "x" * 60_000
    messages = [
        {"role": "user" if i % 2 == 0 else "assistant", "content": [{"type": "text", "text": big}]} for i in range(9)
    ]
    messages.append({"role": "user", "content": [{"type": "text", "text": "the newest"}]})
    record = sent_record(facts="facts", messages=messages, router=None)
    assert len(json.dumps(record).encode()) <= MAX_SENT_BYTES
    assert record["omitted_messages"] == 10 - len(record["messages"]) > 0
    assert record["messages"][-1]["content"] == [{"type": "text", "text": "the newest"}]


def test_thinking_is_noted_not_kept_and_nothing_was_sent_is_no_record():
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}}]},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "secret chain", "signature": "sig"},
                {"type": "tool_use", "id": "t1", "name": "list_goals", "input": {}},
            ],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "not json"}]},
    ]
    record = sent_record(facts=None, messages=messages, router=None)
    assert record["messages"][0]["content"] == [{"type": "text", "text": "hi"}]
    assert record["messages"][1]["content"][0] == {"type": "thinking"}
    assert "secret chain" not in json.dumps(record)
    assert record["messages"][2]["content"][0]["output"] == "not json"
    assert sent_record(facts="f", messages=None, router=None) is None


def test_a_result_the_turn_holds_is_recorded_as_held_and_any_other_is_parsed_and_scrubbed():
    held_text = json.dumps({"rows": [1, 2]})
    messages = [
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "t1", "name": "list_goals", "input": {"q": "a\x00b"}},
                {"type": "tool_use", "id": "t2", "name": "list_budgets", "input": {}},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "t1", "content": held_text},
                {"type": "tool_result", "tool_use_id": "t2", "content": json.dumps({"note": "x\x00y"})},
            ],
        },
    ]
    # The held object stands for the text (not a parse of it), so a record built from the text would differ.
    held = {"rows": ["the object the turn sent"]}
    record = sent_record(facts="f\x00", messages=messages, router=None, outputs={held_text: held})
    first, second = record["messages"][1]["content"]
    assert first == {"type": "tool_result", "name": "list_goals", "output": held, "is_error": False}
    assert second["output"] == {"note": "x\ufffdy"}
    assert record["messages"][0]["content"][0]["input"] == {"q": "a\ufffdb"}
    assert record["facts"] == "f\ufffd"
