"""Live pushes to a user's open sockets through the channel layer.

The chat consumer joins `user_group(user_id)` and handles `notification.push`, `chat.message` and `session.end`.
A push is best effort: the row is the truth, so a layer failure is logged and never fails the write.
"""

import asyncio
import logging
import threading
from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from zeus.adapters import redis_group_key, redis_layer_sync_client

log = logging.getLogger(__name__)


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def push_to_user(user_id: int, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        if not online_now(layer, [user_id]):
            return
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


# Blocking clients on the channel layer's hosts, one per host, kept for the process (thread safe: a pool).
_sync_clients: dict[tuple[int, int], object] = {}
_sync_clients_lock = threading.Lock()


def _sync_client(layer, index: int):
    key = (id(layer), index)
    client = _sync_clients.get(key)
    if client is None:
        with _sync_clients_lock:
            client = _sync_clients.get(key) or redis_layer_sync_client(layer, index)
            _sync_clients[key] = client
    return client


def online_now(layer, user_ids: list[int]) -> list[int]:
    """The users whose group has members. For the Redis layer: one script call per host for the whole batch
    (a Lua loop of ZCARD, instead of two round trips per user inside group_send) on a kept blocking
    connection, so no event loop is needed to learn that nobody is listening, which is most of the time.
    A push from a caller without a loop (a request on gunicorn, a job) otherwise pays for a new event loop
    and a new Redis connection (async_to_sync; channels-redis keeps its pools per loop), which would be
    most of a SePay delivery's own cost. Other layers: everyone."""
    if not user_ids or redis_group_key(layer, user_group(user_ids[0])) is None:
        return user_ids
    by_host: dict[int, list[int]] = {}
    for user_id in user_ids:
        by_host.setdefault(layer.consistent_hash(user_group(user_id)), []).append(user_id)
    online = []
    for index, ids in by_host.items():
        client = _sync_client(layer, index)
        if client is None:
            online.extend(ids)
            continue
        keys = [redis_group_key(layer, user_group(user_id)) for user_id in ids]
        # One user (a delivery, a reply): a plain ZCARD, cheaper to send than the script.
        counts = [client.zcard(keys[0])] if len(keys) == 1 else client.eval(_ZCARD_ALL, len(keys), *keys)
        online.extend(user_id for user_id, count in zip(ids, counts, strict=True) if count)
    return online


def push_many(entries: list[tuple[int, object]], renderer: Callable[[list[object]], Callable[[object], dict]]) -> None:
    """Pushes a batch of notifications live in one event loop, only to users with an open socket. Best effort,
    like push_to_user. Who is online is asked first without an event loop, so a batch for nobody online costs
    one Redis round trip; `renderer` is then given the entries of the users online (outside the loop: it may
    read the database, for those users only) and returns what turns each of them into the notification's dict."""
    layer = get_channel_layer()
    if layer is None or not entries:
        return
    try:
        online = set(online_now(layer, sorted({user_id for user_id, _ in entries})))
    except Exception:
        log.exception("live pushes failed")
        return
    if not online:
        return
    entries = [(user_id, entry) for user_id, entry in entries if user_id in online]
    try:
        render = renderer([entry for _, entry in entries])
    except Exception:
        log.exception("live pushes failed")
        return

    async def send():
        results = await asyncio.gather(
            *(
                layer.group_send(user_group(user_id), {"type": "notification.push", "notification": render(entry)})
                for user_id, entry in entries
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
