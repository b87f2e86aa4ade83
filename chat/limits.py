"""Per-user and per-thread limits, held in the shared cache so they hold across daphne processes."""

import time
import uuid

from django.core.cache import cache

from chat.off_loop import off_loop, run_off_loop
from zeus.cache import delete_if_equal

MAX_TEXT = 4000
MAX_FRAME_BYTES = 64 * 1024
# A frame over MAX_FRAME_BYTES closes the socket with the websocket's own "message too big" (as daphne does for
# one over --websocket-max-message-size); the page tells the user why (docs/security.md).
CLOSE_FRAME_TOO_LARGE = 1009
FRAME_TOO_LARGE_REASON = "frame over 64 KiB"
TURNS_PER_MINUTE = 10
MAX_MODEL_CALLS = 6
MAX_OUTPUT_TOKENS = 2048
TURN_DEADLINE_SECONDS = 60.0
# The lock outlives the deadline, so a process that dies mid-turn frees its thread a little later.
TURN_LOCK_SECONDS = 90


def _rate_key(user_id: int, window: int) -> str:
    return f"chat:rate:{user_id}:{window}"


def _rate_take(user_id: int, now: float | None = None) -> str | None:
    """Counts one turn against a sliding minute: this window's count plus the previous window's, weighted
    by how much of it still overlaps. Returns the counter it was counted on, None when refused (a refused
    turn is not counted)."""
    now = time.time() if now is None else now
    window = int(now // 60)
    key = _rate_key(user_id, window)
    try:
        current = cache.incr(key)
    except ValueError:
        # The window's first turn; a racing first turn makes add() fail, and then incr() counts it.
        current = 1 if cache.add(key, 1, timeout=130) else cache.incr(key)
    previous = cache.get(_rate_key(user_id, window - 1), 0)
    if current + previous * (1 - (now % 60) / 60) > TURNS_PER_MINUTE:
        cache.decr(key)
        return None
    return key


class TurnLock:
    """One turn at a time per thread, across sockets and processes. `admit` takes it; from then on the turn
    that was handed it (chat.turn) owns it and frees it exactly once. The `_sync` methods block (cache calls):
    call them off the event loop, in a trip that does other work anyway; the others hop there themselves."""

    def __init__(self, thread_id):
        self.key = f"chat:turn:{thread_id}"
        self.token = uuid.uuid4().hex
        self.rate_key: str | None = None  # the rate counter this turn was counted on
        self.released = False

    def acquire_sync(self) -> bool:
        return cache.add(self.key, self.token, timeout=TURN_LOCK_SECONDS)

    def release_sync(self) -> None:
        """Safe to call twice. Frees the lock only while this turn still owns it."""
        if self.released:
            return
        self.released = True
        delete_if_equal(self.key, self.token)

    def release_repeat_sync(self) -> None:
        """The message was a repeat, and a repeat is not a turn: gives its rate count back too."""
        if self.rate_key:
            try:
                cache.decr(self.rate_key)
            except ValueError:
                pass  # the window's counter has expired: nothing left to give back
            self.rate_key = None
        self.release_sync()

    async def acquire(self) -> bool:
        return await run_off_loop(self.acquire_sync)

    async def release(self) -> None:
        if not self.released:
            await run_off_loop(self.release_sync)


def _admit(*, user_id: int, thread_id) -> tuple[TurnLock | None, str | None]:
    lock = TurnLock(thread_id)
    if not lock.acquire_sync():
        return None, "TURN_IN_PROGRESS"
    lock.rate_key = _rate_take(user_id)
    if lock.rate_key is None:
        lock.release_sync()
        return None, "RATE_LIMITED"
    return lock, None


# The lock and the rate check in one trip off the event loop: (the lock, None) or (None, the refusal's code).
admit = off_loop(_admit)
