"""Live pushes to a user's open sockets through the channel layer.

The chat consumer joins `user_group(user_id)` and handles `notification.push` and `chat.message`.
A push is best effort: the row is the truth, so a layer failure is logged and never fails the write.
"""

import asyncio
import logging
from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from zeus.adapters import redis_group_key

log = logging.getLogger(__name__)


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def push_to_user(user_id: int, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(user_group(user_id), message)
    except Exception:
        log.exception("live push to user %s failed", user_id)


async def apush_to_user(user_id: int, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(user_group(user_id), message)
    except Exception:
        log.exception("live push to user %s failed", user_id)


# One round trip for a whole batch: the member count of every key given.
_ZCARD_ALL = "local counts = {} for i, key in ipairs(KEYS) do counts[i] = redis.call('ZCARD', key) end return counts"


async def with_open_sockets(layer, user_ids: list[int]) -> list[int]:
    """The users whose group has members. For the Redis layer: one script call per host for the whole batch
    (a Lua loop of ZCARD), instead of two round trips per user inside group_send. Other layers: everyone."""
    if not user_ids or redis_group_key(layer, user_group(user_ids[0])) is None:
        return user_ids
    by_host: dict[int, list[int]] = {}
    for user_id in user_ids:
        by_host.setdefault(layer.consistent_hash(user_group(user_id)), []).append(user_id)
    online = []
    for index, ids in by_host.items():
        keys = [redis_group_key(layer, user_group(user_id)) for user_id in ids]
        counts = await layer.connection(index).eval(_ZCARD_ALL, len(keys), *keys)
        online.extend(user_id for user_id, count in zip(ids, counts, strict=True) if count)
    return online


def push_many(entries: list[tuple[int, object]], render: Callable[[object], dict]) -> None:
    """Pushes a batch of notifications live in one event loop, only to users with an open socket; `render`
    turns an entry into the notification's dict, and runs only for those users. Best effort, like
    push_to_user."""
    layer = get_channel_layer()
    if layer is None or not entries:
        return

    async def send():
        online = set(await with_open_sockets(layer, sorted({user_id for user_id, _ in entries})))
        results = await asyncio.gather(
            *(
                layer.group_send(user_group(user_id), {"type": "notification.push", "notification": render(entry)})
                for user_id, entry in entries
                if user_id in online
            ),
            return_exceptions=True,
        )
        failures = [r for r in results if isinstance(r, Exception)]
        if failures:
            log.warning("%d of %d live pushes failed: %r", len(failures), len(results), failures[0])

    try:
        async_to_sync(send)()
    except Exception:
        log.exception("live pushes failed")
