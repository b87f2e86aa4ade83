"""A staff-steered turn: the staff member's prompt steers this one model call and is never stored. It may read
and show, never change the user's ledger (routing withholds the mutations), and it is not charged to the
user. The permission is checked by its caller, chat.admin_reply.

It sends the user's conversation and ledger to the model as a user's turn does, so it needs the user's consent
to the model provider just the same (CONSENT_REQUIRED otherwise): a staff member cannot send what the user
declined to send."""

from django.conf import settings

from chat import limits
from chat.audit import RunRecord
from chat.models import Message, Thread
from chat.off_loop import off_loop
from chat.selectors import Provider, context_messages, provider_for
from chat.tools import tool_context
from chat.turn import finish
from chat.turn.agent import run_agent
from chat.turn.data import Turn
from chat.turn.frames import Frames
from zeus.consent import CONSENT_REQUIRED
from zeus.errors import Conflict, ValidationFailed
from zeus.selectors import consent_given

INSTRUCTION = (
    "[Internal instruction from Zeus staff; the user did not write this and will not see it. "
    "Write your next message to the user accordingly.]\n"
)


async def run_admin_turn(*, thread: Thread, prompt: str) -> Message:
    """The stored reply; raises Conflict while a user's turn runs in the thread, ValidationFailed when there
    is no provider or the model produced no finished reply (a partial one stays in the history, aborted)."""
    lock = limits.TurnLock(thread.id)
    if not await lock.acquire():
        raise Conflict("A turn is in progress in this thread; try again in a moment.", code="TURN_IN_PROGRESS")
    try:
        turn = await _db_begin(thread, prompt, lock)
        try:
            result = await run_agent(turn)
        finally:
            await finish.record_run(turn)
    finally:
        await lock.release()
    if result.status != "done":
        raise ValidationFailed(
            f"The model did not produce a reply ({result.error}).", code=result.error or "PROVIDER_UNAVAILABLE"
        )
    return result.message


def _begin(thread: Thread, prompt: str, lock: limits.TurnLock) -> Turn:
    user = thread.user
    if not consent_given(user_id=user.id):
        raise ValidationFailed(
            "The user has not agreed to their data being sent to the model provider.", code=CONSENT_REQUIRED
        )
    provider = _provider(user)
    if provider is None:
        raise ValidationFailed("No AI provider key is configured.", code="AI_PROVIDER_REQUIRED")
    ctx = tool_context(user, thread_id=thread.id)
    turn = Turn(
        thread_id=thread.id,
        ctx=ctx,
        run=RunRecord(user_id=user.id, thread_id=thread.id, day=ctx.today, timezone=ctx.timezone, admin=True),
        out=Frames(),
        model=settings.ZEUS_MODEL,
        provider=provider,
        history=context_messages(thread_id=thread.id),
        steering=[prompt],
        lock=lock,
        withheld=(INSTRUCTION + prompt,),
    )
    instruction = {"type": "text", "text": INSTRUCTION + prompt}
    if turn.conversation and turn.conversation[-1]["role"] == "user":
        turn.conversation[-1]["content"].append(instruction)
    else:
        turn.conversation.append({"role": "user", "content": [instruction]})
    return turn


def _provider(user) -> Provider | None:
    """The server's key first: a staff reply is the service's, not the user's."""
    if settings.ANTHROPIC_API_KEY:
        return Provider(
            api_key=settings.ANTHROPIC_API_KEY, base_url=settings.ANTHROPIC_BASE_URL or None, personal=False
        )
    return provider_for(user=user)


_db_begin = off_loop(_begin)
