"""End to end: headless Chromium against the running app (daphne serving zeus.asgi:application with the real
websocket consumer, agent loop, tool catalog and cards) and the offline Anthropic-compatible model server.
Nothing is faked in the page: the model's replies are scripted as a function of what it is sent.
Here: cards that act: an asset picked, a goal form, a delete approved or rejected, several cards answering
with turns."""

import json
import re
from decimal import Decimal

import pytest

from assets.models import Asset, Transaction
from chat.ui_events import GOAL_FORM_PREFIX
from goals.models import Goal
from tests import factories
from tests.chat.browser.e2e_requests import answering_tools, blocks_of, last_user_text, user_texts
from tests.chat.fake_anthropic import text, tools

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_picking_an_asset_on_the_selector_records_the_transaction_once(open_app, model):
    user = factories.user("e2e_asset")
    factories.asset(user, name="Cash wallet", kind="cash", balance="2000000")
    card = factories.asset(user, name="Techcombank Visa", kind="bank_account", balance="15000000")

    def reply(body):
        if answering_tools(body):
            outcome = json.dumps(blocks_of(body["messages"][-1]))
            return text("Which asset did you pay from?" if "asset_required" in outcome else "Recorded.")
        picked = re.match(r"Use my asset #(\d+) for that", last_user_text(body))
        call = {"amount": "150k", "description": "KFC", "category": "dining"}
        return tools(("create_manual_transaction", call | ({"asset_id": int(picked[1])} if picked else {})))

    model.responder = reply
    app = open_app(user)
    app.say("KFC 150k")
    selector = app.page.locator(".msg-assistant .zcard-asset-selector")
    selector.wait_for()
    app.idle()
    assert selector.locator(".pending-line").inner_text() == "KFC · ₫150,000"
    assert not Transaction.objects.filter(user=user).exists(), "nothing is written before the pick"
    app.shot("04_asset_selector")

    selector.locator(f"button[data-asset-id='{card.id}']").click()
    summary = app.page.locator(".msg-assistant .zcard-result")
    summary.wait_for()
    app.idle()
    app.shot("05_asset_picked")

    assert user_texts(model)[-1] == f"Use my asset #{card.id} for that"
    [txn] = Transaction.objects.filter(user=user)
    assert txn.amount == Decimal("150000")
    assert txn.asset_id == card.id
    assert txn.description == "KFC"
    assert "Transaction created" in summary.inner_text()
    app.page.locator("#recent-list .recent-item", has_text="KFC").wait_for()

    # A reload renders the same conversation, cards included, from the REST history.
    app.page.reload()
    app.wait_ready()
    history = app.page.locator("#messages")
    history.locator(".zcard-result").wait_for()
    assert [m.inner_text() for m in history.locator(".msg-user .user-text").all()] == [
        "KFC 150k",
        f"Use my asset #{card.id} for that",
    ]
    # Answered by the next turn: picking again from history would record the purchase twice.
    picks = history.locator(".zcard-asset-selector button[data-asset-id]")
    assert picks.count() == 2
    assert all(button.is_disabled() for button in picks.all())
    assert "Recorded." in app.last_reply().inner_text()
    app.shot("06_history_after_reload")


def test_a_goal_form_submitted_in_the_page_creates_the_goal(open_app, model):
    user = factories.user("e2e_goal")

    def reply(body):
        if answering_tools(body):
            outcome = json.dumps(blocks_of(body["messages"][-1]))
            return text("Fill in the form and I will set it up." if "create_goal" in outcome else "Done!")
        said = last_user_text(body)
        if said.startswith(GOAL_FORM_PREFIX):
            return tools(("create_goal", json.loads(said[len(GOAL_FORM_PREFIX) :])))
        return tools(("show_goal_planning_form", {"kind": "house", "name": "Buy a house"}))

    model.responder = reply
    app = open_app(user)
    app.say("I want to buy a house in 10 years")
    app.page.locator(".zcard-goal-form form").wait_for()
    app.idle()
    # The form is filled in from the history a reload renders: the newest message's card is still live.
    app.page.reload()
    app.wait_ready()
    form = app.page.locator("#messages .from-history .zcard-goal-form form")
    form.wait_for()
    assert form.locator("[name=name]").input_value() == "Buy a house"
    assert form.locator("[name=kind]").input_value() == "house"
    form.locator("[name=target_amount]").fill("2 tỷ")
    form.locator("[name=deadline]").fill("2036-11-29")
    form.locator("[name=current_amount]").fill("150tr")
    app.shot("07_goal_form")
    form.locator("button[type=submit]").click()
    app.page.locator(".zcard-result").wait_for()
    app.idle()
    app.shot("08_goal_created")

    submitted = {
        "name": "Buy a house",
        "kind": "house",
        "target_amount": "2 tỷ",
        "deadline": "2036-11-29",
        "current_amount": "150tr",
    }
    assert user_texts(model)[-1] == GOAL_FORM_PREFIX + json.dumps(submitted, ensure_ascii=False)
    [goal] = Goal.objects.filter(user=user)
    assert goal.name == "Buy a house"
    assert goal.target_amount == Decimal("2000000000")
    assert goal.current_amount == Decimal("150000000")
    assert goal.deadline.isoformat() == "2036-11-29"


def test_a_delete_runs_once_after_the_user_approves_it(open_app, model):
    user = factories.user("e2e_delete")
    doomed = factories.txn(user, amount="99000", description="Duplicate lunch")
    kept = factories.txn(user, amount="12000", description="Keep me")

    def reply(body):
        said = last_user_text(body)
        if answering_tools(body):
            return text("Please confirm on the card.")
        if said.startswith("I approved"):
            return text("Deleted the duplicate lunch.")
        return tools(("delete_manual_transaction", {"transaction_id": doomed.id}))

    model.responder = reply
    app = open_app(user)
    app.say(f"delete transaction #{doomed.id}")
    confirm = app.page.locator(".zcard-confirm")
    confirm.wait_for()
    app.idle()
    assert Transaction.objects.filter(id=doomed.id).exists(), "nothing is deleted before the approval"
    app.shot("09_confirm_card")

    confirm.get_by_role("button", name="Delete").click()
    app.page.locator(".msg-assistant", has_text="Deleted the duplicate lunch.").wait_for()
    app.idle()
    assert not Transaction.objects.filter(id=doomed.id).exists()
    assert list(Transaction.objects.filter(user=user)) == [kept]
    app.page.locator("#recent-list .recent-item", has_text="Duplicate lunch").wait_for(state="detached")
    app.shot("10_deleted")
    assert confirm.get_by_role("button", name="Delete").is_disabled()
    approvals = [t for t in user_texts(model) if t.startswith("I approved")]
    assert len(approvals) == 1
    assert '"deleted": true' in approvals[0]


def test_a_rejected_delete_keeps_the_transaction(open_app, model):
    user = factories.user("e2e_reject")
    spared = factories.txn(user, amount="50000", description="Bánh mì")

    def reply(body):
        if answering_tools(body):
            return text("Please confirm on the card.")
        if last_user_text(body).startswith("I rejected"):
            return text("Fine, I kept it.")
        return tools(("delete_manual_transaction", {"transaction_id": spared.id}))

    model.responder = reply
    app = open_app(user)
    app.say(f"delete transaction #{spared.id}")
    confirm = app.page.locator(".zcard-confirm")
    confirm.wait_for()
    app.idle()
    confirm.get_by_role("button", name="Cancel").click()
    app.page.locator(".msg-assistant", has_text="Fine, I kept it.").wait_for()
    app.idle()
    assert "nothing was deleted" in app.last_reply().inner_text()
    assert Transaction.objects.filter(id=spared.id).exists()
    assert user_texts(model)[-1] == "I rejected the delete_manual_transaction confirmation, so nothing was deleted."


def test_the_ui_cards_of_one_response_render_and_answer_with_turns(open_app, model):
    user = factories.user("e2e_cards")
    factories.txn(user, amount="300000", category="dining", description="Dinner")
    factories.txn(user, amount="120000", category="transport", description="Grab")
    quick_form = {
        "title": "Add an expense",
        "intent": "create_expense",
        "fields": [
            {"name": "amount", "label": "Amount", "type": "text", "required": True},
            {"name": "description", "label": "What for", "type": "text", "required": True},
        ],
    }

    def reply(body):
        said = last_user_text(body)
        if answering_tools(body):
            return text("Here is where you stand.")
        asset = re.match(r'Create a manual asset named "(.+)" \(kind: (\w+)\)\.', said)
        if asset:
            return tools(("create_manual_asset", {"name": asset[1], "kind": asset[2], "balance": "2tr"}))
        if said.startswith("Submit the create_expense form with this form data JSON: "):
            values = json.loads(said.split("JSON: ", 1)[1])
            return tools(("create_manual_transaction", {**values, "asset_id": None}))
        return tools(
            ("show_welcome_suggestions", {}),
            ("summarize_spending", {"period": "this_month", "group_by": "category"}),
            ("suggest_asset_creation", {}),
            ("show_quick_form", quick_form),
            ("show_smart_actions", {"actions": [{"label": "Budgets", "prompt": "Show my budgets"}]}),
        )

    model.responder = reply
    app = open_app(user)
    app.say("Hi Zeus, what can you do?")
    app.page.locator(".msg-assistant", has_text="Here is where you stand.").wait_for()
    app.idle()
    turn = app.page.locator(".msg-assistant").first
    kinds = turn.locator(".zcard").evaluate_all("cards => cards.map(c => c.dataset.kind)")
    # The calls run concurrently and each card is sent as its tool finishes, so the live order may vary.
    assert sorted(kinds) == ["asset_suggestions", "chart", "quick_form", "smart_actions", "welcome"]
    chart = turn.locator(".zcard[data-kind=chart] [role=img]")
    assert "Dining" in chart.get_attribute("aria-label") and "Transport" in chart.get_attribute("aria-label")
    app.shot("18_cards")

    turn.locator(".zcard[data-kind=asset_suggestions] button", has_text="E-wallet").click()
    app.page.locator(".zcard-result", has_text="Asset created").wait_for()
    app.idle()
    [wallet] = Asset.objects.filter(user=user)
    assert (wallet.name, wallet.kind, wallet.balance) == ("E-wallet", "e_wallet", Decimal("2000000"))

    form = turn.locator(".zcard[data-kind=quick_form] form")
    form.locator("[name=amount]").fill("45k")
    form.locator("[name=description]").fill("Coffee")
    form.locator("button[type=submit]").click()
    app.page.locator(".zcard-result", has_text="Transaction created").wait_for()
    app.idle()
    app.shot("19_cards_answered")
    assert user_texts(model)[-1] == (
        'Submit the create_expense form with this form data JSON: {"amount": "45k", "description": "Coffee"}'
    )
    coffee = Transaction.objects.get(user=user, description="Coffee")
    assert coffee.amount == Decimal("45000")
