"""A whole turn: "what subscriptions am I paying for" is routed by pattern (no router model call), the model
gets list_recurring, and the turn draws the `recurring` card."""

import datetime as dt

import pytest
from asgiref.sync import sync_to_async

from suggestions.models import RecurringSeries
from tests.chat import fake_anthropic as model
from tests.chat.harness import new_chat
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db(transaction=True)


def _netflix(user):
    today = user_today(user)
    RecurringSeries.objects.create(
        user=user, key="netflix", direction="expense", merchant="Netflix", kind="subscription", amount=260_000,
        currency="VND", interval="monthly", last_on=today - dt.timedelta(days=25), next_on=today + dt.timedelta(days=5),
        category="subscriptions", occurrences=3,
    )  # fmt: skip


@pytest.mark.parametrize("text", ["what subscriptions am I paying for", "tuần này có khoản nào đến hạn không"])
async def test_a_recurring_question_needs_no_router_call_and_draws_the_card(alice, fake, settings, text):
    await sync_to_async(_netflix)(alice)
    _, talk = await new_chat(alice)
    fake.script(model.tools(("list_recurring", {"kind": "subscription"})), model.text("Netflix, 260,000 ₫ a month."))
    frames = await talk.say(text)
    assert [r["body"]["model"] for r in fake.model_requests] == [settings.ZEUS_MODEL, settings.ZEUS_MODEL]
    assert "list_recurring" in {t["name"] for t in fake.main_requests[0]["body"]["tools"]}
    done = frames[-1]
    assert done["type"] == "done" and done["workflow"] == "inspect"
    assert done["message"]["metadata"]["decided_by"] == "pattern"
    (card,) = [f["spec"] for f in frames if f["type"] == "spec"]
    assert card["kind"] == "recurring"
    assert [(i["merchant"], i["monthly_cost"], i["yearly_cost"]) for i in card["items"]] == [
        ("Netflix", "260000", "3120000")
    ]
    await talk.close()
