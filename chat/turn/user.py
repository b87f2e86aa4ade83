"""A user's turn: begin → route → agent loop → finish.

The caller (the consumer, or tests/chat/harness.py) admits the turn with `limits.admit` and hands over the
thread's lock; from then on the turn owns it and frees it exactly once: with a repeated message in the trip
that finds the repeat, with the reply in the trip that stores it, or on the way out of whatever stopped it
first. A message whose id is already stored is no turn: it emits nothing and returns "duplicate" (the caller
acknowledges). Neither is a message from a user whose consent to the model provider does not hold
(zeus/consent.py): it is refused with CONSENT_REQUIRED before anything is stored, decided or sent.
"""

import asyncio
import json
import time
from dataclasses import dataclass, field

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from chat import limits, usage
from chat.audit import RunRecord
from chat.models import Message, Thread
from chat.off_loop import off_loop
from chat.selectors import Provider, context_messages, provider_from
from chat.services import user_message_record
from chat.tools import ToolContext, card_of, decide_approval, tool_context
from chat.turn import finish
from chat.turn.agent import run_agent
from chat.turn.data import Emit, Turn, TurnResult
from chat.turn.frames import Frames
from chat.turn.inputs import TurnInput
from chat.ui_events import ui_event_to_turn
from zeus.consent import CONSENT_REQUIRED, CONSENT_REQUIRED_MESSAGE
from zeus.errors import ValidationFailed
from zeus.selectors import consent_given, profile_get


async def run_turn(
    *, user, thread: Thread, turn_input: TurnInput, emit: Emit, lock: limits.TurnLock | None = None
) -> TurnResult:
    started = time.monotonic()
    out = Frames(emit)
    try:
        return await _run(user, thread, turn_input, out, lock, started)
    finally:
        # Usually freed already, with the reply or the repeat; this is the way out of whatever came first.
        if lock is not None and not lock.released:
            await asyncio.shield(lock.release())


async def _run(user, thread: Thread, turn_input: TurnInput, out: Frames, lock, started: float) -> TurnResult:
    ctx = None
    cards: list[dict] = []
    confirmed = None
    text = turn_input.text or ""
    event = (turn_input.event, turn_input.payload) if turn_input.event else None
    if turn_input.is_confirm:
        # A confirm runs the stored delete before the turn begins, so consent is asked before that; any other
        # turn asks it in the trip that begins the turn (begin).
        refused = await _db_consent_refusal(user=user, lock=lock)
        if refused is not None:
            return await _refuse(out, refused)
        ctx = await _db_tool_context(user, thread_id=thread.id)
        text, tool, confirmed = await _decide(ctx, turn_input.payload, cards)
        event = ("confirm", {"tool": tool})

    begun = await _db_begin(
        user=user,
        thread=thread,
        client_id=turn_input.client_id,
        text=text,
        ctx=ctx,
        lock=lock,
        consent_asked=turn_input.is_confirm,
    )
    if begun.refused is not None:
        return await _refuse(out, begun.refused)
    if not begun.created:
        return TurnResult("duplicate", message=begun.message)
    await out.ack(turn_input.client_id)
    turn = Turn(
        thread_id=thread.id,
        ctx=begun.ctx,
        run=RunRecord(
            user_id=user.id,
            thread_id=thread.id,
            day=begun.ctx.today,
            timezone=begun.ctx.timezone,
            user_message_id=begun.message.id,
            used_before=begun.account.tokens_used,
            budget=begun.account.token_budget,
            cost_before=begun.account.cost_used,
            cost_budget=begun.account.cost_budget,
        ),
        out=out,
        model=settings.ZEUS_MODEL,
        provider=begun.provider,
        history=begun.history,
        event=event,
        lock=lock,
        started=started,
        user_text=text,
    )
    # An approved delete ran in this turn: clients refresh what they show when tools_used names a mutation.
    if confirmed:
        turn.reply.tools_used.append(confirmed)
    try:
        if cards:
            # The confirmed action's result card, in contract order (after a phase, before tokens).
            await out.phase("thinking")
            for card in cards:
                turn.reply.add_card(card)
                await out.spec(card)
        if turn.provider is None:
            return await finish.failed(turn, "AI_PROVIDER_REQUIRED", _("Add an Anthropic API key in chat settings."))
        return await run_agent(turn)
    finally:
        await finish.record_run(turn)


async def _refuse(out: Frames, refused: str) -> TurnResult:
    await out.error(CONSENT_REQUIRED, refused)
    return TurnResult("error", error=CONSENT_REQUIRED)


async def _decide(ctx: ToolContext, payload: dict, cards: list[dict]) -> tuple[str, str | None, str | None]:
    """Decides the approval; returns the turn text for the model, the tool the approval was for (from the
    approval row itself; None for an unknown one) and the tool that ran (None when nothing did)."""
    approval_id, decision = payload["approval_id"], payload["decision"]
    outcome = await decide_approval(ctx, approval_id=approval_id, decision=decision)
    card = card_of(outcome, language=ctx.language)
    if card:
        cards.append(card)
    tool = outcome.tool
    ran = tool if decision == "approve" and "error" not in outcome.output else None
    try:
        text = ui_event_to_turn("confirm_result", {"tool": tool, "decision": decision, "output": outcome.output})
    except ValidationFailed:
        # A tool that is not a confirmable delete; the model still hears what happened.
        text = f"I chose to {decision} a confirmation. Result: {json.dumps(outcome.output, sort_keys=True)}"
        return text, None, None
    return text, tool, ran


@dataclass
class Begun:
    ctx: ToolContext | None
    message: Message | None
    created: bool
    refused: str | None = None  # the consent refusal, in the user's language: nothing was stored
    provider: Provider | None = None
    history: list[Message] = field(default_factory=list)
    account: usage.Account | None = None  # the user's day: spend so far and budgets


def begin(
    *, user, thread: Thread, client_id: str, text: str, ctx: ToolContext | None, lock, consent_asked: bool = False
) -> Begun:
    """Everything a turn reads and writes before the model, in one trip off the event loop. The user's account
    (with their consent) is read first, so a refused message is never stored (unless the caller asked consent
    already). A repeated id or a refusal frees the lock (and gives its rate count back) in the same trip."""
    ctx = ctx or tool_context(user, thread_id=thread.id)
    account = usage.turn_account(user_id=user.id, day=ctx.today)
    if not consent_asked and not account.consent_given:
        return Begun(ctx=ctx, message=None, created=False, refused=_refusal(user=user, lock=lock))
    message, created = user_message_record(thread=thread, client_id=client_id, text=text)
    if not created:
        if lock is not None:
            lock.release_repeat_sync()
        return Begun(ctx=ctx, message=message, created=False)
    return Begun(
        ctx=ctx,
        message=message,
        created=True,
        provider=provider_from(account.ciphertext),
        history=context_messages(thread_id=thread.id),
        account=account,
    )


def consent_refusal(*, user, lock) -> str | None:
    """None while the user's consent holds. Otherwise the refusal in their language, with the thread's lock and
    the rate count given back in the same trip: a refused message is no turn."""
    if consent_given(user_id=user.id):
        return None
    return _refusal(user=user, lock=lock)


def _refusal(*, user, lock) -> str:
    if lock is not None:
        lock.release_repeat_sync()
    with translation.override(profile_get(user=user).language):
        return str(CONSENT_REQUIRED_MESSAGE)


_db_consent_refusal = off_loop(consent_refusal)
_db_begin = off_loop(begin)
_db_tool_context = off_loop(tool_context)
