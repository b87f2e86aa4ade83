"""What a test scripts the server to answer: a model response (Reply) or an HTTP error (Status)."""

import itertools
from dataclasses import dataclass, field

_ids = itertools.count(1)


def next_id() -> int:
    """A number no other id of this server has had (tool_use, message and request ids)."""
    return next(_ids)


@dataclass
class Reply:
    """A model response. `blocks` holds ("text", str) and ("tool_use", name, input, id) tuples; the server
    puts the thinking block in front when the model thinks. `thinking` is that block's text as the API would
    show it (display omitted: empty); `think` forces a thinking block on (True) or off (False)."""

    blocks: list[tuple] = field(default_factory=list)
    stop_reason: str | None = None
    thinking: str | None = None
    think: bool | None = None
    thinking_delay: float = 0.0  # seconds spent "thinking" before the block's signature
    token_delay: float = 0.0
    error_after_tokens: int | None = None  # an `event: error` after this many text tokens (HTTP 200)
    error_type: str = "overloaded_error"
    output_tokens: int | None = None
    delay: float = 0.0  # seconds before the response starts (a slow model, for timeouts)


@dataclass
class Status:
    """An HTTP error answer, e.g. 429 rate_limit_error or 529 overloaded_error."""

    status: int
    error_type: str = "rate_limit_error"
    retry_after: float = 0.01


def text(value: str, **options) -> Reply:
    return Reply(blocks=[("text", value)], **options)


def tool_use(name: str, tool_input: dict, call_id: str | None = None) -> tuple:
    return ("tool_use", name, tool_input, call_id or f"toolu_{next_id():06d}")


def tools(*calls: tuple, say: str | None = None, **options) -> Reply:
    """A response calling tools; each call is tool_use(...) or (name, input)."""
    blocks = [("text", say)] if say else []
    for call in calls:
        blocks.append(call if call[0] == "tool_use" else tool_use(*call))
    return Reply(blocks=blocks, **options)


def rate_limited(retry_after: float = 0.01) -> Status:
    return Status(429, "rate_limit_error", retry_after)


def overloaded(retry_after: float = 0.01) -> Status:
    return Status(529, "overloaded_error", retry_after)
