"""An offline Anthropic Messages API on loopback, for tests and the bench.

A real HTTP server in a thread (random port) that the real SDK reaches through ANTHROPIC_BASE_URL
(server.py). It answers POST /v1/messages as JSON or as SSE, plays scripted replies in order (or a function
of the request), answers 429/529 with retry-after, sends an `event: error` mid-stream on a 200 and streams
with a delay per token (handler.py; the replies a test scripts are in replies.py). It REJECTS with a 400
invalid_request_error what the real API rejects (validation.py). Every request is recorded.

Models behave as their generation does (models.py). Claude Sonnet 5.5 and Haiku 5.5 think by default:
`thinking` blocks (display omitted: empty text, an opaque signature) come before text and tool calls; with
`thinking: {"type": "between_tools"}` (Sonnet 5.5) there is no up-front thinking, only a progress-update
block after tool results (thinking.py). They refuse, each with the real error's wording: sampling
parameters, forced tool choice, assistant prefill, thinking budgets, `thinking: {"type": "disabled"}`, an
effort level they do not know, `between_tools` at xhigh/max; and a follow-up whose tool results come without
the thinking blocks of the assistant turn that called the tools, changed, or made by another model. Models
of the 4.x generation that are still served keep their old behaviour (no thinking unless asked, sampling and
forced tool choice accepted); retired ones answer 404 as the real API does.

Prompt caching is emulated as the real API does it (caching.py): 512 tokens minimum on the 5.5 models,
1,024 to 4,096 on others, a lookback of 20 blocks; usage reports what was read, what was written past it
and the rest as input.
"""

from tests.chat.fake_anthropic.models import MODELS, ModelProfile, profile
from tests.chat.fake_anthropic.replies import Reply, Status, overloaded, rate_limited, text, tool_use, tools
from tests.chat.fake_anthropic.server import FakeAnthropic
from tests.chat.fake_anthropic.validation import InvalidRequest, validate

__all__ = [
    "MODELS",
    "FakeAnthropic",
    "InvalidRequest",
    "ModelProfile",
    "Reply",
    "Status",
    "overloaded",
    "profile",
    "rate_limited",
    "text",
    "tool_use",
    "tools",
    "validate",
]
