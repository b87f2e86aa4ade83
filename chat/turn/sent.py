"""What a turn sent to the model provider, as the user reads it under the reply (CONTRACT §10,
docs/contract/rest.md "What was sent").

Taken from the requests themselves, not rebuilt from stored rows: the messages of the turn's last model call
(each call's conversation extends the one before, so the last holds every earlier one's, every tool result
included), the per-turn facts of the system prompt (the user's today, currency, time zone and language; the
rest of the system prompt and the tool definitions are the same for everyone and left out), and what the
router model was given to choose the workflow. Kept as plain blocks: text; a tool call (name and input); a
tool result (the tool's name and its output as sent); the model's own thinking, sent back to it, noted but
not kept; a staff member's steering instruction (the turn's `withheld` texts, chat.turn.admin), noted but not
shown.

Bounded: a record over MAX_SENT_BYTES leaves out its oldest messages and says how many (they are the thread's
own earlier messages, which the user can read above).

Built from what the turn holds: a tool result's output is the object the turn sent as that JSON text
(`outputs`, chat.turn.conversation.tool_result_block), already storable (scrubbed by the tool batch, or read
from a stored reply); only a result the turn does not hold is parsed back, and it is made storable then. Texts
are scrubbed here (docs/security.md): the record must be storable in one piece with the reply.
"""

import json

from zeus.text import scrub, scrub_data

MAX_SENT_BYTES = 256 * 1024


def sent_record(
    *,
    facts: str | None,
    messages: list[dict] | None,
    router: str | None,
    withheld: tuple[str, ...] = (),
    outputs: dict | None = None,
) -> dict | None:
    """The record of one turn's requests, or None when no model call was made. `outputs`: each tool result's
    output by the JSON text it was sent as."""
    if messages is None and router is None:
        return None
    names = {
        block.get("id"): _text(block.get("name"))
        for message in messages or []
        for block in _blocks(message)
        if block.get("type") == "tool_use"
    }
    entries = [
        {"role": m["role"], "content": [_block(b, names, withheld, outputs or {}) for b in _blocks(m)]}
        for m in messages or []
    ]
    record = {
        "facts": _text(facts),
        "router": _text(router),
        "messages": entries,
        "omitted_messages": 0,
    }
    while _size(record) > MAX_SENT_BYTES and record["messages"]:
        record["messages"] = record["messages"][1:]
        record["omitted_messages"] += 1
    return record


def _text(value):
    return scrub(value) if isinstance(value, str) else value


def _blocks(message: dict) -> list[dict]:
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content or [] if isinstance(b, dict)]


def _block(block: dict, names: dict, withheld: tuple[str, ...], outputs: dict) -> dict:
    kind = block.get("type")
    if kind == "text":
        text = block.get("text", "")
        if text in withheld:
            return {"type": "staff_instruction"}
        return {"type": "text", "text": _text(text)}
    if kind == "tool_use":
        return {"type": "tool_use", "name": _text(block.get("name")), "input": scrub_data(block.get("input"))}
    if kind == "tool_result":
        content = block.get("content")
        held = isinstance(content, str) and content in outputs
        return {
            "type": "tool_result",
            "name": names.get(block.get("tool_use_id")),
            "output": outputs[content] if held else scrub_data(_parsed(content)),
            "is_error": bool(block.get("is_error")),
        }
    if kind in ("thinking", "redacted_thinking"):
        return {"type": "thinking"}
    return {"type": _text(str(kind))}


def _parsed(content):
    """A tool result goes as the JSON text of its output: shown as that output."""
    if isinstance(content, str):
        try:
            return json.loads(content)
        except ValueError:
            return content
    return content


def _size(record: dict) -> int:
    return len(json.dumps(record, ensure_ascii=False, default=str).encode("utf-8", "replace"))
