"""One chat turn, as a plain module: the consumer, the admin reply and the tests drive it without a socket.

Frames go out through `emit` in the order of CONTRACT §3.2: ack, phase, tool, token, spec, then done or
error. The agent loop streams from the official SDK, runs the tool calls of one response concurrently,
and stops after MAX_MODEL_CALLS calls or the deadline. Whatever happens, what the user saw and what the
tools did is persisted: a stop, a disconnect, the deadline or a provider failure store the partial reply
with `metadata.aborted`, and tool calls that started always finish and are recorded.
"""

import asyncio
import dataclasses
import json
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import anthropic
from django.conf import settings

from chat import audit, limits, router, usage
from chat.loop import prompt
from chat.loop.context import build_conversation, prior_assistant_text, tool_result_block, user_texts
from chat.loop.db import off_loop, run_off_loop
from chat.loop.provider import ProviderFailure, classify, client_for
from chat.loop.stream import Response, usage_dict
from chat.models import Message, Thread
from chat.selectors import (
    Provider,
    confirmed_tool,
    context_messages,
    message_to_dict,
    provider_for,
    provider_from,
)
from chat.services import admin_reply_payload, user_message_record
from chat.tools import ToolContext, ToolOutcome, decide_approval, execute_tool
from chat.ui_events import ui_event_to_turn
from zeus.errors import Conflict, ValidationFailed
from zeus.live import apush_to_user
from zeus.selectors import profile_get
from zeus.timeutil import user_today

log = logging.getLogger(__name__)

Emit = Callable[[dict], Awaitable[None]]

# Our own retries of an `error` event that arrives before the first token (the SDK does not retry those).
STREAM_RETRIES = 2
STREAM_BACKOFF = 0.25
ROUTER_MAX_TOKENS = 16
MUTATING_PREFIXES = ("create_", "update_", "delete_")
_BAD_INPUT = {"error": {"code": "INVALID_INPUT", "message": "The tool input was not a JSON object; nothing was run."}}


@dataclass(frozen=True)
class TurnInput:
    """A `user_message` (text) or a `ui_event` (event + payload); `client_id` is the frame's id."""

    client_id: str
    text: str | None = None
    event: str | None = None
    payload: dict | None = None


@dataclass
class TurnResult:
    status: str  # "done" | "error" | "duplicate"
    message: Message | None = None
    error: str | None = None


@dataclass
class _State:
    model: str
    parts: list[dict] = field(default_factory=list)
    live_text: str = ""  # streamed in the current model call, not yet in `parts`
    usage: dict = field(default_factory=lambda: {"input": 0, "output": 0, "cache_read": 0, "cache_write": 0})
    calls: int = 0
    tools_used: list[str] = field(default_factory=list)
    phase: str | None = None
    workflow: str = "coach"
    decided_by: str = "default"
    run: audit.RunRecord | None = None
    lock: limits.TurnLock | None = None  # the caller's, freed in the trip that stores the reply
    reply: asyncio.Future | None = None  # the trip storing the reply, once started
    run_error: str | None = None  # the cause code the run is recorded with

    def add_usage(self, usage: dict) -> None:
        for key in self.usage:
            self.usage[key] += usage.get(key) or 0

    def flush_text(self) -> None:
        if self.live_text.strip():
            self.parts.append({"type": "text", "text": self.live_text})
        self.live_text = ""


async def _noop(frame: dict) -> None:
    return None


def _tool_context(user, thread_id) -> ToolContext:
    profile = profile_get(user=user)
    return ToolContext(
        user=user,
        thread_id=thread_id,
        today=user_today(user),
        currency=profile.currency,
        timezone=profile.timezone,
        language=profile.language,
    )


@dataclass
class _Begun:
    ctx: ToolContext
    message: Message
    created: bool
    provider: Provider | None = None
    history: list[Message] = field(default_factory=list)
    usage: tuple[int, int] = (0, 0)  # (tokens used today, daily budget)


def _begin(
    *, user, thread: Thread, client_id: str, text: str, ctx: ToolContext | None, lock: limits.TurnLock | None
) -> _Begun:
    """Everything a turn reads and writes before the model, in one trip off the event loop. A repeated id
    frees the caller's lock (and its rate count) in the same trip."""
    message, created = user_message_record(thread=thread, client_id=client_id, text=text)
    if not created:
        if lock is not None:
            lock._release_repeat()
        return _Begun(ctx=ctx, message=message, created=False)
    ctx = ctx or _tool_context(user, thread.id)
    used, budget, ciphertext = usage.turn_account(user_id=user.id, day=ctx.today)
    return _Begun(
        ctx=ctx,
        message=message,
        created=True,
        provider=provider_from(ciphertext),
        history=context_messages(thread_id=thread.id),
        usage=(used, budget),
    )


_db_begin = off_loop(_begin)
_db_tool_context = off_loop(_tool_context)
_db_context = off_loop(context_messages)
_db_run = off_loop(audit.run_record)
_runs_writing: set[asyncio.Task] = set()


def _reply_then_release(lock: limits.TurnLock | None, **fields) -> Message | None:
    """Stores the reply, then frees the thread in the same trip: the client may send its next message the
    moment it hears `done`, and that message must never be refused as TURN_IN_PROGRESS."""
    try:
        return audit.reply_record(**fields)
    finally:
        if lock is not None:
            lock._release()


_db_reply = off_loop(_reply_then_release)
_db_confirmed_tool = off_loop(confirmed_tool)


async def run_turn(
    *, user, thread: Thread, turn_input: TurnInput, emit: Emit, lock: limits.TurnLock | None = None
) -> TurnResult:
    """Runs one user turn end to end. The caller holds the thread's turn `lock`; the turn frees it off the
    event loop right after the reply is stored, before `done` goes out. A message whose id is already
    stored is no turn: it frees the lock, emits nothing and returns "duplicate" (the caller acknowledges)."""
    started = time.monotonic()
    ctx = None
    preface: list[dict] = []
    confirmed = None
    try:
        if turn_input.event == "confirm":
            ctx = await _db_tool_context(user, thread.id)
            text, confirmed = await _confirm_text(ctx, turn_input.payload or {}, preface)
        elif turn_input.event is not None:
            text = ui_event_to_turn(turn_input.event, turn_input.payload or {})
        else:
            text = turn_input.text or ""
    except ValidationFailed as exc:
        await emit({"type": "error", "code": "BAD_FRAME", "message": exc.message})
        return TurnResult("error", error="BAD_FRAME")

    begun = await _db_begin(user=user, thread=thread, client_id=turn_input.client_id, text=text, ctx=ctx, lock=lock)
    if not begun.created:
        return TurnResult("duplicate", message=begun.message)
    await emit({"type": "ack", "id": turn_input.client_id})
    run = audit.RunRecord(
        user_id=user.id,
        thread_id=thread.id,
        day=begun.ctx.today,
        timezone=begun.ctx.timezone,
        user_message_id=begun.message.id,
        used_before=begun.usage[0],
        budget=begun.usage[1],
    )
    # An approved delete ran in this turn: clients refresh what they show when tools_used names a mutation.
    state = _State(
        model=settings.ZEUS_MODEL,
        parts=list(preface),
        run=run,
        tools_used=[confirmed] if confirmed else [],
        lock=lock,
    )
    try:
        if preface:
            # The confirmed action's result card, in contract order (after a phase, before tokens).
            await _phase(state, emit, "thinking")
            for part in preface:
                await emit({"type": "spec", "spec": part["spec"]})
        if begun.provider is None:
            return await _finish_error(
                state, thread, started, emit, "AI_PROVIDER_REQUIRED", "Add an Anthropic API key in chat settings."
            )
        return await _run_agent(
            state=state,
            thread=thread,
            ctx=begun.ctx,
            provider=begun.provider,
            history=begun.history,
            conversation=build_conversation(begun.history),
            emit=emit,
            started=started,
        )
    finally:
        await _record_run(state)


async def _confirm_text(ctx: ToolContext, payload: dict, preface: list[dict]) -> tuple[str, str | None]:
    """The turn text for a confirm click, and the tool the approval ran (None when nothing ran)."""
    approval_id, decision = payload.get("approval_id"), payload.get("decision")
    outcome = await decide_approval(ctx, approval_id=approval_id, decision=decision)
    if outcome.card:
        preface.append({"type": "spec", "spec": outcome.card})
    tool = (
        await _db_confirmed_tool(thread_id=ctx.thread_id, approval_id=approval_id)
        or (outcome.card or {}).get("tool")
        or outcome.output.get("tool")
    )
    ran = tool if decision == "approve" and "error" not in outcome.output else None
    try:
        return ui_event_to_turn("confirm_result", {"tool": tool, "decision": decision, "output": outcome.output}), ran
    except ValidationFailed:
        # An unknown or stale approval names no tool; the model still hears what happened.
        return f"I chose to {decision} a confirmation. Result: {json.dumps(outcome.output, sort_keys=True)}", None


async def run_admin_turn(*, thread: Thread, staff_user, prompt: str) -> Message:
    """A staff-initiated reply: the prompt steers this one model call and is never stored. The staff turn
    may read and show, never change the user's ledger, so mutation tools are withheld."""
    lock = limits.TurnLock(thread.id)
    if not await lock.acquire():
        raise Conflict("A turn is in progress in this thread; try again in a moment.", code="TURN_IN_PROGRESS")
    try:
        started = time.monotonic()
        user = thread.user
        ctx = await _db_tool_context(user, thread.id)
        provider = await run_off_loop(_admin_provider, user)
        if provider is None:
            raise ValidationFailed("No AI provider key is configured.", code="AI_PROVIDER_REQUIRED")
        history = await _db_context(thread_id=thread.id)
        conversation = build_conversation(history)
        instruction = (
            "[Internal instruction from Zeus staff; the user did not write this and will not see it. "
            "Write your next message to the user accordingly.]\n" + prompt
        )
        if conversation and conversation[-1]["role"] == "user":
            conversation[-1]["content"].append({"type": "text", "text": instruction})
        else:
            conversation.append({"role": "user", "content": [{"type": "text", "text": instruction}]})
        run = audit.RunRecord(user_id=user.id, thread_id=thread.id, day=ctx.today, timezone=ctx.timezone, admin=True)
        state = _State(model=settings.ZEUS_MODEL, run=run)
        try:
            result = await _run_agent(
                state=state,
                thread=thread,
                ctx=ctx,
                provider=provider,
                history=history,
                conversation=conversation,
                emit=_noop,
                started=started,
                extra_texts=[prompt],
                admin=True,
            )
        finally:
            await _record_run(state)
    finally:
        await lock.release()
    if result.status != "done":
        # A partial reply stays in the history marked aborted; only a finished one is pushed.
        raise ValidationFailed(
            f"The model did not produce a reply ({result.error}).", code=result.error or "PROVIDER_UNAVAILABLE"
        )
    await apush_to_user(user.id, admin_reply_payload(result.message))
    return result.message


def _admin_provider(user) -> Provider | None:
    if settings.ANTHROPIC_API_KEY:
        return Provider(
            api_key=settings.ANTHROPIC_API_KEY, base_url=settings.ANTHROPIC_BASE_URL or None, personal=False
        )
    return provider_for(user=user)


async def _run_agent(
    *,
    state: _State,
    thread: Thread,
    ctx: ToolContext,
    provider: Provider,
    history: list[Message],
    conversation: list[dict],
    emit: Emit,
    started: float,
    extra_texts: list[str] | None = None,
    admin: bool = False,
) -> TurnResult:
    client = client_for(provider)
    try:
        async with asyncio.timeout(limits.TURN_DEADLINE_SECONDS):
            route = await _route(client, state, history, extra_texts or [])
            tools = route.tools
            if admin:
                tools = tuple(t for t in tools if not t.startswith(MUTATING_PREFIXES))
            state.workflow, state.decided_by = route.workflow, route.decided_by
            if "allowed_tools" in getattr(ToolContext, "__dataclass_fields__", {}):
                # The catalog can enforce the workflow's subset itself, beyond what the model is offered.
                ctx = dataclasses.replace(ctx, allowed_tools=frozenset(tools))
            await _phase(state, emit, "thinking")
            await _loop(client, state, ctx, tools, conversation, emit)
    except TimeoutError:
        return await _finish_error(
            state, thread, started, emit, "TIMEOUT", "The turn took too long and was stopped.", admin=admin
        )
    except asyncio.CancelledError:
        return await _finish_error(state, thread, started, emit, "STOPPED", "Stopped.", admin=admin)
    except ProviderFailure as failure:
        cause = failure.__cause__
        log.warning(
            "provider failure in thread %s: %s (%s %s)",
            thread.id,
            failure.code,
            type(cause).__name__,
            getattr(cause, "status_code", ""),
        )
        return await _finish_error(state, thread, started, emit, failure.code, failure.message, admin=admin)
    except Exception:
        log.exception("chat turn failed in thread %s", thread.id)
        return await _finish_error(
            state, thread, started, emit, "PROVIDER_UNAVAILABLE", "Something went wrong; try again.", admin=admin
        )
    message = await _store(state, thread, started, admin=admin)
    await emit(
        {
            "type": "done",
            "message": message_to_dict(message),
            "tools_used": list(dict.fromkeys(state.tools_used)),
            "workflow": state.workflow,
        }
    )
    return TurnResult("done", message=message)


async def _route(client, state: _State, history: list[Message], extra_texts: list[str]) -> router.Route:
    texts = user_texts(history) + extra_texts
    prior = prior_assistant_text(history)
    decided = router.route_by_patterns(texts, prior)
    if decided is not None:
        return decided
    _check_budget(state)
    note = state.run.model_call("router", settings.ZEUS_ROUTER_MODEL)
    try:
        reply = await client.messages.create(
            model=settings.ZEUS_ROUTER_MODEL,
            max_tokens=ROUTER_MAX_TOKENS,
            system=router.ROUTER_SYSTEM_PROMPT,
            messages=[{"role": "user", "content": router.router_user_prompt(texts, prior)}],
        )
    except anthropic.APIError as exc:
        note.end(error=classify(exc).code)
        log.warning("router model failed (%s); using the default workflow", type(exc).__name__)
        return router.route_from_model_reply("")
    note.end(usage=usage_dict(reply.usage), stop_reason=reply.stop_reason)
    state.add_usage(usage_dict(reply.usage))
    text = "".join(block.text for block in reply.content if block.type == "text")
    return router.route_from_model_reply(text)


async def _phase(state: _State, emit: Emit, phase: str) -> None:
    if state.phase != phase:
        state.phase = phase
        await emit({"type": "phase", "phase": phase})


async def _loop(client, state: _State, ctx: ToolContext, tool_names, conversation: list[dict], emit: Emit) -> None:
    system = prompt.system_blocks(today=ctx.today, currency=ctx.currency, timezone=ctx.timezone, language=ctx.language)
    tools = prompt.tool_list(tool_names)
    while state.calls < limits.MAX_MODEL_CALLS:
        state.calls += 1
        final = await _stream_call(client, state, system=system, tools=tools, conversation=conversation, emit=emit)
        state.add_usage(final.usage)
        state.flush_text()
        content: list[dict] = []
        uses = []
        for block in final.content:
            if block.type == "text" and block.text.strip():
                # Its part was stored when the block finished streaming.
                content.append({"type": "text", "text": block.text})
            elif block.type == "tool_use" and final.stop_reason == "tool_use":
                content.append({"type": "tool_use", "id": block.id, "name": block.name, "input": block.input or {}})
                uses.append((block.id, block.name, block.input or {}, block.input_error))
        if not uses:
            return
        conversation.append({"role": "assistant", "content": content})
        results = await _run_tools(state, ctx, uses, emit)
        conversation.append({"role": "user", "content": results})
        await _phase(state, emit, "thinking")


def _check_budget(state: _State) -> None:
    """Before every model call: today's usage as read when the turn began plus what this turn spent so far.
    Staff replies are neither checked nor charged; their cost shows in the run audit."""
    run = state.run
    if not run.admin and run.budget and run.used_before + run.budget_tokens() >= run.budget:
        raise usage.UsageLimitReached(usage.limit_message(run.budget, run.timezone))


def _run_fields(state: _State, error: str | None) -> dict:
    outcome, code = audit.outcome_of(error)
    return {
        "record": state.run,
        "workflow": state.workflow,
        "decided_by": state.decided_by,
        "outcome": outcome,
        "error_code": code,
    }


async def _record_run(state: _State) -> None:
    """The turn's run audit, written once the client has its `done` or `error`. A turn cut before it could
    store its end (a second stop, a disconnect while finishing) is recorded as STOPPED, its tokens still
    counted. The write runs to its end even if the turn is cancelled again meanwhile."""
    task = asyncio.ensure_future(_write_run(state))
    _runs_writing.add(task)
    task.add_done_callback(_runs_writing.discard)
    await asyncio.shield(task)


async def _write_run(state: _State) -> None:
    try:
        if state.reply is None:
            state.run_error = "STOPPED"
            await _db_reply(None, thread_id=state.run.thread_id, parts=None, metadata=None, record=state.run)
            message = None
        else:
            message = await state.reply
        await _db_run(run=_run_fields(state, state.run_error), assistant_message_id=message.id if message else None)
    except Exception:
        log.exception("could not record the run of a turn in thread %s", state.run.thread_id)


async def _stream_call(client, state: _State, *, system, tools, conversation, emit: Emit) -> Response:
    _check_budget(state)
    attempt = 0
    while True:
        forwarded = False
        response = Response()
        note = state.run.model_call("main", state.model, response)
        try:
            stream = await client.messages.create(
                model=state.model,
                max_tokens=limits.MAX_OUTPUT_TOKENS,
                system=system,
                tools=tools or anthropic.omit,
                messages=_with_tail_breakpoint(conversation),
                stream=True,
            )
            # Leaving this block closes the HTTP response: a stop or the deadline aborts the model stream.
            async with stream:
                async for event in stream:
                    block = response.add(event)
                    if event.type == "content_block_delta" and block is not None and block.type == "text":
                        text = event.delta.text
                        if text:
                            await _phase(state, emit, "generating")
                            state.live_text += text
                            forwarded = True
                            await emit({"type": "token", "text": text})
                    elif event.type == "content_block_stop" and block is not None and block.type == "text":
                        # A finished text block is kept even if a later block fails mid-stream.
                        state.flush_text()
            note.end()
            return response
        except anthropic.APIError as exc:
            failure = classify(exc)
            note.end(error=failure.code)
            if forwarded or not failure.retryable or attempt >= STREAM_RETRIES:
                state.flush_text()
                raise failure from exc
            attempt += 1
            await asyncio.sleep(STREAM_BACKOFF * 2 ** (attempt - 1) * (0.75 + random.random() / 2))


def _with_tail_breakpoint(conversation: list[dict]) -> list[dict]:
    """A third cache breakpoint on the newest block, so the later calls of a multi-step turn read the
    earlier ones' prefix from the cache."""
    if not conversation:
        return conversation
    last = conversation[-1]
    content = [dict(block) for block in last["content"]]
    content[-1]["cache_control"] = prompt.CACHE
    return [*conversation[:-1], {"role": last["role"], "content": content}]


async def _run_tools(state: _State, ctx: ToolContext, uses, emit: Emit) -> list[dict]:
    """Runs the calls of one response concurrently. A stop or the deadline does not interrupt them: a
    mutation that started is finished and recorded, then the interruption goes on."""
    for call_id, name, _, _ in uses:
        state.tools_used.append(name)
        await emit({"type": "tool", "name": name, "call_id": call_id, "status": "calling"})

    async def one(call_id: str, name: str, tool_input: dict, input_error: bool) -> ToolOutcome:
        began = time.monotonic()
        try:
            if input_error:
                outcome = ToolOutcome(_BAD_INPUT, True, None)
            else:
                outcome = await execute_tool(ctx, name=name, call_id=call_id, tool_input=tool_input)
        except Exception:
            log.exception("tool %s raised", name)
            outcome = ToolOutcome({"error": {"code": "TOOL_FAILED", "message": "The tool failed."}}, True, None)
        state.run.tool_call(name=name, call_id=call_id, started=began, output=outcome.output, is_error=outcome.is_error)
        await emit(
            {"type": "tool", "name": name, "call_id": call_id, "status": "error" if outcome.is_error else "done"}
        )
        if outcome.card:
            await emit({"type": "spec", "spec": outcome.card})
        return outcome

    running = asyncio.ensure_future(asyncio.gather(*(one(*use) for use in uses)))
    interrupted: asyncio.CancelledError | None = None
    while not running.done():
        try:
            await asyncio.shield(running)
        except asyncio.CancelledError as exc:
            if running.cancelled():
                raise
            interrupted = exc
    outcomes = running.result()
    results = []
    for (call_id, name, tool_input, _), outcome in zip(uses, outcomes, strict=True):
        state.parts.append(
            {
                "type": "tool",
                "name": name,
                "call_id": call_id,
                "input": tool_input,
                "output": outcome.output,
                "is_error": outcome.is_error,
            }
        )
        if outcome.card:
            state.parts.append({"type": "spec", "spec": outcome.card})
        results.append(tool_result_block(call_id, outcome.output, outcome.is_error))
    if interrupted is not None:
        raise interrupted
    return results


def _metadata(state: _State, started: float, *, aborted: bool = False, error: str | None = None, admin=False) -> dict:
    metadata = {
        "workflow": state.workflow,
        "model": state.model,
        "usage": dict(state.usage),
        "duration_ms": round((time.monotonic() - started) * 1000),
        "decided_by": state.decided_by,
        "model_calls": state.calls,
    }
    if admin:
        metadata["admin_initiated"] = True
    if aborted:
        metadata["aborted"] = True
    if error:
        metadata["error"] = error
    return metadata


async def _store(state: _State, thread: Thread, started: float, *, keep_message=True, **flags) -> Message | None:
    """The reply (unless there is nothing to keep) and the tokens it spent, in one trip that also frees the
    thread. The run audit follows after the client has its answer (_record_run)."""
    state.flush_text()
    state.run_error = flags.get("error")
    state.reply = asyncio.ensure_future(
        _db_reply(
            state.lock,
            thread_id=thread.id,
            parts=state.parts if keep_message else None,
            metadata=_metadata(state, started, **flags),
            record=state.run,
        )
    )
    # Shielded: a second stop or a disconnect while saving must not lose what the user already saw.
    return await asyncio.shield(state.reply)


async def _finish_error(
    state: _State, thread: Thread, started: float, emit: Emit, code: str, text: str, admin: bool = False
) -> TurnResult:
    state.flush_text()
    message = await _store(
        state, thread, started, keep_message=bool(state.parts), aborted=True, error=code, admin=admin
    )
    await emit({"type": "error", "code": code, "message": text})
    return TurnResult("error", message=message, error=code)
