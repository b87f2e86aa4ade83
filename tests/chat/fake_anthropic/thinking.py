"""Thinking blocks: when a model thinks, the block it puts first, its signature (tied to the model and the
conversation), and which block went with which tool call, so a follow-up can be checked for sending it back."""

import base64
import hashlib
import hmac
import json
import threading

from tests.chat.fake_anthropic.caching import strip_cache
from tests.chat.fake_anthropic.models import profile
from tests.chat.fake_anthropic.replies import Reply

_SIGNING_KEY = b"fake-anthropic: thinking blocks are tied to the model and the conversation"


def conversation_hash(messages: list[dict]) -> str:
    return hashlib.sha256(json.dumps(strip_cache(messages), sort_keys=True).encode()).hexdigest()


def sign_thinking(model: str, thinking: str, messages_before: list[dict]) -> str:
    """A signature ties a thinking block to the model that wrote it and to the conversation it answered."""
    payload = json.dumps([model, thinking, conversation_hash(messages_before)]).encode()
    return base64.b64encode(hmac.new(_SIGNING_KEY, payload, hashlib.sha256).digest()).decode()


def thinking_mode(body: dict) -> str | None:
    thinking = body.get("thinking")
    if isinstance(thinking, dict):
        return None if thinking.get("type") == "disabled" else thinking.get("type")
    return "adaptive" if profile(body["model"]).thinks_by_default else None


class ThinkingLedger:
    """The thinking block issued with each tool_use id, for the replay check of the follow-up."""

    def __init__(self):
        self._issued: dict[str, tuple] = {}  # tool_use id → the thinking block of the response that made it
        self._lock = threading.Lock()

    def issued_with(self, call_ids: list[str]) -> tuple | None:
        """The thinking block of the response that made the first of these tool calls, if one was issued."""
        with self._lock:
            return next((self._issued[i] for i in call_ids if i in self._issued), None)

    def blocks(self, body: dict, answer: Reply) -> list[tuple]:
        """The response's blocks, a thinking block first when the model thinks: always with adaptive or
        budgeted thinking, only after tool results with between_tools (its progress update)."""
        mode = thinking_mode(body)
        last = body["messages"][-1]
        after_tools = isinstance(last.get("content"), list) and any(
            b.get("type") == "tool_result" for b in last["content"]
        )
        think = {"adaptive": True, "enabled": True, "between_tools": after_tools}.get(mode, False)
        if answer.think is not None:
            think = answer.think and mode is not None
        blocks = [b for b in answer.blocks if b[0] != "thinking"]
        if not think:
            return blocks
        display = (body.get("thinking") or {}).get("display")
        if answer.thinking is not None:
            words = answer.thinking
        elif mode == "between_tools":
            words = "Progress: read the tool results."  # between_tools progress updates carry their text
        elif mode == "enabled" or display == "summarized":
            words = "Thinking about the request."
        else:
            words = ""  # display omitted, the 5.5 default
        signature = sign_thinking(body["model"], words, body["messages"])
        thinking = ("thinking", words, signature)
        with self._lock:
            for block in blocks:
                if block[0] == "tool_use":
                    self._issued[block[3]] = thinking
        return [thinking, *blocks]
