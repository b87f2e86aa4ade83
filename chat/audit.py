"""The run audit: what one turn did, collected in memory while it runs and written in one go at its end.

Each Turn (chat.turn.data) holds a RunRecord; the agent loop notes each model call (main or router) and each
tool call on it. A turn's end is written in two trips: chat.services.assistant_reply_record stores the reply
and adds the turn's tokens to the user's daily counter before `done` goes out (the user's next turn may start
the moment they hear it, and its budget check must see this spend); `run_record` then writes the TurnRun and
bulk-creates its children, after the client has its answer. The usage summary over these rows is
chat.selectors.daily_usage_summary.
"""

import datetime as dt
import logging
import time
from dataclasses import dataclass, field
from decimal import Decimal

from django.db import DatabaseError, transaction
from django.utils import timezone

from chat.models import ModelCall, ToolCall, TurnRun
from chat.pricing import call_cost, configured_prices, price_for, quantize_cost, weighted_tokens
from chat.usage import budget_reached

log = logging.getLogger(__name__)

TOKEN_KINDS = ("input", "output", "cache_read", "cache_write")
# Aborts the user or the clock caused; every other cause code is an error.
ABORT_CODES = frozenset({"STOPPED", "TIMEOUT"})


@dataclass
class ModelCallNote:
    purpose: str
    model: str
    started: float
    response: object = None  # a chat.provider.stream.Response still filling up, read at the end
    usage: dict = field(default_factory=dict)
    stop_reason: str = ""
    duration_ms: int | None = None
    error: str = ""

    def end(self, *, usage: dict | None = None, stop_reason: str | None = None, error: str = "") -> None:
        self.duration_ms = round((time.monotonic() - self.started) * 1000)
        if usage is not None:
            self.usage = usage
        if stop_reason:
            self.stop_reason = stop_reason
        self.error = error

    def tokens(self) -> dict:
        usage = self.usage or getattr(self.response, "usage", None) or {}
        return {kind: usage.get(kind) or 0 for kind in TOKEN_KINDS}

    def cost(self) -> Decimal:
        """USD, unrounded, at this call's model's price (chat/pricing.py)."""
        return call_cost(self.tokens(), price_for(self.model, configured_prices()))

    def budget_tokens(self) -> int:
        return weighted_tokens(self.tokens(), price_for(self.model, configured_prices()))


@dataclass
class ToolCallNote:
    name: str
    call_id: str
    duration_ms: int
    is_error: bool
    error_code: str


@dataclass
class RunRecord:
    user_id: int
    thread_id: object
    day: dt.date
    timezone: str
    user_message_id: int | None = None
    admin: bool = False
    started_at: dt.datetime = field(default_factory=timezone.now)
    started: float = field(default_factory=time.monotonic)
    model_calls: list[ModelCallNote] = field(default_factory=list)
    tool_calls: list[ToolCallNote] = field(default_factory=list)
    used_before: int = 0  # the user's budget tokens today when the turn began
    budget: int = 0  # their daily token budget then; 0 = unlimited
    cost_before: Decimal = Decimal(0)  # the user's USD today when the turn began
    cost_budget: Decimal = Decimal(0)  # their daily money budget then; 0 = unlimited
    unverified_figures: list[str] = field(default_factory=list)  # set by the turn once the reply is known

    def model_call(self, purpose: str, model: str, response=None) -> ModelCallNote:
        note = ModelCallNote(purpose=purpose, model=model, started=time.monotonic(), response=response)
        self.model_calls.append(note)
        return note

    def tool_call(self, *, name: str, call_id: str, started: float, output, is_error: bool) -> None:
        code = ""
        if is_error and isinstance(output, dict) and isinstance(output.get("error"), dict):
            code = str(output["error"].get("code") or "")[:64]
        duration = round((time.monotonic() - started) * 1000)
        self.tool_calls.append(ToolCallNote(name, call_id, duration, is_error, code))

    def budget_tokens(self) -> int:
        """This turn's spend against the token budget: cache reads and writes at their price's weight."""
        return sum(c.budget_tokens() for c in self.model_calls)

    def cost(self) -> Decimal:
        return sum((c.cost() for c in self.model_calls), Decimal(0))

    def budget_reached(self) -> str | None:
        """Which daily budget the user's day plus this turn has reached ("tokens" | "cost"), or None."""
        return budget_reached(
            tokens=self.used_before + self.budget_tokens(),
            cost=self.cost_before + self.cost(),
            token_budget=self.budget,
            cost_budget=self.cost_budget,
        )


def turn_run_record(
    *,
    record: RunRecord,
    workflow: str,
    decided_by: str,
    outcome: str,
    error_code: str = "",
    assistant_message_id: int | None = None,
) -> TurnRun:
    finished = time.monotonic()
    model_rows = []
    totals = dict.fromkeys(TOKEN_KINDS, 0)
    for seq, note in enumerate(record.model_calls, start=1):
        tokens = note.tokens()
        for kind in TOKEN_KINDS:
            totals[kind] += tokens[kind]
        stop_reason = note.stop_reason or getattr(note.response, "stop_reason", None) or ""
        unfinished = note.duration_ms is None
        model_rows.append(
            ModelCall(
                seq=seq,
                purpose=note.purpose,
                model=note.model,
                duration_ms=round((finished - note.started) * 1000) if unfinished else note.duration_ms,
                input_tokens=tokens["input"],
                output_tokens=tokens["output"],
                cache_read_tokens=tokens["cache_read"],
                cache_write_tokens=tokens["cache_write"],
                stop_reason=stop_reason[:32],
                # A call still open at the end was cut by the turn's own abort.
                error=(error_code or "ABORTED") if unfinished else note.error,
                cost_usd=quantize_cost(note.cost()),
            )
        )
    tool_rows = [
        ToolCall(
            seq=seq,
            name=n.name,
            call_id=n.call_id,
            duration_ms=n.duration_ms,
            is_error=n.is_error,
            error_code=n.error_code,
        )
        for seq, n in enumerate(record.tool_calls, start=1)
    ]
    with transaction.atomic():
        run = TurnRun.objects.create(
            user_id=record.user_id,
            thread_id=record.thread_id,
            user_message_id=record.user_message_id,
            assistant_message_id=assistant_message_id,
            admin_initiated=record.admin,
            day=record.day,
            workflow=workflow or "",
            decided_by=decided_by or "",
            started_at=record.started_at,
            finished_at=timezone.now(),
            duration_ms=round((finished - record.started) * 1000),
            outcome=outcome,
            error_code=error_code or "",
            model_calls=len(model_rows),
            tool_calls=len(tool_rows),
            tool_errors=sum(1 for n in record.tool_calls if n.is_error),
            input_tokens=totals["input"],
            output_tokens=totals["output"],
            cache_read_tokens=totals["cache_read"],
            cache_write_tokens=totals["cache_write"],
            cost_usd=quantize_cost(record.cost()),
            unverified_figures=list(record.unverified_figures),
            unverified_count=len(record.unverified_figures),
        )
        for row in [*model_rows, *tool_rows]:
            row.run = run
        if model_rows:
            ModelCall.objects.bulk_create(model_rows)
        if tool_rows:
            ToolCall.objects.bulk_create(tool_rows)
    return run


def run_record(*, run: dict, assistant_message_id: int | None = None) -> None:
    """The run audit of a finished turn; a failing audit write is logged, never passed on."""
    try:
        turn_run_record(**run, assistant_message_id=assistant_message_id)
    except DatabaseError:
        log.exception("could not record the run of a turn in thread %s", run["record"].thread_id)


def outcome_of(error: str | None) -> tuple[str, str]:
    """A turn's cause code → (outcome, code): stops and the deadline abort, anything else is an error."""
    if not error:
        return TurnRun.Outcome.OK, ""
    return (TurnRun.Outcome.ABORTED if error in ABORT_CODES else TurnRun.Outcome.ERROR), error
