"""Raw stream events → one response, as the loop reads them."""

from chat.provider.stream import Response

Event = dict  # a raw event is its JSON object, as the API sends it


def _usage(**counts):
    return Event(
        input_tokens=counts.get("input"),
        output_tokens=counts.get("output"),
        cache_read_input_tokens=counts.get("read"),
        cache_creation_input_tokens=counts.get("write"),
    )


def test_it_assembles_text_and_tool_input_from_chunks_and_keeps_cumulative_usage():
    response = Response()
    events = [
        Event(type="message_start", message=Event(usage=_usage(input=100, output=1, read=80, write=0))),
        Event(type="content_block_start", index=0, content_block=Event(type="text", text="")),
        Event(type="content_block_delta", index=0, delta=Event(type="text_delta", text="Hel")),
        Event(type="content_block_delta", index=0, delta=Event(type="text_delta", text="lo")),
        Event(type="content_block_stop", index=0),
        Event(type="content_block_start", index=1, content_block=Event(type="tool_use", id="t1", name="list_x")),
        Event(type="content_block_delta", index=1, delta=Event(type="input_json_delta", partial_json='{"li')),
        Event(type="content_block_delta", index=1, delta=Event(type="input_json_delta", partial_json='mit": 5}')),
        Event(type="content_block_stop", index=1),
        Event(type="message_delta", delta=Event(stop_reason="tool_use"), usage=_usage(output=42)),
    ]
    for event in events:
        response.add(event)
    text, tool = response.content
    assert text.text == "Hello"
    assert (tool.id, tool.name, tool.input, tool.input_error) == ("t1", "list_x", {"limit": 5}, False)
    assert response.stop_reason == "tool_use"
    assert response.usage == {"input": 100, "output": 42, "cache_read": 80, "cache_write": 0}


def test_tool_input_that_is_not_a_json_object_is_flagged():
    for raw in ('{"limit": ', "[1, 2]"):
        response = Response()
        response.add(Event(type="content_block_start", index=0, content_block=Event(type="tool_use", id="t", name="n")))
        response.add(Event(type="content_block_delta", index=0, delta=Event(type="input_json_delta", partial_json=raw)))
        response.add(Event(type="content_block_stop", index=0))
        assert response.content[0].input_error is True
        assert response.content[0].input == {}
