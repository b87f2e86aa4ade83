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
"""

import json

from zeus.text import scrub_data

MAX_SENT_BYTES = 256 * 1024


def sent_record(
    *, facts: str | None, messages: list[dict] | None, router: str | None, withheld: tuple[str, ...] = ()
) -> dict | None:
    """The record of one turn's requests, or None when no model call was made."""
    if messages is None and router is None:
        return None
    names = {
        block.get("id"): block.get("name")
        for message in messages or []
        for block in _blocks(message)
        if block.get("type") == "tool_use"
    }
    entries = [{"role": m["role"], "content": [_block(b, names, withheld) for b in _blocks(m)]} for m in messages or []]
    record = {"facts": facts, "router": router, "messages": entries, "omitted_messages": 0}
    while _size(record) > MAX_SENT_BYTES and record["messages"]:
        record["messages"] = record["messages"][1:]
        record["omitted_messages"] += 1
    return scrub_data(record)


def _blocks(message: dict) -> list[dict]:
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content or [] if isinstance(b, dict)]


def _block(block: dict, names: dict, withheld: tuple[str, ...]) -> dict:
    kind = block.get("type")
    if kind == "text":
        text = block.get("text", "")
        if text in withheld:
            return {"type": "staff_instruction"}
        return {"type": "text", "text": text}
    if kind == "tool_use":
        return {"type": "tool_use", "name": block.get("name"), "input": block.get("input")}
    if kind == "tool_result":
        return {
            "type": "tool_result",
            "name": names.get(block.get("tool_use_id")),
            "output": _parsed(block.get("content")),
            "is_error": bool(block.get("is_error")),
        }
    if kind in ("thinking", "redacted_thinking"):
        return {"type": "thinking"}
    return {"type": str(kind)}


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
