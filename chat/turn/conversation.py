"""Persisted messages → the Messages API conversation.

The model sees the newest CONTEXT_LIMIT messages. A tool call and its result live in the same stored
assistant message, so trimming by message never separates them. The rebuilt list always starts with a
user message and alternates roles: leading assistant messages are dropped, same-role neighbours (a turn
that failed before its reply) are merged, and empty text is never sent.

Thinking blocks are never stored, so a stored step that called tools goes back without them. The API takes
that for an earlier turn, but not for the final assistant turn of a request whose last user turn carries
tool results (it wants that turn's thinking blocks). A reply that ended on tool results (stopped, or out
of model calls) is therefore closed with a short assistant note, so its results never travel with the next
user text.
"""

import json

from chat.models import Message


def _text_block(text: str) -> dict:
    return {"type": "text", "text": text}


def key_sorted(data):
    """Decoded JSON with every object's keys in sorted order. A tool's input and output reach the model twice:
    in the turn that called the tool, as the model and the tool made them, and in the later turns, read back
    from the stored message, where PostgreSQL's jsonb has put the keys in an order of its own. The later turns
    read the prompt cache past that point only if both are the same bytes, so both are sent key-sorted."""
    if isinstance(data, dict):
        return {k: key_sorted(data[k]) for k in sorted(data)}
    if isinstance(data, list | tuple):
        return [key_sorted(v) for v in data]
    return data


def tool_result_block(call_id: str, output, is_error: bool, outputs: dict | None = None) -> dict:
    """The result as compact JSON with its keys sorted (key_sorted): the same bytes in every turn that sends it,
    and no spaces to pay for. `outputs`, when given, keeps the output under that JSON text, so the record of
    what was sent (chat/turn/sent.py) takes the object in hand instead of parsing the text back."""
    content = json.dumps(output, sort_keys=True, separators=(",", ":"))
    if outputs is not None:
        outputs[content] = output
    return {"type": "tool_result", "tool_use_id": call_id, "content": content, "is_error": bool(is_error)}


INTERRUPTED_NOTE = "(This reply ended before its answer; the tool results above are what it did.)"


def _assistant_turns(parts: list[dict], outputs: dict | None) -> list[dict]:
    """One stored assistant message spans several model steps: [text, tool, tool, text] is an assistant
    turn with two tool_use blocks, a user turn with their results, then an assistant turn with the text."""
    turns: list[dict] = []
    content: list[dict] = []
    results: list[dict] = []

    def flush():
        if content:
            turns.append({"role": "assistant", "content": list(content)})
        if results:
            turns.append({"role": "user", "content": list(results)})
        content.clear()
        results.clear()

    for part in parts:
        kind = part.get("type")
        if kind == "text" and part.get("text", "").strip():
            if results:
                flush()
            content.append(_text_block(part["text"]))
        elif kind == "tool" and part.get("call_id") and "output" in part:
            tool_input = key_sorted(part.get("input") or {})
            content.append({"type": "tool_use", "id": part["call_id"], "name": part["name"], "input": tool_input})
            results.append(tool_result_block(part["call_id"], part["output"], part.get("is_error", False), outputs))
    flush()
    if turns and turns[-1]["role"] == "user":
        turns.append({"role": "assistant", "content": [_text_block(INTERRUPTED_NOTE)]})
    return turns


def _append(conversation: list[dict], turn: dict) -> None:
    if conversation and conversation[-1]["role"] == turn["role"]:
        previous = conversation[-1]["content"]
        # tool_result blocks must lead a user turn: they come first when merging.
        if turn["role"] == "user" and any(b["type"] == "tool_result" for b in turn["content"]):
            conversation[-1]["content"] = [*turn["content"], *previous]
        else:
            conversation[-1]["content"] = [*previous, *turn["content"]]
        return
    conversation.append({"role": turn["role"], "content": list(turn["content"])})


def build_conversation(messages: list[Message], outputs: dict | None = None) -> list[dict]:
    """`outputs`: see tool_result_block."""
    conversation: list[dict] = []
    for message in messages:
        if message.role == Message.Role.USER:
            texts = [_text_block(p["text"]) for p in message.parts if p.get("type") == "text" and p["text"].strip()]
            turns = [{"role": "user", "content": texts}] if texts else []
        else:
            turns = _assistant_turns(message.parts, outputs)
        for turn in turns:
            if not conversation and turn["role"] != "user":
                continue
            if not conversation and any(b["type"] == "tool_result" for b in turn["content"]):
                continue
            _append(conversation, turn)
    return conversation


def user_texts(messages: list[Message]) -> list[str]:
    return [p["text"] for m in messages if m.role == Message.Role.USER for p in m.parts if p.get("type") == "text"]


def prior_assistant_text(messages: list[Message]) -> str | None:
    """The assistant's last words before the newest user message (terse replies are read with them)."""
    seen_user = False
    for message in reversed(messages):
        if message.role == Message.Role.USER:
            seen_user = True
            continue
        if seen_user:
            texts = [p["text"] for p in message.parts if p.get("type") == "text"]
            return "\n".join(texts) or None
    return None
