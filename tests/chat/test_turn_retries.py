"""Whole turns against a model that fails: 429 and 529 and an error event retried before the first token, an
error after tokens ending the turn clearly."""

import pytest

from tests.chat import fake_anthropic as model
from tests.chat.harness import new_chat, stored_messages

pytestmark = pytest.mark.django_db(transaction=True)


async def test_429_and_529_are_retried_before_the_first_token(alice, fake):
    _, talk = await new_chat(alice)
    fake.script(model.rate_limited(), model.overloaded(), model.text("Here you go."))
    frames = await talk.say("show my transactions")
    assert frames[-1]["type"] == "done"
    assert [r["status"] for r in fake.requests] == [429, 529, 200]
    assert [f for f in frames if f["type"] == "error"] == []
    await talk.close()


async def test_an_error_event_before_any_token_is_retried(alice, fake):
    _, talk = await new_chat(alice)
    fake.script(model.text("never shown", error_after_tokens=0), model.text("Here you go."))
    frames = await talk.say("show my transactions")
    assert frames[-1]["type"] == "done"
    assert "".join(f["text"] for f in frames if f["type"] == "token") == "Here you go."
    assert len(fake.main_requests) == 2
    await talk.close()


@pytest.mark.parametrize(
    ("error_type", "code"), [("overloaded_error", "PROVIDER_UNAVAILABLE"), ("rate_limit_error", "RATE_LIMITED")]
)
async def test_an_error_mid_stream_after_tokens_ends_the_turn_clearly(alice, fake, error_type, code):
    thread, talk = await new_chat(alice)
    fake.script(model.text("one two three four five", error_after_tokens=2, error_type=error_type))
    frames = await talk.say("show my transactions")
    assert [f["text"] for f in frames if f["type"] == "token"] == ["one ", "two "]
    assert frames[-1]["type"] == "error"
    assert frames[-1]["code"] == code
    assert len(fake.main_requests) == 1
    assistant = (await stored_messages(thread, "assistant"))[0]
    assert assistant.parts == [{"type": "text", "text": "one two "}]
    assert assistant.metadata["aborted"] is True
    await talk.close()
