"""A property of every turn, whatever the model says (docs/security.md): random Unicode from the model
(control characters, lone surrogates, NUL, very long strings, deep JSON in tool inputs), driven through the
real socket and the offline Messages API on PostgreSQL. Each turn ends in done or error, the socket stays
open, every tool that ran is in the stored history exactly once, and the charge equals the usage."""

import asyncio
import itertools
import uuid
from decimal import Decimal

import pytest
from asgiref.sync import sync_to_async
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chat.models import DailyUsage, Message, ToolCall, TurnRun
from tests import factories
from tests.chat import factories as chat
from tests.chat import fake_anthropic as model
from tests.chat.conftest import login_cookie, open_socket, turns_settled

pytestmark = pytest.mark.django_db(transaction=True)

_users = itertools.count(1)
NASTY = ["\x00", "\ud800", "\udfff", "\x1b[2J", "\u202e", "\ufeff", "\x7f", "\U0001f4b8", "\r\n", "\\u0000", "x" * 3000]
texts = st.one_of(
    st.text(st.characters(), max_size=40),
    st.lists(st.one_of(st.sampled_from(NASTY), st.text(max_size=5)), max_size=6).map("".join),
)


def _deep(depth: int):
    node: dict = {"leaf": "\x00"}
    for _ in range(depth):
        node = {"n": [node]}
    return node


tool_inputs = st.one_of(
    st.fixed_dictionaries({"amount": st.one_of(st.just("150k"), texts), "description": texts}),
    st.fixed_dictionaries({"amount": st.just("20k"), "description": st.just("Taxi"), "extra": texts}),
    st.integers(min_value=20, max_value=80).map(lambda d: {"amount": "5k", "description": "x", "deep": _deep(d)}),
)
replies = st.tuples(
    st.lists(st.tuples(st.sampled_from(["create_manual_transaction", "list_transactions"]), tool_inputs), max_size=2),
    texts,
    texts,
)


async def _one_turn(tool_calls, say, answer, fake) -> None:
    user = await sync_to_async(factories.user)(f"prop{next(_users)}")
    thread = await sync_to_async(chat.thread)(user)
    cookie = await sync_to_async(login_cookie)(user)
    script = []
    if tool_calls:
        script.append(model.tools(*tool_calls, say=say if say.strip() else None))
    script.append(model.text(answer if answer.strip() else "ok"))
    fake.script(*script)
    socket, connected, _ = await open_socket(cookie, thread.id)
    assert connected
    frames = await socket.say("KFC 150k", str(uuid.uuid4()), timeout=30)
    assert frames[-1]["type"] in ("done", "error"), frames[-1]
    if frames[-1]["type"] == "error":
        assert frames[-1]["code"] != "PROVIDER_UNAVAILABLE", frames[-1]
    await turns_settled(30)
    assert await socket.nothing(0.05), "the socket was closed"

    replies_stored = await sync_to_async(list)(Message.objects.filter(thread=thread, role="assistant"))
    stored_calls = [p["call_id"] for m in replies_stored for p in m.parts if p["type"] == "tool"]
    ran = await sync_to_async(list)(ToolCall.objects.filter(run__thread=thread).values_list("call_id", flat=True))
    assert sorted(stored_calls) == sorted(ran)
    assert len(set(stored_calls)) == len(stored_calls)
    assert len(ran) == len(tool_calls)
    # The charge is what the turn's model calls (the router's included) cost, as its reply and its run say.
    spent = sum(Decimal(m.metadata["usage"]["cost_usd"]) for m in replies_stored)
    audited = await sync_to_async(lambda: sum(r.cost_usd for r in TurnRun.objects.filter(thread=thread)))()
    charged = await sync_to_async(DailyUsage.objects.filter(user=user).values_list("cost_usd", flat=True).first)()
    assert (charged or 0) == spent == audited
    await socket.close()


@settings(
    max_examples=20,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(reply=replies)
def test_any_model_output_ends_the_turn_with_its_record_whole(fake, reply):
    tool_calls, say, answer = reply
    asyncio.run(_one_turn(tool_calls, say, answer, fake))
