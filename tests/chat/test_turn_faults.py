"""A PostgreSQL backend terminated in the middle of a turn, as it stores its reply (docs/security.md,
"Faults"): the turn says INTERNAL_ERROR, what its tool did is stored once on a fresh connection with the
charge, and the next turn works. Only this test database's own sessions are locked or terminated."""

import asyncio

import psycopg
import pytest
from asgiref.sync import sync_to_async

from assets.models import Transaction
from chat.models import DailyUsage, Message, TurnRun
from tests.chat import fake_anthropic as model
from tests.chat.harness import new_chat, turns_settled
from tests.database import conninfo

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]


def _conninfo(name: str) -> str:
    return conninfo(application_name=name)


async def test_a_backend_terminated_while_the_reply_is_stored(alice, fake):
    thread, talk = await new_chat(alice)
    fake.script(
        model.tools(("create_manual_transaction", {"amount": "150k", "description": "KFC"})),
        model.text("Recorded KFC, 150,000 ₫.", token_delay=0.05),
    )
    holder = await sync_to_async(psycopg.connect)(_conninfo("zeus-fault-holder"))
    admin = await sync_to_async(psycopg.connect)(_conninfo("zeus-fault-admin"), autocommit=True)
    try:
        await talk.send({"type": "user_message", "id": "fault-1", "text": "KFC 150k"})
        while not any(f["type"] == "tool" and f["status"] == "done" for f in talk.frames):
            await asyncio.sleep(0.01)
        # The reply's store updates the thread row: held here, the store waits mid-write.
        await sync_to_async(holder.execute)("SELECT 1 FROM chat_thread WHERE id = %s FOR UPDATE", [thread.id])

        def waiting() -> list[int]:
            rows = admin.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
                " AND application_name NOT LIKE 'zeus-fault-%%'"
            ).fetchall()
            return [row[0] for row in rows]

        for _ in range(300):
            pids = await sync_to_async(waiting)()
            if pids:
                break
            await asyncio.sleep(0.05)
        assert pids, "the store never waited on the held row"
        await sync_to_async(admin.execute)("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", [pids])
        await sync_to_async(holder.rollback)()

        frames = await talk.until(timeout=30)
        assert (frames[-1]["type"], frames[-1]["code"]) == ("error", "INTERNAL_ERROR"), frames[-1]
        await turns_settled(30)
    finally:
        await sync_to_async(holder.close)()
        await sync_to_async(admin.close)()

    (reply,) = await sync_to_async(list)(Message.objects.filter(thread=thread, role="assistant"))
    (part,) = [p for p in reply.parts if p["type"] == "tool"]
    assert part["name"] == "create_manual_transaction" and part["is_error"] is False
    assert reply.metadata["error"] == "INTERNAL_ERROR"
    assert await sync_to_async(Transaction.objects.filter(user=alice).count)() == 1
    run = await sync_to_async(TurnRun.objects.get)(thread=thread)
    assert (run.outcome, run.error_code, run.assistant_message_id) == ("error", "INTERNAL_ERROR", reply.id)
    charged = await sync_to_async(DailyUsage.objects.get)(user=alice)
    assert charged.cost_usd == run.cost_usd

    # The retry of the same message is acknowledged, not run again; the next message is a normal turn.
    await talk.send({"type": "user_message", "id": "fault-1", "text": "KFC 150k"})
    assert (await talk.receive())["type"] == "ack"
    fake.script(model.text("You have one KFC today."))
    assert (await talk.say("what did I record?"))[-1]["type"] == "done"
    assert await sync_to_async(Transaction.objects.filter(user=alice).count)() == 1
