"""What must hold across daphne processes: pushes, the turn lock and the rate limit go through Redis."""

import uuid

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings

from chat import limits
from tests.chat import factories as chat
from tests.chat.conftest import open_socket
from zeus.live import user_group

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]


async def test_a_push_from_another_process_reaches_the_open_socket(alice, alice_cookie, fake):
    from channels_redis.core import RedisChannelLayer

    thread = await sync_to_async(chat.thread)(alice)
    socket, connected, _ = await open_socket(alice_cookie, thread.id)
    assert connected
    other_process = RedisChannelLayer(**settings.CHANNEL_LAYERS["default"]["CONFIG"])
    notification = {"id": 1, "kind": "insight", "title": "From a worker"}
    await other_process.group_send(user_group(alice.id), {"type": "notification.push", "notification": notification})
    assert await socket.receive() == {"type": "notification", "notification": notification}
    await other_process.flush()
    await socket.close()


async def test_a_turn_held_by_another_process_refuses_a_second_one(alice, alice_cookie, fake):
    thread = await sync_to_async(chat.thread)(alice)
    elsewhere = limits.TurnLock(thread.id)
    assert await elsewhere.acquire()
    socket, _, _ = await open_socket(alice_cookie, thread.id)
    frames = await socket.say("show my transactions")
    assert frames[-1]["code"] == "TURN_IN_PROGRESS"
    await elsewhere.release()
    assert (await socket.say("show my transactions"))[-1]["type"] == "done"
    await socket.close()


async def test_turns_counted_by_other_processes_count_against_the_rate_limit(alice, alice_cookie, fake):
    for _ in range(limits.TURNS_PER_MINUTE):
        # Another process admits a turn of alice's in another thread of hers.
        lock, refused = await limits.admit(user_id=alice.id, thread_id=uuid.uuid4())
        assert refused is None
        await lock.release()
    thread = await sync_to_async(chat.thread)(alice)
    socket, _, _ = await open_socket(alice_cookie, thread.id)
    assert (await socket.say("show my transactions"))[-1]["code"] == "RATE_LIMITED"
    await socket.close()


async def test_a_lock_that_expired_and_was_taken_again_is_not_freed_by_its_first_owner(alice):
    from django.core.cache import cache

    thread = await sync_to_async(chat.thread)(alice)
    first = limits.TurnLock(thread.id)
    assert await first.acquire()
    # The first owner stalled past the TTL; another process took the thread.
    await sync_to_async(cache.delete)(first.key)
    second = limits.TurnLock(thread.id)
    assert await second.acquire()
    await first.release()
    assert await sync_to_async(cache.get)(second.key) == second.token
    await second.release()
    assert await sync_to_async(cache.get)(second.key) is None
