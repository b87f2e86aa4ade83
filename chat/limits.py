"""Per-user and per-thread limits, held in the shared cache so they hold across daphne processes."""

import time
import uuid

from django.core.cache import cache

MAX_TEXT = 4000
MAX_FRAME_BYTES = 64 * 1024
TURNS_PER_MINUTE = 10
MAX_MODEL_CALLS = 6
MAX_OUTPUT_TOKENS = 2048
TURN_DEADLINE_SECONDS = 60.0
# The lock outlives the deadline, so a process that dies mid-turn frees its thread a little later.
TURN_LOCK_SECONDS = 90


async def rate_allow(*, user_id: int, now: float | None = None) -> bool:
    """Counts one turn against a sliding minute: this window's count plus the previous window's, weighted
    by how much of it still overlaps. A refused turn is not counted."""
    now = time.time() if now is None else now
    window = int(now // 60)
    key = f"chat:rate:{user_id}:{window}"
    await cache.aadd(key, 0, timeout=130)
    current = await cache.aincr(key)
    previous = await cache.aget(f"chat:rate:{user_id}:{window - 1}", 0)
    overlap = 1 - (now % 60) / 60
    if current + previous * overlap > TURNS_PER_MINUTE:
        await cache.adecr(key)
        return False
    return True


class TurnLock:
    """One turn at a time per thread, across sockets and processes."""

    def __init__(self, thread_id):
        self.key = f"chat:turn:{thread_id}"
        self.token = uuid.uuid4().hex

    async def acquire(self) -> bool:
        return await cache.aadd(self.key, self.token, timeout=TURN_LOCK_SECONDS)

    async def release(self) -> None:
        # get-then-delete is not atomic, but only a lock that already expired could be lost in between.
        if await cache.aget(self.key) == self.token:
            await cache.adelete(self.key)
