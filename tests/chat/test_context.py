"""Persisted messages → the conversation the model sees, checked against the strict server's rules."""

import pytest

from chat.models import Message
from chat.turn.conversation import INTERRUPTED_NOTE, build_conversation, prior_assistant_text, user_texts
from tests.chat.fake_anthropic import validate


def _user(text):
    return Message(role="user", parts=[{"type": "text", "text": text}])


def _assistant(*parts):
    return Message(role="assistant", parts=list(parts))


def _tool(call_id, output=None, is_error=False):
    return {
        "type": "tool",
        "name": "list_transactions",
        "call_id": call_id,
        "input": {"limit": 1},
        "output": output or {"transactions": []},
        "is_error": is_error,
    }


def _valid(conversation):
    validate({"model": "m", "max_tokens": 10, "messages": conversation})
    return conversation


def test_a_multi_step_reply_becomes_tool_use_then_results_then_text():
    conversation = _valid(
        build_conversation(
            [
                _user("show"),
                _assistant(
                    {"type": "text", "text": "Looking."},
                    _tool("a"),
                    _tool("b"),
                    {"type": "spec", "spec": {"kind": "chart", "version": 1}},
                    {"type": "text", "text": "Here."},
                ),
                _user("thanks"),
            ]
        )
    )
    assert [m["role"] for m in conversation] == ["user", "assistant", "user", "assistant", "user"]
    assert [b["type"] for b in conversation[1]["content"]] == ["text", "tool_use", "tool_use"]
    assert [b["tool_use_id"] for b in conversation[2]["content"]] == ["a", "b"]


def test_a_reply_ending_in_tool_calls_is_closed_so_its_results_never_ride_with_the_next_user_text():
    # The 5.5 models want the thinking blocks of the final assistant turn when the last user turn carries
    # tool results; thinking is never stored, so the stored step is closed with a note instead.
    conversation = _valid(build_conversation([_user("add"), _assistant(_tool("a")), _user("and more")]))
    assert [m["role"] for m in conversation] == ["user", "assistant", "user", "assistant", "user"]
    assert [b["type"] for b in conversation[2]["content"]] == ["tool_result"]
    assert conversation[3]["content"] == [{"type": "text", "text": INTERRUPTED_NOTE}]
    assert conversation[-1]["content"] == [{"type": "text", "text": "and more"}]


def test_a_window_starting_with_assistant_messages_starts_at_the_first_user_message():
    conversation = _valid(build_conversation([_assistant(_tool("x"), {"type": "text", "text": "done"}), _user("next")]))
    assert conversation == [{"role": "user", "content": [{"type": "text", "text": "next"}]}]


def test_user_messages_without_a_reply_are_merged_and_empty_text_is_dropped():
    conversation = _valid(
        build_conversation([_user("one"), _user("two"), _assistant({"type": "text", "text": "  "}), _user("three")])
    )
    assert len(conversation) == 1
    assert [b["text"] for b in conversation[0]["content"]] == ["one", "two", "three"]


def test_an_aborted_reply_without_text_leaves_no_assistant_turn():
    conversation = _valid(build_conversation([_user("hi"), _assistant(), _user("hello?")]))
    assert [m["role"] for m in conversation] == ["user"]


def test_the_strict_server_rejects_what_the_api_rejects():
    from tests.chat.fake_anthropic import InvalidRequest

    tool_use = {"type": "tool_use", "id": "t1", "name": "list_transactions", "input": {}}
    result = {"type": "tool_result", "tool_use_id": "t1", "content": "{}"}
    bad = [
        [{"role": "assistant", "content": "hi"}],
        [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}],
        [{"role": "user", "content": [{"type": "text", "text": ""}]}],
        [{"role": "user", "content": "a"}, {"role": "assistant", "content": [tool_use]}],
        [
            {"role": "user", "content": "a"},
            {"role": "assistant", "content": [tool_use]},
            {"role": "user", "content": "x"},
        ],
        [{"role": "user", "content": [result]}],
        [
            {"role": "user", "content": "a"},
            {"role": "assistant", "content": [tool_use]},
            {"role": "user", "content": [{"type": "text", "text": "x"}, result]},
        ],
    ]
    for messages in bad:
        with pytest.raises(InvalidRequest):
            validate({"model": "m", "max_tokens": 10, "messages": messages})
    for body in (
        {"model": "m", "max_tokens": 4096, "messages": [{"role": "user", "content": "a"}]},
        {
            "model": "m",
            "max_tokens": 10,
            "messages": [{"role": "user", "content": "a"}],
            "tools": [{"name": "bad name!", "input_schema": {"type": "object"}}],
        },
    ):
        with pytest.raises(InvalidRequest):
            validate(body)


def test_routing_reads_the_user_texts_and_the_assistants_last_words():
    history = [_user("add lunch"), _assistant({"type": "text", "text": "Cash or card?"}), _user("cash")]
    assert user_texts(history) == ["add lunch", "cash"]
    assert prior_assistant_text(history) == "Cash or card?"
