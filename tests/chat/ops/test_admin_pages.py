"""The support team's admin: a thread read as a conversation, the staff reply behind its permission, the run
audit, the usage summary and bounded query counts."""

import datetime as dt
import json

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from chat.models import AdminReply, Message, TurnRun
from tests import factories
from tests.chat import factories as chat
from tests.chat import fake_anthropic as model
from tests.chat.ops import factories as ops

DAY = dt.date(2026, 11, 28)

TOOL_PARTS = [
    {"type": "text", "text": "Let me record that."},
    {
        "type": "tool",
        "name": "create_manual_transaction",
        "call_id": "toolu_ok",
        "input": {"amount": "150k", "description": "KFC"},
        "output": {"created": {"id": 7, "amount": "150000", "currency": "VND"}},
        "is_error": False,
    },
    {
        "type": "tool",
        "name": "update_manual_transaction",
        "call_id": "toolu_bad",
        "input": {"transaction_id": 99},
        "output": {"error": {"code": "NOT_FOUND", "message": "No such transaction."}},
        "is_error": True,
    },
    {
        "type": "spec",
        "spec": {
            "kind": "result_summary",
            "version": 1,
            "tool": "create_manual_transaction",
            "status": "created",
            "title": "Transaction created",
            "record": {"type": "transaction", "id": 7},
            "items": [{"label": "Amount", "value": "150,000 ₫"}, {"label": "Description", "value": "KFC"}],
        },
    },
]
METADATA = {
    "workflow": "create",
    "model": "claude-sonnet-5-5",
    "usage": {"input": 120, "output": 40, "cache_read": 0, "cache_write": 900},
    "duration_ms": 1234,
    "aborted": True,
    "error": "STOPPED",
}


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _helpdesk(*codenames):
    user = factories.user("helpdesk", is_staff=True)
    perms = Permission.objects.filter(content_type__app_label="chat", codename__in=["view_thread", *codenames])
    user.user_permissions.add(*perms)
    return user


@pytest.mark.django_db
def test_the_thread_page_shows_tool_calls_cards_and_metadata_readably(alice, staff):
    thread = chat.thread(alice)
    chat.user_message(thread, "KFC 150k")
    chat.assistant_message(thread, parts=TOOL_PARTS, metadata=METADATA)
    page = _client(staff).get(f"/admin/chat/thread/{thread.id}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "create_manual_transaction" in html
    assert "<details" in html
    assert "&quot;amount&quot;: &quot;150k&quot;" in html  # pretty-printed input, escaped
    assert "&quot;code&quot;: &quot;NOT_FOUND&quot;" in html
    assert html.count(">is_error<") == 1
    assert "result_summary</strong>: Transaction created" in html
    assert "Amount: 150,000 ₫" in html
    assert "workflow: create" in html and "duration_ms: 1234" in html
    assert ">aborted<" in html
    assert "cache_write 900" in html
    assert "KFC 150k" in html


@pytest.mark.django_db
def test_threads_are_found_by_username_and_activity(alice, bob, staff):
    chat.thread(alice)
    chat.thread(bob)
    client = _client(staff)
    page = client.get("/admin/chat/thread/?q=alice")
    assert page.status_code == 200
    assert [t.user.username for t in page.context["cl"].result_list] == ["alice"]
    assert client.get("/admin/chat/thread/?last_activity_at__gte=2000-01-01").status_code == 200


@pytest.mark.django_db
def test_staff_without_the_reply_permission_see_no_form_and_are_refused(alice, fake):
    thread = chat.thread(alice)
    client = _client(_helpdesk())
    page = client.get(f"/admin/chat/thread/{thread.id}/change/")
    assert page.status_code == 200
    assert "Generate reply" not in page.content.decode()
    assert client.get(f"/admin/chat/thread/{thread.id}/reply/").status_code == 403
    assert client.post(f"/admin/chat/thread/{thread.id}/reply/", {"prompt": "Say hi"}).status_code == 403
    assert fake.requests == []
    assert not AdminReply.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_staff_with_the_reply_permission_reply_and_leave_an_audit_row(alice, fake):
    helpdesk = _helpdesk("reply_as_assistant")
    thread = chat.thread(alice)
    chat.user_message(thread, "how am I doing?")
    client = _client(helpdesk)
    assert "Generate reply" in client.get(f"/admin/chat/thread/{thread.id}/change/").content.decode()
    prompt = "Tell them their dining budget is nearly used"
    fake.script(model.text("Heads-up: dining is nearly at its limit."))
    response = client.post(f"/admin/chat/thread/{thread.id}/reply/", {"prompt": prompt})
    assert response.status_code == 302

    reply = Message.objects.get(thread=thread, role="assistant")
    assert reply.metadata["admin_initiated"] is True
    assert prompt not in json.dumps([m.parts for m in Message.objects.filter(thread=thread)])
    audit = AdminReply.objects.get()
    assert (audit.staff, audit.user, audit.thread, audit.message, audit.prompt) == (
        helpdesk,
        alice,
        thread,
        reply,
        prompt,
    )
    run = TurnRun.objects.get(thread=thread)
    assert run.admin_initiated is True
    assert run.assistant_message == reply
    page = _client(helpdesk).get(f"/admin/chat/thread/{thread.id}/change/")
    assert "staff reply" in page.content.decode()


@pytest.mark.django_db
def test_the_audit_log_is_read_only(alice, staff):
    thread = chat.thread(alice)
    AdminReply.objects.create(staff=staff, user=alice, thread=thread, prompt="internal")
    client = _client(staff)
    assert client.get("/admin/chat/adminreply/").status_code == 200
    assert client.get("/admin/chat/adminreply/add/").status_code == 403
    row = AdminReply.objects.get()
    assert client.post(f"/admin/chat/adminreply/{row.pk}/delete/", {"post": "yes"}).status_code == 403


@pytest.mark.django_db
def test_the_usage_summary_sums_per_user_and_day(alice, bob, staff):
    thread = chat.thread(alice)
    ops.run(alice, thread=thread, day=DAY, calls=[(100, 20), (50, 10)], tools=[("list_transactions", False)])
    ops.run(alice, thread=thread, day=DAY, calls=[(30, 5)], error="PROVIDER_UNAVAILABLE")
    ops.run(alice, day=DAY - dt.timedelta(days=1), calls=[(1, 1)])
    ops.run(bob, day=DAY, calls=[(7, 3)], tools=[("create_goal", True)])
    page = _client(staff).get(f"/admin/chat/turnrun/usage/?since={DAY - dt.timedelta(days=1)}&until={DAY}")
    assert page.status_code == 200
    rows = {(r["user__username"], r["day"]): r for r in page.context["rows"]}
    alice_day = rows[("alice", DAY)]
    assert (alice_day["turns"], alice_day["model_calls"], alice_day["tool_calls"]) == (2, 3, 1)
    assert (alice_day["input_tokens"], alice_day["output_tokens"]) == (180, 35)
    assert (alice_day["cache_read_tokens"], alice_day["cache_write_tokens"]) == (9, 21)
    assert alice_day["errors"] == 1
    assert rows[("alice", DAY - dt.timedelta(days=1))]["turns"] == 1
    assert rows[("bob", DAY)]["input_tokens"] == 7
    assert rows[("bob", DAY)]["errors"] == 0
    only_bob = _client(staff).get(f"/admin/chat/turnrun/usage/?since={DAY}&until={DAY}&user=bo")
    assert [r["user__username"] for r in only_bob.context["rows"]] == ["bob"]
    assert _client(staff).get(alice_day["runs_url"]).status_code == 200


@pytest.mark.django_db
def test_a_turn_run_page_lists_its_model_and_tool_calls(alice, staff):
    run = ops.run(alice, day=DAY, calls=[(1, 2), (3, 4)], tools=[("list_goals", False), ("create_goal", True)])
    page = _client(staff).get(f"/admin/chat/turnrun/{run.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "list_goals" in html and "INVALID_AMOUNT" in html
    client = _client(staff)
    assert client.get("/admin/chat/turnrun/?outcome__exact=ok&q=alice").status_code == 200
    assert client.get(f"/admin/chat/turnrun/?thread__exact={chat.thread(alice).id}").status_code == 200


def _fill(n, owners, staff):
    for i in range(n):
        owner = owners[i % len(owners)]
        thread = chat.thread(owner)
        chat.user_message(thread, f"hello {i}")
        chat.assistant_message(thread, parts=TOOL_PARTS, metadata=METADATA)
        ops.run(owner, thread=thread, day=DAY - dt.timedelta(days=i), tools=[("list_goals", False)])
        AdminReply.objects.create(staff=staff, user=owner, thread=thread, prompt=f"p{i}")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "/admin/chat/thread/",
        "/admin/chat/turnrun/",
        "/admin/chat/dailyusage/",
        "/admin/chat/adminreply/",
        "/admin/chat/tokenbudget/",
        "/admin/chat/turnrun/usage/?since=2026-01-01",
    ],
)
def test_the_admin_lists_take_a_bounded_number_of_queries(alice, bob, staff, url, django_assert_max_num_queries):
    from chat.models import TokenBudget

    _fill(12, [alice, bob], staff)
    TokenBudget.objects.create(user=alice, daily_tokens=5000)
    client = _client(staff)
    client.get(url)  # warm the session and content types
    with django_assert_max_num_queries(10):
        assert client.get(url).status_code == 200


@pytest.mark.django_db
def test_a_long_thread_page_takes_a_bounded_number_of_queries(alice, staff, django_assert_max_num_queries):
    thread = chat.thread(alice)
    for i in range(30):
        chat.user_message(thread, f"q{i}")
        chat.assistant_message(thread, parts=TOOL_PARTS, metadata=METADATA)
    client = _client(staff)
    client.get(f"/admin/chat/thread/{thread.id}/change/")
    with django_assert_max_num_queries(12):
        assert client.get(f"/admin/chat/thread/{thread.id}/change/").status_code == 200


@pytest.mark.django_db
def test_staff_set_and_remove_a_budget_override_in_the_admin(alice, staff, settings):
    settings.ZEUS_DAILY_TOKEN_BUDGET = 1000
    client = _client(staff)
    response = client.post("/admin/chat/tokenbudget/add/", {"user": alice.pk, "daily_tokens": 0, "note": "VIP"})
    assert response.status_code == 302
    from chat.models import TokenBudget
    from chat.usage import usage_status

    assert usage_status(user_id=alice.id, day=DAY) == (0, 0)
    budget = TokenBudget.objects.get(user=alice)
    assert client.post(f"/admin/chat/tokenbudget/{budget.pk}/delete/", {"post": "yes"}).status_code == 302
    assert usage_status(user_id=alice.id, day=DAY) == (0, 1000)


@pytest.mark.django_db
def test_the_thread_page_shows_what_a_reply_sent_to_the_model_read_only(alice, staff):
    from chat.models import SentToModel

    thread = chat.thread(alice)
    chat.user_message(thread, "How much on food?")
    reply = chat.assistant_message(thread, "About 2tr")
    sent = {"facts": "today 2026-12-03, VND", "router": None, "omitted_messages": 0,
            "messages": [{"role": "user", "content": [{"type": "text", "text": "How much on <food>?"}]}]}  # fmt: skip
    SentToModel.objects.create(message=reply, content=sent)
    page = _client(staff).get(f"/admin/chat/thread/{thread.id}/change/")
    html = page.content.decode()
    assert html.count("sent to the model provider") == 1  # the reply's, not the user's message
    assert "today 2026-12-03, VND" in html and "How much on &lt;food&gt;?" in html  # escaped
    assert 'name="_save"' not in html  # a thread page is read only
