"""Thinking and redacted_thinking blocks folded from raw stream events and replayed byte for byte."""

from chat.provider.stream import Response

Event = dict  # a raw event is its JSON object, as the API sends it


def _start(index, **block):
    return Event(type="content_block_start", index=index, content_block=Event(**block))


def _delta(index, **delta):
    return Event(type="content_block_delta", index=index, delta=Event(**delta))


def test_thinking_blocks_keep_text_and_signature_and_go_back_first_and_unchanged():
    response = Response()
    events = [
        _start(0, type="thinking", thinking="", signature=""),
        _delta(0, type="thinking_delta", thinking="Checking "),
        _delta(0, type="thinking_delta", thinking="the ledger."),
        _delta(0, type="signature_delta", signature="EqQBCkgIARABGAIiQL"),
        Event(type="content_block_stop", index=0),
        _start(1, type="redacted_thinking", data="opaque=="),
        Event(type="content_block_stop", index=1),
        _start(2, type="text", text=""),
        _delta(2, type="text_delta", text="Let me look."),
        Event(type="content_block_stop", index=2),
        _start(3, type="tool_use", id="toolu_1", name="list_transactions", input={}),
        _delta(3, type="input_json_delta", partial_json='{"limit": 5}'),
        Event(type="content_block_stop", index=3),
        Event(type="message_delta", delta=Event(stop_reason="tool_use"), usage=None),
    ]
    for event in events:
        response.add(event)
    assert [b.is_thinking for b in response.content] == [True, True, False, False]
    assert response.replay_content() == [
        {"type": "thinking", "thinking": "Checking the ledger.", "signature": "EqQBCkgIARABGAIiQL"},
        {"type": "redacted_thinking", "data": "opaque=="},
        {"type": "text", "text": "Let me look."},
        {"type": "tool_use", "id": "toolu_1", "name": "list_transactions", "input": {"limit": 5}},
    ]
    assert [b.id for b in response.tool_uses()] == ["toolu_1"]


def test_a_response_that_did_not_stop_for_tools_has_no_calls_to_replay():
    response = Response()
    for event in (
        _start(0, type="tool_use", id="toolu_1", name="list_transactions", input={}),
        Event(type="content_block_stop", index=0),
        Event(type="message_delta", delta=Event(stop_reason="max_tokens"), usage=None),
    ):
        response.add(event)
    assert response.tool_uses() == [] and response.replay_content() == []
