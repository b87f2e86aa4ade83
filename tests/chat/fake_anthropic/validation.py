"""What the real Messages API refuses with a 400 invalid_request_error (and our own limit on max_tokens): a
tool_result without its tool_use in the previous assistant turn, a tool_use left unanswered, empty text, a
first message not from the user, roles that do not alternate, bad tool names, malformed image and document
blocks and structured output formats (fake_media.py), what each model generation refuses (models.py), and
thinking blocks changed, made by another model or left out of a follow-up to the tools they called."""

import hmac
import re

from tests.chat.fake_anthropic.models import profile
from tests.chat.fake_anthropic.thinking import ThinkingLedger, sign_thinking
from tests.chat.fake_media import MediaInvalid, check_media_block, check_output_format

TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
MAX_TOKENS_LIMIT = 2048

MISSING_THINKING = (
    "{where}.type: Expected `thinking` or `redacted_thinking`, but found `{found}`. When `thinking` is enabled, "
    "a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` "
    "and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this "
    "requirement, disable `thinking`. Please consult our documentation at "
    "https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
)


class InvalidRequest(Exception):
    pass


def _check_text(block: dict, where: str) -> None:
    if not isinstance(block.get("text"), str) or not block["text"].strip():
        raise InvalidRequest(f"{where}: text content blocks must contain non-whitespace text")


def check_generation(body: dict) -> None:
    """What each model generation refuses (MODELS)."""
    model = profile(body["model"])
    thinking = body.get("thinking")
    output_config = body.get("output_config") or {}
    effort = output_config.get("effort") if isinstance(output_config, dict) else None
    if effort is not None:
        if not model.efforts:
            raise InvalidRequest("output_config.effort: effort is not supported for this model.")
        if effort not in model.efforts:
            allowed = ", ".join(f"'{e}'" for e in model.efforts)
            raise InvalidRequest(f"output_config.effort: Input should be {allowed}")
    kind = thinking.get("type") if isinstance(thinking, dict) else None
    if thinking is not None and kind not in ("adaptive", "between_tools", "enabled", "disabled"):
        raise InvalidRequest(
            f"thinking.type: Input tag {kind!r} found using 'type' does not match any of the expected tags: "
            "'adaptive', 'between_tools', 'disabled', 'enabled'"
        )
    if not model.strict:
        if kind == "between_tools":
            raise InvalidRequest("thinking.type: 'between_tools' is not supported for this model.")
        if kind == "enabled" and not (1024 <= int(thinking.get("budget_tokens") or 0) < body["max_tokens"]):
            raise InvalidRequest("thinking.budget_tokens: must be at least 1024 and less than max_tokens")
        return
    for name in ("temperature", "top_p", "top_k"):
        if name in body:
            raise InvalidRequest(f"`{name}` is deprecated for this model.")
    choice = body.get("tool_choice")
    if isinstance(choice, dict) and choice.get("type") in ("any", "tool"):
        raise InvalidRequest(
            "tool_choice: forced tool use is not supported for this model; use `auto` or `none` "
            "and say in the prompt which tool to use."
        )
    if kind == "enabled" or (isinstance(thinking, dict) and "budget_tokens" in thinking):
        raise InvalidRequest(
            "thinking.type.enabled: thinking budgets are not supported for this model. Use "
            "`thinking.type: adaptive` and `output_config.effort` to control how much the model thinks."
        )
    if kind == "disabled":
        raise InvalidRequest(
            "thinking.type.disabled: thinking cannot be disabled for this model. To turn off up-front "
            'thinking, send `thinking: {"type": "between_tools"}`.'
        )
    if kind == "between_tools":
        if not model.between_tools:
            raise InvalidRequest("thinking.type: 'between_tools' is not supported for this model.")
        if effort in ("xhigh", "max"):
            raise InvalidRequest(
                f"thinking.type.between_tools: not available at effort `{effort}`; use `low`, `medium` or "
                "`high`, or adaptive thinking."
            )
    messages = body.get("messages")
    if isinstance(messages, list) and len(messages) > 1 and messages[-1].get("role") == "assistant":
        raise InvalidRequest(
            "This model does not support assistant message prefill. The conversation must end with a user message."
        )


def validate(body: dict, *, max_tokens_limit: int = MAX_TOKENS_LIMIT) -> None:
    """Raises InvalidRequest for what the real Messages API (and our own limits) refuses."""
    if not isinstance(body.get("model"), str) or not body["model"]:
        raise InvalidRequest("model: Field required")
    max_tokens = body.get("max_tokens")
    if not isinstance(max_tokens, int) or not 1 <= max_tokens <= max_tokens_limit:
        raise InvalidRequest(f"max_tokens: must be an integer from 1 to {max_tokens_limit}")
    breakpoints = 0
    system = body.get("system")
    if isinstance(system, list):
        for i, block in enumerate(system):
            _check_text(block, f"system.{i}")
            breakpoints += "cache_control" in block
    elif system is not None and not isinstance(system, str):
        raise InvalidRequest("system: must be a string or a list of text blocks")
    names = set()
    for i, tool in enumerate(body.get("tools") or []):
        name = tool.get("name")
        if not isinstance(name, str) or not TOOL_NAME.match(name):
            raise InvalidRequest(f"tools.{i}.name: String should match pattern '^[a-zA-Z0-9_-]{{1,64}}$'")
        if name in names:
            raise InvalidRequest("tools: Tool names must be unique.")
        names.add(name)
        schema = tool.get("input_schema")
        if not isinstance(schema, dict) or schema.get("type") != "object":
            raise InvalidRequest(f"tools.{i}.input_schema.type: Input should be 'object'")
        breakpoints += "cache_control" in tool
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise InvalidRequest("messages: at least one message is required")
    if messages[0].get("role") != "user":
        raise InvalidRequest('messages: first message must use the "user" role')
    pending: set[str] = set()
    for i, message in enumerate(messages):
        role = message.get("role")
        if role not in ("user", "assistant"):
            raise InvalidRequest(f"messages.{i}.role: Input should be 'user' or 'assistant'")
        if i and messages[i - 1].get("role") == role:
            raise InvalidRequest('messages: roles must alternate between "user" and "assistant"')
        content = message.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        if not isinstance(content, list) or not content:
            raise InvalidRequest(f"messages.{i}: all messages must have non-empty content")
        answered: set[str] = set()
        seen_other = False
        uses: set[str] = set()
        for j, block in enumerate(content):
            kind = block.get("type")
            where = f"messages.{i}.content.{j}"
            breakpoints += "cache_control" in block
            if kind == "text":
                _check_text(block, where)
                seen_other = True
            elif kind == "tool_use":
                if role != "assistant":
                    raise InvalidRequest(f"{where}: tool_use blocks are only allowed in assistant messages")
                if not isinstance(block.get("input"), dict) or not TOOL_NAME.match(str(block.get("name"))):
                    raise InvalidRequest(f"{where}: tool_use needs a valid name and an input object")
                uses.add(block.get("id"))
            elif kind in ("thinking", "redacted_thinking"):
                if role != "assistant":
                    raise InvalidRequest(f"{where}: {kind} blocks are only allowed in assistant messages")
                if kind == "thinking" and not (
                    isinstance(block.get("thinking"), str) and isinstance(block.get("signature"), str)
                ):
                    raise InvalidRequest(f"{where}: thinking blocks need `thinking` and `signature` strings")
                if kind == "redacted_thinking" and not isinstance(block.get("data"), str):
                    raise InvalidRequest(f"{where}.data: Field required")
            elif kind in ("image", "document"):
                try:
                    check_media_block(block, where, role)
                except MediaInvalid as exc:
                    raise InvalidRequest(str(exc)) from None
                seen_other = True
            elif kind == "tool_result":
                if role != "user":
                    raise InvalidRequest(f"{where}: tool_result blocks are only allowed in user messages")
                if seen_other:
                    raise InvalidRequest(f"{where}: tool_result blocks must come first in the user message")
                if block.get("tool_use_id") not in pending:
                    raise InvalidRequest(
                        f"{where}: unexpected `tool_use_id` found in `tool_result` blocks: {block.get('tool_use_id')}. "
                        "Each `tool_result` block must have a corresponding `tool_use` block in the previous message."
                    )
                answered.add(block["tool_use_id"])
            else:
                raise InvalidRequest(f"{where}.type: unsupported block type {kind!r}")
        if pending - answered:
            raise InvalidRequest(
                f"messages.{i}: `tool_use` ids were found without `tool_result` blocks immediately after: "
                + ", ".join(sorted(pending - answered))
            )
        pending = uses
    if pending:
        raise InvalidRequest(
            "messages: `tool_use` ids were found without `tool_result` blocks immediately after: "
            + ", ".join(sorted(pending))
        )
    if breakpoints > 4:
        raise InvalidRequest("A maximum of 4 blocks with cache_control may be provided.")
    try:
        check_output_format(body.get("output_config"))
    except MediaInvalid as exc:
        raise InvalidRequest(str(exc)) from None
    check_generation(body)
    check_signatures(body)


def check_signatures(body: dict) -> None:
    """Every thinking block sent back must be unchanged, from this model, in this conversation."""
    messages = body["messages"]
    for i, message in enumerate(messages):
        content = message.get("content")
        if message.get("role") != "assistant" or not isinstance(content, list):
            continue
        for j, block in enumerate(content):
            if block.get("type") == "thinking":
                expected = sign_thinking(body["model"], block.get("thinking") or "", messages[:i])
                if not hmac.compare_digest(str(block.get("signature") or ""), expected):
                    raise InvalidRequest(f"messages.{i}.content.{j}: Invalid `signature` in `thinking` block")


def check_replay(body: dict, ledger: ThinkingLedger) -> None:
    """A follow-up carrying tool results must send back, unchanged and first, the thinking block of the
    assistant turn that called those tools."""
    messages = body["messages"]
    if len(messages) < 2 or messages[-2].get("role") != "assistant":
        return
    last = messages[-1].get("content")
    if not isinstance(last, list) or not any(b.get("type") == "tool_result" for b in last):
        return
    content = messages[-2].get("content")
    content = content if isinstance(content, list) else [{"type": "text", "text": content}]
    thinking = ledger.issued_with([b.get("id") for b in content if b.get("type") == "tool_use"])
    if thinking is None:
        return
    where = f"messages.{len(messages) - 2}.content.0"
    first = content[0] if content else {}
    if first.get("type") not in ("thinking", "redacted_thinking"):
        raise InvalidRequest(MISSING_THINKING.format(where=where, found=first.get("type")))
    if first.get("signature") != thinking[2] or first.get("thinking") != thinking[1]:
        raise InvalidRequest(f"{where}: Invalid `signature` in `thinking` block")
