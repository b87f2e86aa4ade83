"""A streamed Messages API response, accumulated from its raw events.

The SDK's MessageStream rebuilds a full pydantic snapshot on every event; the loop needs only the text as
it arrives and, at the end, the blocks, the stop reason and the usage, so it reads the raw events of
`messages.create(stream=True)` and keeps this much smaller record.
"""

import json
from dataclasses import dataclass, field


@dataclass
class Block:
    type: str
    text: str = ""
    id: str = ""
    name: str = ""
    raw_input: str = ""
    input: dict | None = None
    input_error: bool = False


@dataclass
class Response:
    blocks: dict[int, Block] = field(default_factory=dict)
    stop_reason: str | None = None
    usage: dict = field(default_factory=dict)

    @property
    def content(self) -> list[Block]:
        return [self.blocks[i] for i in sorted(self.blocks)]

    def add(self, event) -> Block | None:
        """Folds one raw event in; returns the block it touched, if any."""
        kind = event.type
        if kind == "message_start":
            self.usage = usage_dict(event.message.usage)
        elif kind == "content_block_start":
            start = event.content_block
            block = Block(type=start.type, id=getattr(start, "id", ""), name=getattr(start, "name", ""))
            self.blocks[event.index] = block
            return block
        elif kind == "content_block_delta":
            block = self.blocks.get(event.index)
            if block is not None:
                if event.delta.type == "text_delta":
                    block.text += event.delta.text
                elif event.delta.type == "input_json_delta":
                    block.raw_input += event.delta.partial_json
            return block
        elif kind == "content_block_stop":
            block = self.blocks.get(event.index)
            if block is not None and block.type == "tool_use":
                try:
                    parsed = json.loads(block.raw_input) if block.raw_input.strip() else {}
                except ValueError:
                    parsed = None
                block.input = parsed if isinstance(parsed, dict) else {}
                block.input_error = not isinstance(parsed, dict)
            return block
        elif kind == "message_delta":
            self.stop_reason = event.delta.stop_reason
            # Counts on message_delta are cumulative totals: they replace, and absent ones keep the start's.
            for key, value in usage_dict(event.usage).items():
                if value is not None:
                    self.usage[key] = value
        return None


def usage_dict(usage) -> dict:
    if usage is None:
        return {}
    return {
        "input": getattr(usage, "input_tokens", None),
        "output": getattr(usage, "output_tokens", None),
        "cache_read": getattr(usage, "cache_read_input_tokens", None),
        "cache_write": getattr(usage, "cache_creation_input_tokens", None),
    }
