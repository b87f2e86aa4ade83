"""The daily token budget, through real turns: refused before the model call, reset and overridden by staff."""

import datetime as dt
import math

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.utils import translation

from chat.models import DailyUsage, Message, TokenBudget, TurnRun
from chat.usage import limit_message, usage_status
from tests.chat import fake_anthropic as model
from tests.chat.harness import new_chat, turns_settled
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def _used(user) -> int:
    return usage_status(user_id=user.id, day=user_today(user))[0]


async def test_the_budget_refuses_the_next_model_call_and_a_reset_lets_it_through(alice, staff, fake, settings):
    settings.ZEUS_DAILY_TOKEN_BUDGET = 1
    _, talk = await new_chat(alice)
    assert (await talk.say("show my transactions"))[-1]["type"] == "done"
    assert await _used(alice) > 0

    calls_before = len(fake.model_requests)
    refused = await talk.say("show my transactions again")
    assert [f["type"] for f in refused if f["type"] in ("token", "tool", "done", "error")] == ["error"]
    assert refused[-1]["code"] == "USAGE_LIMIT"
    # The harness drives the turn with no language active (no socket chose one): the services' default.
    assert "đặt lại lúc nửa đêm" in refused[-1]["message"]
    assert "Asia/Ho_Chi_Minh" in refused[-1]["message"]
    assert len(fake.model_requests) == calls_before

    @sync_to_async
    def reset_in_the_admin():
        client = Client()
        client.force_login(staff)
        row = DailyUsage.objects.get(user=alice)
        response = client.post(
            "/admin/chat/dailyusage/", {"action": "reset_usage", "_selected_action": [row.pk]}, follow=True
        )
        assert response.status_code == 200
        row.refresh_from_db()
        return row

    row = await reset_in_the_admin()
    assert row.tokens == 0
    assert row.reset_at is not None
    fake.script(model.text("Back again."))
    assert (await talk.say("show my transactions once more"))[-1]["type"] == "done"
    await talk.close()


async def test_a_turn_that_spends_the_budget_stops_before_its_next_call_and_keeps_what_it_did(alice, fake, settings):
    settings.ZEUS_DAILY_TOKEN_BUDGET = 1
    thread, talk = await new_chat(alice)
    fake.script(model.tools(("list_transactions", {"limit": 5}), say="Let me look."), model.text("never asked"))
    frames = await talk.say("show my transactions")
    assert frames[-1]["code"] == "USAGE_LIMIT"
    assert len(fake.main_requests) == 1
    assistant = await sync_to_async(Message.objects.get)(thread=thread, role="assistant")
    assert [p["type"] for p in assistant.parts] == ["text", "tool"]
    assert assistant.metadata["aborted"] is True
    assert assistant.metadata["error"] == "USAGE_LIMIT"
    await turns_settled()
    run = await sync_to_async(lambda: thread.runs.get())()
    assert (run.outcome, run.error_code) == ("error", "USAGE_LIMIT")
    await talk.close()


async def test_a_per_user_override_replaces_the_setting(alice, bob, fake, settings):
    settings.ZEUS_DAILY_TOKEN_BUDGET = 1
    await sync_to_async(TokenBudget.objects.create)(user=alice, daily_tokens=0)
    _, talk = await new_chat(alice)
    for n in range(3):
        assert (await talk.say(f"show my transactions {n}"))[-1]["type"] == "done"
    await talk.close()

    settings.ZEUS_DAILY_TOKEN_BUDGET = 0
    await sync_to_async(TokenBudget.objects.create)(user=bob, daily_tokens=1)
    _, talk = await new_chat(bob)
    assert (await talk.say("show my transactions"))[-1]["type"] == "done"
    assert (await talk.say("show my transactions again"))[-1]["code"] == "USAGE_LIMIT"
    await talk.close()


async def test_usage_is_counted_on_the_users_local_day(alice, fake):
    _, talk = await new_chat(alice)
    assert (await talk.say("show my transactions"))[-1]["type"] == "done"
    row = await sync_to_async(DailyUsage.objects.get)(user=alice)
    assert row.day == await sync_to_async(user_today)(alice)
    await turns_settled()
    run = await sync_to_async(TurnRun.objects.get)(user=alice)
    # Cache writes and reads count at their price's weight (1.25x and 0.05x of input on Sonnet 5.5), per call.
    calls = await sync_to_async(list)(run.model_call_rows.all())
    weighted = sum(
        math.ceil(c.input_tokens + c.output_tokens + c.cache_write_tokens * 1.25 + c.cache_read_tokens * 0.05)
        for c in calls
    )
    assert run.cache_write_tokens > 0
    assert row.tokens == weighted > run.input_tokens + run.output_tokens
    assert row.cost_usd == run.cost_usd > 0
    await talk.close()


def test_the_limit_message_says_when_it_resets():
    now = dt.datetime(2026, 11, 29, 15, 30, tzinfo=dt.UTC)  # 22:30 in Ho Chi Minh City
    with translation.override("en"):
        text = limit_message(200_000, "Asia/Ho_Chi_Minh", now=now)
    assert "200,000 tokens" in text
    assert "in about 1 h 30 min" in text
    with translation.override("vi"):
        text = limit_message(200_000, "Asia/Ho_Chi_Minh", now=now)
    assert "200.000 token" in text
    assert "sau khoảng 1 giờ 30 phút" in text


def test_the_usage_status_reads_only_this_users_day_and_their_override(alice, bob, settings):
    settings.ZEUS_DAILY_TOKEN_BUDGET = 500
    day = dt.date(2026, 11, 29)
    DailyUsage.objects.create(user=alice, day=day, tokens=120)
    DailyUsage.objects.create(user=alice, day=day - dt.timedelta(days=1), tokens=900)
    DailyUsage.objects.create(user=bob, day=day, tokens=77)
    assert usage_status(user_id=alice.id, day=day) == (120, 500)
    assert usage_status(user_id=alice.id, day=day + dt.timedelta(days=1)) == (0, 500)
    TokenBudget.objects.create(user=alice, daily_tokens=0)
    assert usage_status(user_id=alice.id, day=day) == (120, 0)
    assert usage_status(user_id=bob.id, day=day) == (77, 500)
