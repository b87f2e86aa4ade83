"""Without the user's consent to the model provider (zeus/consent.py) nothing of theirs reaches a model: a turn
answers CONSENT_REQUIRED before it stores or sends anything, a staff reply is refused, and MCP tool calls are
refused with the same code. The loopback Messages API server proves that no request left."""

import uuid

import pytest
from asgiref.sync import sync_to_async

from assets.models import Transaction
from chat import limits
from chat.admin_reply import admin_reply_send
from chat.models import AdminReply, Message, TurnRun
from tests import factories
from tests.chat import factories as chat
from tests.chat import fake_anthropic as model
from tests.chat.conftest import login_cookie, open_socket, turns_settled
from zeus import consent
from zeus.errors import ValidationFailed
from zeus.services import consent_record, profile_update

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def carol(db):
    return factories.user("carol", consent=False)


async def _socket(user):
    thread = await sync_to_async(chat.thread)(user)
    cookie = await sync_to_async(login_cookie)(user)
    socket, connected, _ = await open_socket(cookie, thread.id)
    assert connected
    return thread, socket


async def _stored(thread) -> tuple[int, int]:
    messages = await sync_to_async(Message.objects.filter(thread=thread).count)()
    runs = await sync_to_async(TurnRun.objects.filter(thread=thread).count)()
    return messages, runs


async def test_without_consent_a_turn_is_refused_and_nothing_is_stored_or_sent(carol, fake):
    await sync_to_async(factories.txn)(carol, description="Phở Hòa")
    thread, socket = await _socket(carol)
    frames = await socket.say("show my transactions")
    assert frames == [{"type": "error", "code": "CONSENT_REQUIRED", "message": frames[0]["message"]}]
    assert "consent" in frames[0]["message"]
    assert fake.requests == []
    assert await _stored(thread) == (0, 0)
    await socket.close()


async def test_a_refusal_is_no_turn_so_the_thread_and_the_rate_stay_free(carol, fake):
    _, socket = await _socket(carol)
    for _ in range(limits.TURNS_PER_MINUTE + 2):
        assert (await socket.say("hello"))[-1]["code"] == "CONSENT_REQUIRED"
    await sync_to_async(consent_record)(user=carol, granted=True)
    fake.script(model.text("Hello!"))
    frames = await socket.say("hello")
    assert frames[0]["type"] == "ack" and frames[-1]["type"] == "done"
    assert len(fake.main_requests) == 1
    await socket.close()


async def test_a_withdrawal_refuses_the_next_turn(alice, fake):
    thread, socket = await _socket(alice)
    fake.script(model.text("Hi."))
    assert (await socket.say("hello"))[-1]["type"] == "done"
    await turns_settled()  # after `done` the turn goes on to write its run audit
    await sync_to_async(consent_record)(user=alice, granted=False)
    assert (await socket.say("show my transactions"))[-1]["code"] == "CONSENT_REQUIRED"
    assert len(fake.requests) == 1 and await _stored(thread) == (2, 1)
    await socket.close()


async def test_a_new_version_of_the_text_refuses_until_agreed_again(alice, fake, monkeypatch):
    monkeypatch.setattr(consent, "CONSENT_VERSION", consent.CONSENT_VERSION + 1)
    _, socket = await _socket(alice)
    assert (await socket.say("hello"))[-1]["code"] == "CONSENT_REQUIRED"
    assert fake.requests == []
    await sync_to_async(consent_record)(user=alice, granted=True)
    fake.script(model.text("Hi again."))
    assert (await socket.say("hello"))[-1]["type"] == "done"
    await socket.close()


async def test_a_confirm_without_consent_decides_nothing(alice, fake):
    from chat.models import Approval

    row = await sync_to_async(factories.txn)(alice, description="Lunch")
    _, socket = await _socket(alice)
    fake.script(model.tools(("delete_manual_transaction", {"transaction_id": row.id})), model.text("Confirm?"))
    await socket.say("delete my lunch transaction")
    approval = await sync_to_async(Approval.objects.get)(user=alice)
    await sync_to_async(consent_record)(user=alice, granted=False)
    await socket.send(
        {
            "type": "ui_event",
            "id": str(uuid.uuid4()),
            "event": "confirm",
            "payload": {"approval_id": str(approval.id), "decision": "approve"},
        }
    )
    assert (await socket.until())[-1]["code"] == "CONSENT_REQUIRED"
    await sync_to_async(approval.refresh_from_db)()
    assert approval.status == Approval.Status.PENDING
    assert await sync_to_async(Transaction.objects.filter(pk=row.pk).exists)()
    await socket.close()


async def test_the_refusal_speaks_the_users_language(carol, fake):
    await sync_to_async(profile_update)(user=carol, language="vi")
    _, socket = await _socket(carol)
    frames = await socket.say("xin chào")
    assert frames[-1]["code"] == "CONSENT_REQUIRED" and "đồng ý" in frames[-1]["message"]
    await socket.close()


def test_a_staff_reply_needs_the_users_consent_too(carol, staff, fake):
    thread = chat.thread(carol)
    chat.user_message(thread, "show my transactions")
    with pytest.raises(ValidationFailed) as refused:
        admin_reply_send(staff_user=staff, thread_id=thread.id, prompt="Answer them")
    assert refused.value.code == "CONSENT_REQUIRED"
    assert fake.requests == []
    assert AdminReply.objects.get(thread=thread).error_code == "CONSENT_REQUIRED"
    assert Message.objects.filter(thread=thread).count() == 1


@pytest.mark.parametrize(
    "decisions",
    [(), (True,), (False,), (True, False), (False, True), (True, False, True)],
    ids=["never-asked", "granted", "withdrawn-only", "withdrawn", "granted-again", "granted-thrice"],
)
def test_the_turns_account_read_says_what_consent_given_says(carol, decisions):
    """The turn reads consent in its one account query (chat.usage.turn_account); it must agree with
    zeus.selectors.consent_given, the one reading every other caller uses: the newest decision, this version."""
    import datetime as dt

    from chat.usage import turn_account
    from zeus.selectors import consent_given

    for granted in decisions:
        consent_record(user=carol, granted=granted)
    expected = bool(decisions) and decisions[-1]
    account = turn_account(user_id=carol.id, day=dt.date(2026, 11, 30))
    assert account.consent_given is expected
    assert consent_given(user_id=carol.id) is expected


def test_the_turns_account_read_refuses_a_grant_of_an_older_text(alice, monkeypatch):
    import datetime as dt

    from chat.usage import turn_account

    assert turn_account(user_id=alice.id, day=dt.date(2026, 11, 30)).consent_given is True
    monkeypatch.setattr(consent, "CONSENT_VERSION", consent.CONSENT_VERSION + 1)
    assert turn_account(user_id=alice.id, day=dt.date(2026, 11, 30)).consent_given is False
