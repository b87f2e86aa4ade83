"""What a turn costs and whether its figures hold, through real turns on claude-sonnet-5-5: `cost_usd` in the
message metadata and per model call in the run audit (router included), `unverified_figures` flagged and
counted, the budget in money, and the admin's usage summary with cost, flags and totals."""

import datetime as dt
from decimal import Decimal

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from chat.models import DailyUsage, Message, ModelCall, TokenBudget, TurnRun
from chat.pricing import PRICES, call_cost, quantize_cost
from tests import factories
from tests.chat import factories as chat
from tests.chat import fake_anthropic as model
from tests.chat.conftest import open_socket, turns_settled
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db(transaction=True)


async def _socket(user, cookie):
    thread = await sync_to_async(chat.thread)(user)
    socket, connected, _ = await open_socket(cookie, thread.id)
    assert connected
    return thread, socket


@sync_to_async
def _run_and_calls(user):
    run = TurnRun.objects.filter(user=user).latest("id")
    return run, list(ModelCall.objects.filter(run=run).order_by("seq"))


async def test_a_turns_cost_is_in_its_metadata_and_per_model_call_router_included(alice, alice_cookie, fake):
    _, socket = await _socket(alice, alice_cookie)
    fake.route = "inspect"
    fake.script(model.tools(("list_transactions", {})), model.text("Nothing there yet."))
    frames = await socket.say("hmm, what about that thing")
    usage = frames[-1]["message"]["metadata"]["usage"]
    await turns_settled()
    run, calls = await _run_and_calls(alice)
    assert [(c.purpose, c.model) for c in calls] == [
        ("router", "claude-haiku-5-5"),
        ("main", "claude-sonnet-5-5"),
        ("main", "claude-sonnet-5-5"),
    ]
    for call in calls:
        tokens = {
            "input": call.input_tokens,
            "output": call.output_tokens,
            "cache_read": call.cache_read_tokens,
            "cache_write": call.cache_write_tokens,
        }
        assert call.cost_usd == quantize_cost(call_cost(tokens, PRICES[call.model])) > 0
    assert isinstance(usage["cost_usd"], str)
    assert Decimal(usage["cost_usd"]) == run.cost_usd
    assert abs(run.cost_usd - sum(c.cost_usd for c in calls)) <= Decimal("0.000002")
    day = await sync_to_async(DailyUsage.objects.get)(user=alice)
    assert quantize_cost(day.cost_usd) == run.cost_usd
    await socket.close()


BUDGETS_REPLY_OK = "You have spent 0 ₫ of your 5,000,000 ₫ food budget."
BUDGETS_REPLY_MADE_UP = "You have spent 1,250,000 ₫ of your 5,000,000 ₫ food budget, 25% of it."


@pytest.mark.parametrize(
    ("reply", "unverified"),
    [
        (BUDGETS_REPLY_OK, []),
        (BUDGETS_REPLY_MADE_UP, ["1,250,000 ₫", "25%"]),
        ("Bạn đã chi 0 ₫ trong ngân sách ăn uống 5tr.", []),
        ("Bạn đã chi 1,2tr, tức 24% ngân sách 5 triệu.", ["1,2tr", "24%"]),
    ],
)
async def test_figures_no_tool_gave_are_flagged_in_the_reply_and_the_audit(
    alice, alice_cookie, fake, reply, unverified
):
    await sync_to_async(factories.budget)(alice, category="food", amount="5000000")
    thread, socket = await _socket(alice, alice_cookie)
    fake.script(model.tools(("list_budgets", {})), model.text(reply))
    frames = await socket.say("show my budgets")
    assert frames[-1]["type"] == "done"
    assert frames[-1]["message"]["metadata"]["unverified_figures"] == unverified
    stored = await sync_to_async(Message.objects.filter(thread=thread, role="assistant").get)()
    assert stored.metadata["unverified_figures"] == unverified
    await turns_settled()
    run, _ = await _run_and_calls(alice)
    assert (run.unverified_figures, run.unverified_count) == (unverified, len(unverified))
    await socket.close()


async def test_a_reply_without_tools_that_states_a_total_is_flagged(alice, alice_cookie, fake):
    _, socket = await _socket(alice, alice_cookie)
    fake.script(model.text("Your total spending this month is 3,400,000 ₫."))
    frames = await socket.say("help me plan my savings")
    assert frames[-1]["message"]["metadata"]["unverified_figures"] == ["3,400,000 ₫"]
    fake.script(model.text("Saving 2 triệu a month gets you there in 10 months."))
    frames = await socket.say("I can save 2 triệu a month, help me plan")
    assert frames[-1]["message"]["metadata"]["unverified_figures"] == []
    await socket.close()


async def test_a_money_budget_stops_the_turn_before_the_model_is_called(alice, alice_cookie, fake, settings):
    settings.ZEUS_DAILY_TOKEN_BUDGET = 0
    settings.ZEUS_DAILY_COST_BUDGET_USD = "0.05"
    day = await sync_to_async(user_today)(alice)
    await sync_to_async(DailyUsage.objects.create)(user=alice, day=day, tokens=10, cost_usd=Decimal("0.05"))
    _, socket = await _socket(alice, alice_cookie)
    refused = await socket.say("show my transactions")
    assert refused[-1]["code"] == "USAGE_LIMIT"
    assert "($0.05)" in refused[-1]["message"]  # alice reads English: the allowance in her figures
    assert fake.model_requests == []
    # a per-user override in money lets this user through
    await sync_to_async(TokenBudget.objects.create)(user=alice, daily_cost_usd=Decimal("1.00"))
    fake.script(model.text("Here."))
    assert (await socket.say("show my transactions please"))[-1]["type"] == "done"
    await socket.close()


async def test_a_money_budget_reached_mid_turn_stops_the_next_model_call(alice, alice_cookie, fake, settings):
    settings.ZEUS_DAILY_TOKEN_BUDGET = 0
    day = await sync_to_async(user_today)(alice)
    await sync_to_async(DailyUsage.objects.create)(user=alice, day=day, cost_usd=Decimal("0.009"))
    await sync_to_async(TokenBudget.objects.create)(user=alice, daily_cost_usd=Decimal("0.01"))
    _, socket = await _socket(alice, alice_cookie)
    fake.script(model.tools(("list_transactions", {})), model.text("never sent"))
    frames = await socket.say("show my transactions")
    assert frames[-1]["code"] == "USAGE_LIMIT"
    assert len(fake.main_requests) == 1  # the first call's cost crossed the budget; no second call
    await socket.close()


def test_the_admin_summary_shows_cost_flags_and_totals(alice, bob, staff, settings):
    from chat.audit import RunRecord, turn_run_record

    day = dt.date(2026, 11, 30)

    def run(user, usage, flagged=()):
        record = RunRecord(user_id=user.id, thread_id=None, day=day, timezone="UTC")
        note = record.model_call("main", "claude-sonnet-5-5")
        note.end(usage=usage)
        record.unverified_figures = list(flagged)
        return turn_run_record(record=record, workflow="inspect", decided_by="pattern", outcome="ok")

    run(alice, {"input": 1_000_000, "output": 0, "cache_read": 0, "cache_write": 0})  # $2
    run(alice, {"input": 0, "output": 100_000, "cache_read": 1_000_000, "cache_write": 0}, ["3tr"])  # $1.10
    run(bob, {"input": 0, "output": 0, "cache_read": 0, "cache_write": 1_000_000})  # $2.50
    client = Client()
    client.force_login(staff)
    page = client.get(f"/admin/chat/turnrun/usage/?since={day}&until={day}")
    rows = {r["user__username"]: r for r in page.context["rows"]}
    assert rows["alice"]["cost_usd"] == Decimal("3.100000") and rows["alice"]["flagged"] == 1
    assert rows["bob"]["cost_usd"] == Decimal("2.500000") and rows["bob"]["flagged"] == 0
    total = page.context["total"]
    assert (total["cost_usd"], total["flagged"], total["turns"], total["users"]) == (Decimal("5.6"), 1, 3, 2)
    html = page.content.decode()
    assert "5.600000" in html and "3.100000" in html and 'id="usage-total"' in html


def test_staff_set_a_money_budget_override_in_the_admin(alice, staff, settings):
    client = Client()
    client.force_login(staff)
    response = client.post(
        "/admin/chat/tokenbudget/add/", {"user": alice.pk, "daily_tokens": "", "daily_cost_usd": "0.50", "note": ""}
    )
    assert response.status_code == 302
    budget = TokenBudget.objects.get(user=alice)
    assert (budget.daily_tokens, budget.daily_cost_usd) == (None, Decimal("0.50"))
    from chat.usage import turn_account

    account = turn_account(user_id=alice.id, day=dt.date(2026, 11, 30))
    assert account.cost_budget == Decimal("0.50") and account.token_budget == settings.ZEUS_DAILY_TOKEN_BUDGET
