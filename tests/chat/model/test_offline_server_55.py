"""The offline Messages API speaks the 5.5 generation: thinking blocks with signatures before text and tool
calls (SSE and JSON), the settings the 5.5 models refuse answered 400 with the real error body, thinking
blocks that must come back unchanged with tool results, per-model minimum cacheable lengths and the
lookback; and the 4.x models that are still served keep their old behaviour."""

import json
import urllib.error
import urllib.request

import anthropic
import pytest

from tests.chat import fake_anthropic as model
from tests.chat.fake_anthropic import FakeAnthropic

SONNET = "claude-sonnet-5-5"
HAIKU = "claude-haiku-5-5"
OLD_HAIKU = "claude-haiku-4-5"
TOOL = {"name": "list_transactions", "description": "List.", "input_schema": {"type": "object", "properties": {}}}


@pytest.fixture
def fake():
    with FakeAnthropic() as server:
        yield server


def post(fake, body: dict) -> tuple[int, dict]:
    request = urllib.request.Request(
        f"{fake.url}/v1/messages",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json", "x-api-key": "k"},
    )
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def body(model_name=SONNET, **extra) -> dict:
    return {"model": model_name, "max_tokens": 256, "messages": [{"role": "user", "content": "hi"}], **extra}


def test_a_55_model_thinks_first_in_json_with_its_display_omitted(fake):
    fake.script(model.text("Hello."))
    status, message = post(fake, body())
    assert status == 200
    thinking, text = message["content"]
    assert thinking["type"] == "thinking" and thinking["thinking"] == "" and thinking["signature"]
    assert text == {"type": "text", "text": "Hello."}


def test_a_55_model_streams_its_thinking_block_with_a_signature_before_the_tool_call(fake):
    fake.script(model.tools(("list_transactions", {"limit": 5})))
    client = anthropic.Anthropic(api_key="k", base_url=fake.url)
    events = list(client.messages.create(**body(tools=[TOOL]), stream=True))
    starts = [e.content_block.type for e in events if e.type == "content_block_start"]
    assert starts == ["thinking", "tool_use"]
    deltas = [e.delta.type for e in events if e.type == "content_block_delta"]
    assert deltas[0] == "signature_delta" and "thinking_delta" not in deltas


def test_between_tools_does_not_think_up_front_but_notes_progress_after_tool_results(fake):
    fake.script(model.tools(model.tool_use("list_transactions", {}, "toolu_a")), model.text("Done."))
    first = body(tools=[TOOL], thinking={"type": "between_tools"}, output_config={"effort": "low"})
    status, message = post(fake, first)
    assert status == 200 and [b["type"] for b in message["content"]] == ["tool_use"]
    follow = {
        **first,
        "messages": [
            *first["messages"],
            {"role": "assistant", "content": message["content"]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_a", "content": "[]"}]},
        ],
    }
    status, message = post(fake, follow)
    assert status == 200
    assert [b["type"] for b in message["content"]] == ["thinking", "text"]
    assert message["content"][0]["thinking"]  # progress notes carry their text


REFUSED = [
    ({"temperature": 0.2}, "`temperature` is deprecated for this model."),
    ({"top_p": 0.9}, "`top_p` is deprecated for this model."),
    ({"top_k": 5}, "`top_k` is deprecated for this model."),
    ({"tools": [TOOL], "tool_choice": {"type": "any"}}, "forced tool use is not supported"),
    ({"tools": [TOOL], "tool_choice": {"type": "tool", "name": "list_transactions"}}, "forced tool use"),
    ({"thinking": {"type": "enabled", "budget_tokens": 2000}}, "thinking budgets are not supported"),
    ({"thinking": {"type": "disabled"}}, "between_tools"),
    ({"thinking": {"type": "between_tools"}, "output_config": {"effort": "max"}}, "not available at effort"),
    ({"output_config": {"effort": "extreme"}}, "output_config.effort: Input should be"),
    (
        {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "The answer is"}]},
        "does not support assistant message prefill",
    ),
]


@pytest.mark.parametrize(("extra", "message"), REFUSED)
@pytest.mark.parametrize("model_name", [SONNET, HAIKU])
def test_the_55_models_refuse_what_the_api_refuses_with_its_error_body(fake, model_name, extra, message):
    if model_name == HAIKU and extra.get("thinking", {}).get("type") == "between_tools":
        message = "'between_tools' is not supported for this model"
    status, answer = post(fake, body(model_name, **extra))
    assert status == 400
    assert answer["type"] == "error" and answer["error"]["type"] == "invalid_request_error"
    assert message in answer["error"]["message"]
    assert fake.model_requests == []


def test_the_request_the_docs_show_is_accepted(fake):
    status, _ = post(fake, body(tools=[TOOL], tool_choice={"type": "auto"}, output_config={"effort": "medium"}))
    assert status == 200
    status, _ = post(fake, body(HAIKU, output_config={"effort": "low"}, thinking={"type": "adaptive"}))
    assert status == 200


def _called(fake, model_name=SONNET) -> tuple[dict, dict]:
    fake.script(model.tools(model.tool_use("list_transactions", {}, "toolu_x")), model.text("ok"))
    first = body(model_name, tools=[TOOL])
    status, message = post(fake, first)
    assert status == 200
    return first, message


def _follow(first, assistant_content, model_name=None) -> dict:
    return {
        **first,
        "model": model_name or first["model"],
        "messages": [
            *first["messages"],
            {"role": "assistant", "content": assistant_content},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_x", "content": "[]"}]},
        ],
    }


def test_tool_results_without_the_turns_thinking_block_are_refused(fake):
    first, message = _called(fake)
    without = [b for b in message["content"] if b["type"] != "thinking"]
    status, answer = post(fake, _follow(first, without))
    assert status == 400
    assert "Expected `thinking` or `redacted_thinking`, but found `tool_use`" in answer["error"]["message"]


def test_a_changed_thinking_block_is_refused(fake):
    first, message = _called(fake)
    changed = [dict(b) for b in message["content"]]
    changed[0]["thinking"] = "I changed my mind."
    status, answer = post(fake, _follow(first, changed))
    assert status == 400 and "Invalid `signature`" in answer["error"]["message"]


def test_thinking_blocks_are_tied_to_the_model_that_made_them(fake):
    first, message = _called(fake)
    status, answer = post(fake, _follow(first, message["content"], model_name=HAIKU))
    assert status == 400 and "Invalid `signature`" in answer["error"]["message"]


def test_the_thinking_block_sent_back_unchanged_is_accepted(fake):
    first, message = _called(fake)
    status, answer = post(fake, _follow(first, message["content"]))
    assert status == 200 and answer["content"][-1] == {"type": "text", "text": "ok"}


def test_a_4x_model_still_served_keeps_its_old_behaviour(fake):
    fake.script(model.text("Hi."), model.tools(("list_transactions", {})), model.text("Hm."))
    status, message = post(fake, body(OLD_HAIKU, temperature=0.2))
    assert status == 200 and [b["type"] for b in message["content"]] == ["text"]
    status, message = post(fake, body(OLD_HAIKU, tools=[TOOL], tool_choice={"type": "any"}))
    assert status == 200 and [b["type"] for b in message["content"]] == ["tool_use"]
    status, message = post(fake, body(OLD_HAIKU, max_tokens=2048, thinking={"type": "enabled", "budget_tokens": 1024}))
    assert status == 200 and [b["type"] for b in message["content"]] == ["thinking", "text"]


def test_a_retired_model_is_not_found(fake):
    status, answer = post(fake, body("claude-sonnet-4-5"))
    assert status == 404 and answer["error"]["type"] == "not_found_error"


def _system(chars: int) -> list[dict]:
    return [{"type": "text", "text": "x" * chars, "cache_control": {"type": "ephemeral"}}]


@pytest.mark.parametrize(
    ("model_name", "tokens", "cached"),
    [
        (SONNET, 400, False),
        (SONNET, 700, True),
        (HAIKU, 700, True),
        (OLD_HAIKU, 3000, False),
        (OLD_HAIKU, 4500, True),
        ("claude-sonnet-4-6", 1500, False),
        ("claude-sonnet-4-6", 2500, True),
    ],
)
def test_a_breakpoint_under_the_models_minimum_caches_nothing(fake, model_name, tokens, cached):
    request = body(model_name, system=_system(tokens * 4))
    _, first = post(fake, request)
    _, second = post(fake, request)
    if cached:
        assert first["usage"]["cache_creation_input_tokens"] > 0 and first["usage"]["cache_read_input_tokens"] == 0
        assert second["usage"]["cache_read_input_tokens"] > 0 and second["usage"]["cache_creation_input_tokens"] == 0
    else:
        for usage in (first["usage"], second["usage"]):
            assert usage["cache_creation_input_tokens"] == usage["cache_read_input_tokens"] == 0


def _turns(n: int) -> list[dict]:
    messages = []
    for i in range(n):
        messages.append({"role": "user", "content": [{"type": "text", "text": f"question {i}"}]})
        messages.append({"role": "assistant", "content": [{"type": "text", "text": f"answer {i}"}]})
    messages.append({"role": "user", "content": [{"type": "text", "text": "last"}]})
    return messages


def _tail_breakpoint(messages: list[dict]) -> list[dict]:
    messages = json.loads(json.dumps(messages))
    messages[-1]["content"][-1]["cache_control"] = {"type": "ephemeral"}
    return messages


def _text(role, value):
    return {"role": role, "content": [{"type": "text", "text": value}]}


# The later request adds 2k + 2 blocks after the earlier breakpoint: within the 20-block lookback up to k = 8.
@pytest.mark.parametrize(("k", "hit"), [(0, True), (8, True), (9, False)])
def test_a_breakpoint_reads_a_prefix_cached_up_to_20_blocks_before_it(fake, k, hit):
    system = [{"type": "text", "text": "s" * 3000}]  # no breakpoint of its own
    earlier = _turns(3)
    post(fake, body(system=system, messages=_tail_breakpoint(earlier)))
    later = [*earlier, _text("assistant", "reply")]
    for i in range(k):
        later += [_text("user", f"more {i}"), _text("assistant", f"sure {i}")]
    later.append(_text("user", "now"))
    _, answer = post(fake, body(system=system, messages=_tail_breakpoint(later)))
    usage = answer["usage"]
    assert (usage["cache_read_input_tokens"] > 0) is hit
    assert usage["cache_creation_input_tokens"] > 0
