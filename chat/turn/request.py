"""What is sent to the model, in one place: the main call of the agent loop and the router's call.

Prompt caching reads the prefix tools → system → messages: the tools and the system come from chat.turn.prompt
(stable bytes, three breakpoints), and the fourth sits on the newest block so the later calls of a multi-step
turn read the earlier ones' prefix from the cache, and the next turn reads this one's. Thinking and effort per
model come from chat.provider.wire (docs/chat.md, "Models and what Zeus sends"): never sampling parameters, a
forced tool choice or a prefill.
"""

from django.conf import settings

from chat import limits, router
from chat.provider.wire import ROUTER_MAX_TOKENS, main_request_options, router_request_options
from chat.turn import prompt


def model_request(
    *, model: str, system: list[dict], tools: list[dict], conversation: list[dict], workflow: str = "coach"
) -> dict:
    """The keyword arguments of one streamed `messages.create` of the agent loop."""
    request = {
        "model": model,
        "max_tokens": limits.MAX_OUTPUT_TOKENS,
        "system": system,
        "messages": with_tail_breakpoint(conversation),
        "stream": True,
        **main_request_options(model, workflow, settings.ZEUS_EFFORT),
    }
    if tools:  # a workflow without tools sends no `tools` field at all
        request["tools"] = tools
    return request


def router_request(texts: list[str], prior: str | None) -> dict:
    """The keyword arguments of the router model's one short call."""
    return {
        "model": settings.ZEUS_ROUTER_MODEL,
        "max_tokens": ROUTER_MAX_TOKENS,
        "system": router.ROUTER_SYSTEM_PROMPT,
        "messages": [{"role": "user", "content": router.router_user_prompt(texts, prior)}],
        **router_request_options(settings.ZEUS_ROUTER_MODEL),
    }


def with_tail_breakpoint(conversation: list[dict]) -> list[dict]:
    if not conversation:
        return conversation
    last = conversation[-1]
    content = [dict(block) for block in last["content"]]
    content[-1]["cache_control"] = prompt.CACHE
    return [*conversation[:-1], {"role": last["role"], "content": content}]
