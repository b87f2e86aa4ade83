"""The websocket through the real ASGI application: handshake, frames, limits."""

import uuid

import pytest
from asgiref.sync import sync_to_async

from chat.models import Message
from tests.chat import factories as chat
from tests.chat import fake_anthropic as model
from tests.chat.conftest import open_socket, types

pytestmark = pytest.mark.django_db(transaction=True)


async def test_it_refuses_the_handshake_without_a_session(alice):
    thread = await sync_to_async(chat.thread)(alice)
    _, connected, _ = await open_socket(None, thread.id)
    assert not connected


async def test_it_refuses_another_users_thread_at_the_handshake(alice_cookie, bob):
    bobs = await sync_to_async(chat.thread)(bob)
    _, connected, _ = await open_socket(alice_cookie, bobs.id)
    assert not connected
    _, connected, _ = await open_socket(alice_cookie, uuid.uuid4())
    assert not connected


async def test_it_refuses_a_foreign_origin(alice, alice_cookie):
    thread = await sync_to_async(chat.thread)(alice)
    _, connected, _ = await open_socket(alice_cookie, thread.id, origin="https://evil.example")
    assert not connected


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("not json", "BAD_FRAME"),
        ("[1, 2]", "BAD_FRAME"),
        ({"type": "dance"}, "BAD_FRAME"),
        ({"type": "user_message", "text": "no id"}, "BAD_FRAME"),
        ({"type": "user_message", "id": "a", "text": "   "}, "BAD_FRAME"),
        ({"type": "user_message", "id": "a", "text": "x" * 4001}, "MESSAGE_TOO_LONG"),
        ({"type": "ui_event", "id": "a", "event": "no_such_event", "payload": {}}, "BAD_FRAME"),
        ({"type": "ui_event", "id": "a", "event": "confirm", "payload": {"approval_id": 3}}, "BAD_FRAME"),
    ],
)
async def test_bad_frames_get_an_error_and_the_socket_stays_open(alice, alice_cookie, fake, frame, code):
    thread = await sync_to_async(chat.thread)(alice)
    socket, connected, _ = await open_socket(alice_cookie, thread.id)
    assert connected
    await socket.send(frame)
    error = await socket.receive()
    assert error["type"] == "error"
    assert error["code"] == code
    frames = await socket.say("list my transactions")
    assert types(frames)[-1] == "done", frames
    assert await sync_to_async(Message.objects.filter(thread=thread, role="user").count)() == 1
    await socket.close()


async def test_a_text_of_exactly_4000_characters_is_accepted(alice, alice_cookie, fake):
    thread = await sync_to_async(chat.thread)(alice)
    socket, _, _ = await open_socket(alice_cookie, thread.id)
    frames = await socket.say("list " + "x" * 3995)
    assert types(frames)[-1] == "done", frames
    await socket.close()


async def test_a_repeated_user_message_id_starts_no_second_turn(alice, alice_cookie, fake):
    thread = await sync_to_async(chat.thread)(alice)
    socket, _, _ = await open_socket(alice_cookie, thread.id)
    client_id = str(uuid.uuid4())
    first = await socket.say("list my transactions", client_id)
    assert types(first)[0] == "ack"
    await socket.send({"type": "user_message", "id": client_id, "text": "list my transactions"})
    assert await socket.receive() == {"type": "ack", "id": client_id}
    assert await socket.nothing()
    assert len(fake.model_requests) == 1
    counts = await sync_to_async(lambda: Message.objects.filter(thread=thread).count())()
    assert counts == 2
    await socket.close()


async def test_one_turn_at_a_time_per_thread_even_across_two_sockets(alice, alice_cookie, fake):
    thread = await sync_to_async(chat.thread)(alice)
    first, _, _ = await open_socket(alice_cookie, thread.id)
    second, _, _ = await open_socket(alice_cookie, thread.id)
    fake.script(model.text("slow " * 30, token_delay=0.02))
    await first.send({"type": "user_message", "id": "t1", "text": "list my transactions"})
    await first.until("token")
    await second.send({"type": "user_message", "id": "t2", "text": "list my transactions"})
    refused = await second.receive()
    assert refused["code"] == "TURN_IN_PROGRESS"
    await first.send({"type": "user_message", "id": "t3", "text": "list my transactions"})
    assert (await first.until("error"))[-1]["code"] == "TURN_IN_PROGRESS"
    assert types(await first.until())[-1] == "done"
    assert types(await second.say("list my transactions"))[-1] == "done"
    await first.close()
    await second.close()


async def test_a_repeated_id_is_not_counted_against_the_rate(alice, alice_cookie, fake, monkeypatch):
    from chat import limits

    monkeypatch.setattr(limits, "TURNS_PER_MINUTE", 2)
    thread = await sync_to_async(chat.thread)(alice)
    socket, _, _ = await open_socket(alice_cookie, thread.id)
    assert types(await socket.say("list my transactions", "r1"))[-1] == "done"
    for _ in range(3):
        # Admitted, found to be a repeat when stored, acknowledged; its count is given back.
        await socket.send({"type": "user_message", "id": "r1", "text": "list my transactions"})
        assert await socket.receive() == {"type": "ack", "id": "r1"}
    assert types(await socket.say("list my transactions again", "r2"))[-1] == "done"
    # The limit still holds: a third new message in the minute is refused, and a repeat is still acknowledged.
    assert (await socket.say("and again", "r3"))[-1]["code"] == "RATE_LIMITED"
    await socket.send({"type": "user_message", "id": "r2", "text": "list my transactions again"})
    assert await socket.receive() == {"type": "ack", "id": "r2"}
    assert len(fake.main_requests) == 2
    await socket.close()


async def test_a_turn_writing_its_audit_after_done_leaves_the_next_in_charge(alice, alice_cookie, fake, monkeypatch):
    """After `done` the finished turn still writes its run audit; the next turn, started meanwhile, must
    stay the one a stop or a third message meets."""
    import asyncio
    import time

    from chat import audit

    write_run = audit.turn_run_record

    def slow_audit(**kwargs):
        time.sleep(0.3)  # in the worker thread the audit is written on
        return write_run(**kwargs)

    monkeypatch.setattr(audit, "turn_run_record", slow_audit)
    thread = await sync_to_async(chat.thread)(alice)
    socket, _, _ = await open_socket(alice_cookie, thread.id)
    fake.script(model.text("First."), model.text(" ".join(f"w{n}" for n in range(60)), token_delay=0.03))
    assert types(await socket.say("list my transactions", "a1"))[-1] == "done"
    await socket.send({"type": "user_message", "id": "a2", "text": "list my transactions"})
    await socket.until("token")
    await asyncio.sleep(0.4)  # the first turn's audit is written by now
    await socket.send({"type": "user_message", "id": "a3", "text": "list my transactions"})
    assert (await socket.until("error"))[-1]["code"] == "TURN_IN_PROGRESS"
    await socket.send({"type": "stop"})
    assert (await socket.until())[-1]["code"] == "STOPPED"
    await socket.close()


async def test_the_eleventh_turn_in_a_minute_is_rate_limited(alice, alice_cookie, fake):
    thread = await sync_to_async(chat.thread)(alice)
    socket, _, _ = await open_socket(alice_cookie, thread.id)
    for n in range(10):
        assert types(await socket.say(f"list my transactions {n}"))[-1] == "done"
    refused = await socket.say("list my transactions again")
    assert refused == [
        {"type": "error", "code": "RATE_LIMITED", "message": refused[0]["message"]},
    ]
    assert len(fake.model_requests) == 10
    await socket.close()


async def test_without_any_key_the_turn_answers_ai_provider_required(alice, alice_cookie, fake, settings):
    settings.ANTHROPIC_API_KEY = ""
    thread = await sync_to_async(chat.thread)(alice)
    socket, _, _ = await open_socket(alice_cookie, thread.id)
    frames = await socket.say("list my transactions")
    assert types(frames) == ["ack", "error"]
    assert frames[-1]["code"] == "AI_PROVIDER_REQUIRED"
    assert fake.requests == []
    await socket.close()


async def test_the_personal_key_wins_over_the_server_key(alice, alice_cookie, fake):
    from chat.services import provider_key_set

    personal = "sk-ant-personal-key-abcdefghijklmnop"
    await sync_to_async(provider_key_set)(user=alice, api_key=personal)
    thread = await sync_to_async(chat.thread)(alice)
    socket, _, _ = await open_socket(alice_cookie, thread.id)
    await socket.say("list my transactions")
    assert fake.model_requests[0]["api_key"] == personal
    await socket.close()


async def test_a_live_notification_reaches_an_open_socket(alice, alice_cookie, fake):
    from zeus.services import notification_create

    thread = await sync_to_async(chat.thread)(alice)
    socket, _, _ = await open_socket(alice_cookie, thread.id)
    await sync_to_async(notification_create)(user=alice, kind="insight", title="Dining is up 40%")
    frame = await socket.receive()
    assert frame["type"] == "notification"
    assert frame["notification"]["title"] == "Dining is up 40%"
    await socket.close()


async def test_a_notification_for_bob_does_not_reach_alice(alice, bob, alice_cookie, fake):
    from zeus.services import notification_create

    thread = await sync_to_async(chat.thread)(alice)
    socket, _, _ = await open_socket(alice_cookie, thread.id)
    await sync_to_async(notification_create)(user=bob, kind="insight", title="for bob")
    assert await socket.nothing(0.3)
    await socket.close()


async def test_stray_binary_frames_are_refused(alice, alice_cookie, fake):
    thread = await sync_to_async(chat.thread)(alice)
    socket, _, _ = await open_socket(alice_cookie, thread.id)
    await socket.comm.send_to(bytes_data=b"\x00\x01")
    assert (await socket.receive())["code"] == "BAD_FRAME"
    await socket.close()
