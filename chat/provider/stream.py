"""A streamed Messages API response, accumulated from its raw events.

The SDK's MessageStream rebuilds a full pydantic snapshot on every event, and even `messages.create(stream=True)`
builds a pydantic object per event; the loop needs only the text as it arrives and, at the end, the blocks, the
stop reason and the usage, so it reads the server-sent events' JSON as it comes (chat/turn/streaming.py, through
the SDK's public `AsyncStream.raw_events`) and keeps this much smaller record.

Thinking blocks (`thinking` with its signature, `redacted_thinking` with its data) are kept as they came:
when the response called tools, `replay_content` sends them back first and unchanged with the tool
results, as the API requires. Their text is never shown to the user nor stored as a part.
"""

import json
from dataclasses import dataclass, field

THINKING_TYPES = ("thinking", "redacted_thinking")


@dataclass
class Block:
    type: str
    text: str = ""
    id: str = ""
    name: str = ""
    raw_input: str = ""
    input: dict | None = None
    input_error: bool = False
    thinking: str = ""
    signature: str = ""
    data: str = ""  # a redacted_thinking block's opaque payload

    @property
    def is_thinking(self) -> bool:
        return self.type in THINKING_TYPES


@dataclass
class Response:
    blocks: dict[int, Block] = field(default_factory=dict)
    stop_reason: str | None = None
    usage: dict = field(default_factory=dict)

    @property
    def content(self) -> list[Block]:
        return [self.blocks[i] for i in sorted(self.blocks)]

    def tool_uses(self) -> list[Block]:
        if self.stop_reason != "tool_use":
            return []
        return [b for b in self.content if b.type == "tool_use"]

    def replay_content(self) -> list[dict]:
        """This response as the assistant turn of the follow-up request: thinking blocks byte for byte, text
        that is not blank, and the tool calls (only when the model stopped to call them)."""
        content: list[dict] = []
        calls = self.stop_reason == "tool_use"
        for block in self.content:
            if block.type == "thinking":
                content.append({"type": "thinking", "thinking": block.thinking, "signature": block.signature})
            elif block.type == "redacted_thinking":
                content.append({"type": "redacted_thinking", "data": block.data})
            elif block.type == "text" and block.text.strip():
                content.append({"type": "text", "text": block.text})
            elif block.type == "tool_use" and calls:
                content.append({"type": "tool_use", "id": block.id, "name": block.name, "input": block.input or {}})
        return content

    def add(self, event: dict) -> Block | None:
        """Folds one raw event (its JSON, as the API sent it) in; returns the block it touched, if any."""
        kind = event.get("type")
        if kind == "message_start":
            self.usage = usage_dict(event["message"].get("usage"))
        elif kind == "content_block_start":
            start = event["content_block"]
            block = Block(
                type=start.get("type", ""),
                id=start.get("id") or "",
                name=start.get("name") or "",
                thinking=start.get("thinking") or "",
                signature=start.get("signature") or "",
                data=start.get("data") or "",
            )
            self.blocks[event["index"]] = block
            return block
        elif kind == "content_block_delta":
            block = self.blocks.get(event["index"])
            if block is not None:
                delta = event["delta"]
                delta_type = delta.get("type")
                if delta_type == "text_delta":
                    block.text += delta["text"]
                elif delta_type == "input_json_delta":
                    block.raw_input += delta["partial_json"]
                elif delta_type == "thinking_delta":
                    block.thinking += delta["thinking"]
                elif delta_type == "signature_delta":
                    block.signature += delta["signature"]
            return block
        elif kind == "content_block_stop":
            block = self.blocks.get(event["index"])
            if block is not None and block.type == "tool_use":
                try:
                    parsed = json.loads(block.raw_input) if block.raw_input.strip() else {}
                except ValueError:
                    parsed = None
                block.input = parsed if isinstance(parsed, dict) else {}
                block.input_error = not isinstance(parsed, dict)
            return block
        elif kind == "message_delta":
            self.stop_reason = event.get("delta", {}).get("stop_reason")
            # Counts on message_delta are cumulative totals: they replace, and absent ones keep the start's.
            for key, value in usage_dict(event.get("usage")).items():
                if value is not None:
                    self.usage[key] = value
        return None


def usage_dict(usage: dict | None) -> dict:
    """The API's usage object (as JSON) → the four counts Zeus keeps."""
    if not usage:
        return {}
    return {
        "input": usage.get("input_tokens"),
        "output": usage.get("output_tokens"),
        "cache_read": usage.get("cache_read_input_tokens"),
        "cache_write": usage.get("cache_creation_input_tokens"),
    }
