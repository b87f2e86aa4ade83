"""A turn as data: what it knows when it begins, the reply it builds, what it spent, how it ended.

The Turn is made once by `user.begin` or `admin.begin`; the agent loop fills its `reply` and its `run`
audit; `finish` stores them. Nothing else holds state between the steps.
"""

import asyncio
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy

from chat import limits, usage
from chat.audit import RunRecord
from chat.models import Message
from chat.router import DEFAULT_ROUTE, Route
from chat.selectors import Provider
from chat.tools import ToolContext
from chat.turn.conversation import build_conversation
from chat.turn.frames import Frames

Emit = Callable[[dict], Awaitable[None]]
# The error frame for a fault on Zeus's side (INTERNAL_ERROR): a bug, or a part of Zeus that is down.
INTERNAL_ERROR_MESSAGE = gettext_lazy("Something went wrong on our side; try again.")


@dataclass
class TurnResult:
    status: str  # "done" | "error" | "duplicate"
    message: Message | None = None
    error: str | None = None


@dataclass
class Reply:
    """The assistant message under construction: its parts, the text still streaming, and the figures its
    metadata reports."""

    parts: list[dict] = field(default_factory=list)
    live_text: str = ""  # streamed in the current model call, not yet in `parts`
    usage: dict = field(default_factory=lambda: {"input": 0, "output": 0, "cache_read": 0, "cache_write": 0})
    model_calls: int = 0
    tools_used: list[str] = field(default_factory=list)

    def add_usage(self, spent: dict) -> None:
        for key in self.usage:
            self.usage[key] += spent.get(key) or 0

    def flush_text(self) -> None:
        if self.live_text.strip():
            self.parts.append({"type": "text", "text": self.live_text})
        self.live_text = ""

    def add_card(self, card: dict) -> None:
        self.parts.append({"type": "spec", "spec": card})


@dataclass
class Turn:
    thread_id: uuid.UUID
    ctx: ToolContext  # the user, their today, currency and timezone; what every tool call runs with
    run: RunRecord  # the run audit, noted as the turn goes
    out: Frames
    model: str
    provider: Provider | None = None
    history: list[Message] = field(default_factory=list)  # the stored messages the model sees
    conversation: list[dict] = field(default_factory=list)  # `history` as the Messages API takes it
    steering: list[str] = field(default_factory=list)  # texts routed with the user's but never stored
    event: tuple[str, dict] | None = None  # the UI event that started it (name, facts), routed as such
    lock: limits.TurnLock | None = None  # the thread's; freed by `finish`, in the trip that stores the reply
    route: Route = DEFAULT_ROUTE
    reply: Reply = field(default_factory=Reply)
    saving: asyncio.Future | None = None  # the trip storing the reply, once started
    error: str | None = None  # the cause code the turn ended with
    started: float = field(default_factory=time.monotonic)  # when its frame arrived
    user_text: str = ""  # what the user said this turn: their own figures are not made up (chat/figures.py)
    # What went to the model provider, for the record under the reply (chat/turn/sent.py): the last main call's
    # messages and per-turn system facts, the router call's prompt, and texts sent but not shown to the user.
    sent_messages: list[dict] | None = None
    sent_facts: str | None = None
    sent_router: str | None = None
    withheld: tuple[str, ...] = ()
    # Each tool result's output as sent, by the JSON text it went as (chat.turn.conversation.tool_result_block).
    sent_outputs: dict[str, object] = field(default_factory=dict)

    def __post_init__(self):
        if not self.conversation:
            self.conversation = build_conversation(self.history, self.sent_outputs)

    @property
    def admin(self) -> bool:
        return self.run.admin

    def check_budget(self) -> None:
        """Before every model call: today's usage as read when the turn began plus what this turn spent so
        far, against the token and the money budget. Staff replies are neither checked nor charged; their
        cost shows in the run audit."""
        run = self.run
        reached = None if run.admin else run.budget_reached()
        if reached == "tokens":
            raise usage.UsageLimitReached(usage.limit_message(run.budget, run.timezone))
        if reached == "cost":
            raise usage.UsageLimitReached(usage.cost_limit_message(run.cost_budget, run.timezone))
