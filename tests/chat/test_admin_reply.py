"""The staff reply (docs/contract/admin.md): one model call steered by an internal prompt that is never stored."""

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from chat.admin_reply import admin_reply_send
from chat.models import AdminReply, Message
from tests import factories
from tests.chat import factories as chat
from tests.chat import fake_anthropic as model
from tests.chat.conftest import open_socket
from zeus.errors import NotFound

PROMPT = "Gently remind them their dining budget is nearly used up"


@pytest.mark.django_db(transaction=True)
async def test_the_staff_reply_reaches_the_users_open_socket_and_the_prompt_is_not_stored(
    alice, staff, alice_cookie, fake
):
    thread = await sync_to_async(chat.thread)(alice)
    await sync_to_async(chat.user_message)(thread, "show my transactions")
    socket, connected, _ = await open_socket(alice_cookie, thread.id)
    assert connected
    fake.script(model.text("A quick heads-up: your dining budget is almost used up this month."))
    await sync_to_async(admin_reply_send)(staff_user=staff, thread_id=thread.id, prompt=PROMPT)

    frames = [await socket.receive(), await socket.receive()]
    pushed = next(f for f in frames if f["type"] == "message")
    assert pushed["message"]["role"] == "assistant"
    assert pushed["message"]["metadata"]["admin_initiated"] is True
    assert pushed["message"]["parts"] == [
        {"type": "text", "text": "A quick heads-up: your dining budget is almost used up this month."}
    ]
    notification = next(f["notification"] for f in frames if f["type"] == "notification")
    # The page's own URL for a thread: /chat?thread= opened the newest thread instead.
    assert notification["cta_url"] == f"/chat/{thread.id}"

    stored = await sync_to_async(list)(Message.objects.filter(thread=thread).order_by("id"))
    assert [m.role for m in stored] == ["user", "assistant"]
    assert PROMPT not in json.dumps([m.parts for m in stored])
    request = fake.main_requests[0]["body"]
    assert PROMPT in json.dumps(request["messages"][-1])
    assert request["messages"][0]["role"] == "user"
    await socket.close()


@pytest.mark.django_db(transaction=True)
async def test_the_staff_reply_cannot_change_the_ledger(alice, staff, fake):
    thread = await sync_to_async(chat.thread)(alice)
    await sync_to_async(chat.user_message)(thread, "delete my lunch transaction")
    fake.route = "delete"
    await sync_to_async(admin_reply_send)(staff_user=staff, thread_id=thread.id, prompt="Answer them")
    offered = [t["name"] for t in fake.main_requests[0]["body"].get("tools", [])]
    assert not [name for name in offered if name.startswith(("create_", "update_", "delete_"))]


@pytest.mark.django_db
def test_a_non_staff_user_cannot_generate_a_reply(alice, bob, fake):
    thread = chat.thread(alice)
    with pytest.raises(NotFound):
        admin_reply_send(staff_user=bob, thread_id=thread.id, prompt="hi")


@pytest.mark.django_db(transaction=True)
def test_the_admin_page_generates_a_reply(alice, staff, fake):
    thread = chat.thread(alice)
    chat.user_message(thread, "how am I doing this month?")
    client = Client()
    client.force_login(staff)
    assert client.get(f"/admin/chat/thread/{thread.id}/change/").status_code == 200
    assert client.get("/admin/chat/thread/?q=alice").status_code == 200
    page = client.get(f"/admin/chat/thread/{thread.id}/reply/")
    assert page.status_code == 200
    fake.script(model.text("You are on track."))
    response = client.post(f"/admin/chat/thread/{thread.id}/reply/", {"prompt": "Encourage them"})
    assert response.status_code == 302
    reply = Message.objects.filter(thread=thread, role="assistant").get()
    assert reply.metadata["admin_initiated"] is True
    assert reply.parts == [{"type": "text", "text": "You are on track."}]


@pytest.mark.django_db
def test_the_admin_reply_page_is_for_staff_only(alice, client):
    thread = chat.thread(alice)
    client.force_login(alice)
    assert client.get(f"/admin/chat/thread/{thread.id}/reply/").status_code == 302


@pytest.mark.django_db
def test_staff_without_the_reply_permission_are_refused_and_nothing_runs(alice, fake):
    from chat.admin_reply import ReplyForbidden

    helpdesk = factories.user("helpdesk", is_staff=True)
    thread = chat.thread(alice)
    with pytest.raises(ReplyForbidden):
        admin_reply_send(staff_user=helpdesk, thread_id=thread.id, prompt="hi")
    assert fake.requests == []
    assert not Message.objects.filter(thread=thread).exists()


@pytest.mark.django_db(transaction=True)
def test_every_staff_reply_leaves_its_audit_row(alice, staff, fake):
    thread = chat.thread(alice)
    chat.user_message(thread, "how am I doing?")
    fake.script(model.text("Fine."))
    message = admin_reply_send(staff_user=staff, thread_id=thread.id, prompt="Encourage them")
    row = AdminReply.objects.get(thread=thread)
    assert (row.staff, row.message, row.prompt, row.error_code) == (staff, message, "Encourage them", "")
