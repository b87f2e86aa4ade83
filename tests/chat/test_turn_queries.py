"""What a one-tool turn costs the database: the trips off the event loop that take a connection, and the
statements, the run audit after `done` included. Each trip is a thread hop and a pooled connection checked out
(and health-checked) for the turn; each statement a round trip. Neither may grow with the thread's history."""

import contextlib
import threading

import pytest
from asgiref.sync import sync_to_async
from django.db.backends.signals import connection_created

from tests import factories
from tests.chat import fake_anthropic as model
from tests.chat.harness import new_chat, turns_settled

pytestmark = pytest.mark.django_db(transaction=True)

# begin (the user's consent, day's usage and key in one read, the user's message, the thread's activity, the
# context window);
# the tool; the reply (its message, what was sent, the thread's activity, the day's usage); the run audit
# (the run, its model calls, its tool call).
TRIPS = 4
# consent with usage and key, message, thread, context | the page (its transfers and parts are read only for rows it
# flags, none here) | message, sent, thread, usage | run, model calls, tool calls
STATEMENTS = 4 + 1 + 4 + 3


class DatabaseUse:
    """Connections taken and statements run, on every thread, while it is entered."""

    def __init__(self):
        self.trips = 0
        self.statements: list[str] = []
        self._wrapped = contextlib.ExitStack()
        self._lock = threading.Lock()

    def _note(self, execute, sql, params, many, context):
        with self._lock:
            self.statements.append(sql)
        return execute(sql, params, many, context)

    def _connected(self, sender, connection, **kwargs):
        with self._lock:
            self.trips += 1
            if self._note not in connection.execute_wrappers:
                self._wrapped.enter_context(connection.execute_wrapper(self._note))

    def __enter__(self):
        connection_created.connect(self._connected)
        return self

    def __exit__(self, *exc):
        connection_created.disconnect(self._connected)
        self._wrapped.close()


async def _turn(talk, fake) -> None:
    fake.script(model.tools(("list_transactions", {"limit": 5})), model.text("You spent 85,000 ₫ on phở."))
    frames = await talk.say("show my transactions")
    assert frames[-1]["type"] == "done"
    await turns_settled()


@pytest.mark.parametrize("earlier_turns", [1, 8])
async def test_a_one_tool_turn_costs_a_fixed_number_of_trips_and_statements(alice, fake, earlier_turns):
    await sync_to_async(factories.txn)(alice, amount="85000", description="Phở Hòa", category="dining")
    _, talk = await new_chat(alice)
    for _ in range(earlier_turns):
        await _turn(talk, fake)
    with DatabaseUse() as use:
        await _turn(talk, fake)
    assert use.trips == TRIPS
    assert len(use.statements) == STATEMENTS, "\n".join(use.statements)
    await talk.close()
