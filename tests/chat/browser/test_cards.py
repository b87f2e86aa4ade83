"""Cards (docs/contract/cards.md) from `spec` frames, and the exact `ui_event` frames their clicks and submits send."""

import re

import pytest

from tests.chat.browser import scripts
from tests.chat.browser.scripts import turn

pytestmark = pytest.mark.browser

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


def only_ui_event(chat):
    [frame] = chat.wait_sent("ui_event")
    assert UUID.match(frame.pop("id"))
    return frame


def test_picking_an_asset_sends_existing_asset_selected(open_chat):
    chat = open_chat()
    chat.queue(turn(text="Which asset did you pay with?", tools=["list_assets"], cards=[scripts.ASSET_SELECTOR]))
    chat.say("KFC 150k")
    chat.idle()
    card = chat.page.locator(".zcard-asset-selector")
    assert "Which asset was this paid from?" in card.inner_text()
    assert card.locator(".pending-line").inner_text() == "KFC · ₫150,000"
    assert card.locator(".option-amount").all_inner_texts() == ["₫850,000", "₫12,500,000"]
    chat.shot("11_asset_selector")

    chat.queue(turn(text="Added **KFC** for 150,000 ₫.", tools=["create_manual_transaction"]))
    card.get_by_role("button", name=re.compile("Cash wallet")).click()
    assert only_ui_event(chat) == {"type": "ui_event", "event": "existing_asset_selected", "payload": {"asset_id": 12}}
    chat.idle()
    assert card.locator("button:disabled").count() == 2
    assert chat.page.locator(".msg-user.via-card").last.inner_text() == "Use Cash wallet"
    chat.shot("12_asset_picked")


def test_submitting_a_goal_form_sends_form_submit(open_chat):
    chat = open_chat()
    chat.queue(turn(text="Let's plan it.", cards=[scripts.GOAL_FORM]))
    chat.say("I want to buy a house in 10 years")
    chat.idle()
    form = chat.page.locator(".zcard-goal-form form")
    assert form.locator("[name=name]").input_value() == "Buy a house"
    assert form.locator("[name=kind]").input_value() == "house"

    form.locator("[name=target_amount]").fill("2 tỷ")
    form.get_by_role("button", name="Create goal").click()
    assert chat.sent("ui_event") == [], "the deadline is required"
    form.locator("[name=deadline]").fill("2036-11-29")
    chat.shot("13_goal_form")
    chat.queue(turn(text="Goal created.", tools=["create_goal"], cards=[scripts.RESULT_SUMMARY]))
    form.get_by_role("button", name="Create goal").click()
    assert only_ui_event(chat) == {
        "type": "ui_event",
        "event": "form_submit",
        "payload": {
            "intent": "create_goal",
            "values": {"name": "Buy a house", "kind": "house", "target_amount": "2 tỷ", "deadline": "2036-11-29"},
        },
    }
    chat.idle()
    assert chat.page.locator(".zcard-result.good").count() == 1
    chat.shot("14_goal_created")


def test_a_goal_form_described_by_values_keeps_a_relative_deadline(open_chat):
    chat = open_chat()
    chat.queue(turn(cards=[scripts.GOAL_FORM_FROM_VALUES]))
    chat.say("I want to retire early")
    chat.idle()
    form = chat.page.locator(".zcard-goal-form form")
    assert form.locator("[name=kind]").input_value() == "retirement"
    assert form.locator("[name=deadline]").get_attribute("type") == "text"
    form.get_by_role("button", name="Create goal").click()
    assert only_ui_event(chat)["payload"] == {
        "intent": "create_goal",
        "values": {"name": "Retire early", "kind": "retirement", "target_amount": "5000000000", "deadline": "20 years"},
    }


def test_confirming_a_delete_sends_the_approval_and_refreshes_transactions(open_chat):
    chat = open_chat()
    chat.backend.transactions = [
        {
            "id": 1,
            "amount": "150000",
            "currency": "VND",
            "direction": "expense",
            "description": "KFC",
            "category": "dining",
            "occurred_on": "2026-11-29",
        },
    ]
    chat.page.reload()
    chat.wait_ready()
    chat.page.locator("#recent-panel").wait_for()
    assert "KFC" in chat.page.locator("#recent-list").inner_text()
    reads = chat.backend.transaction_reads

    chat.queue(turn(text="Please confirm.", tools=["delete_manual_transaction"], cards=[scripts.CONFIRM_DELETE]))
    chat.say("Delete the KFC expense")
    chat.idle()
    card = chat.page.locator(".zcard-confirm")
    assert card.locator(".card-title").inner_text() == "Delete this transaction?"
    assert "KFC: 150,000 ₫ on 2026-11-29. This cannot be undone." in card.inner_text()
    assert "expires at" in card.locator(".card-note").inner_text()
    chat.shot("15_confirm")

    chat.backend.transactions = []
    chat.queue(turn(text="Deleted.", tools=["delete_manual_transaction"], cards=[scripts.RESULT_SUMMARY]))
    card.get_by_role("button", name="Delete").click()
    assert only_ui_event(chat) == {
        "type": "ui_event",
        "event": "confirm",
        "payload": {"approval_id": "apr_7f3c", "decision": "approve"},
    }
    chat.idle()
    chat.page.locator("#recent-list", has_text="No transactions yet.").wait_for()
    assert chat.backend.transaction_reads > reads
    chat.shot("16_deleted")


def test_rejecting_a_confirmation_sends_reject(open_chat):
    chat = open_chat()
    chat.queue(turn(cards=[scripts.CONFIRM_DELETE]))
    chat.say("Delete the KFC expense")
    chat.idle()
    chat.page.locator(".zcard-confirm").get_by_role("button", name="Cancel").click()
    assert only_ui_event(chat)["payload"] == {"approval_id": "apr_7f3c", "decision": "reject"}


def test_the_transactions_panel_stays_hidden_when_the_ledger_api_is_absent(open_chat):
    chat = open_chat()
    assert chat.backend.transaction_reads >= 1
    assert chat.page.locator("#recent-panel").is_hidden()


def test_a_chart_card_draws_bars_with_labels_and_amounts(open_chat):
    chat = open_chat()
    chat.queue(
        turn(text="Here is your month.", tools=["summarize_spending"], cards=[scripts.CHART, scripts.WEEKLY_CHART])
    )
    chat.say("How did I spend this month?")
    chat.idle()
    bars = chat.page.locator(".zcard-chart svg.chart-bar")
    assert bars.locator("rect.bar").count() == 3
    labels = bars.locator("text.chart-label").all_text_contents()
    assert labels == ["Dining", "Groceries", "Transport"]
    widths = [float(w) for w in bars.locator("rect.bar").evaluate_all("rs => rs.map(r => r.getAttribute('width'))")]
    assert widths[1] == max(widths) and widths[2] == min(widths)
    assert "₫2.3M" in bars.locator("text.chart-amount").all_text_contents()
    assert "Total ₫4,000,000" in chat.page.locator(".zcard-chart .chart-sub").first.inner_text()
    line = chat.page.locator(".zcard-chart svg.chart-line")
    assert line.locator("circle.dot").count() == 4
    assert "Nov 17: $150.25" in line.get_attribute("aria-label")
    chat.page.locator(".zcard-chart").first.scroll_into_view_if_needed()
    chat.shot("17_charts")


def test_prompt_cards_send_their_events(open_chat):
    chat = open_chat()
    chat.queue(
        turn(
            cards=[
                scripts.WELCOME,
                scripts.SMART_ACTIONS,
                scripts.ASSET_SUGGESTIONS,
                scripts.QUICK_CREATE,
                scripts.QUICK_FORM,
            ]
        )
    )
    chat.say("hi")
    chat.idle()
    chat.shot("18_prompt_cards")

    chat.page.locator(".zcard-welcome").get_by_role("button", name="Review dining").click()
    chat.idle()
    chat.page.locator(".zcard-smart-actions").get_by_role("button", name="See budget").click()
    chat.idle()
    chat.page.locator(".zcard-asset-suggestions").get_by_role("button", name=re.compile("Bank")).click()
    chat.idle()
    chat.page.locator(".zcard-quick-create").get_by_role("button", name=re.compile("MoMo")).click()
    chat.idle()
    form = chat.page.locator(".zcard-quick-form form")
    form.locator("[name=amount]").fill("150k")
    form.locator("[name=category]").select_option("dining")
    form.get_by_role("button", name="Send").click()
    chat.wait_sent("ui_event", 5)
    chat.idle()
    events = [(f["event"], f["payload"]) for f in chat.sent("ui_event")]
    assert events == [
        ("action_selected", {"prompt": "Why is my dining spend high?"}),
        ("action_selected", {"prompt": "Budgets"}),
        ("quick_create_selected", {"kind": "bank_account", "name": "Bank"}),
        ("quick_create_selected", {"kind": "e_wallet", "name": "MoMo"}),
        ("form_submit", {"intent": "create_transaction", "values": {"amount": "150k", "category": "dining"}}),
    ]
    assert len({f["id"] for f in chat.sent("ui_event")}) == 5


def test_a_card_click_during_a_turn_sends_nothing(open_chat):
    chat = open_chat()
    chat.queue(turn(cards=[scripts.SMART_ACTIONS]), turn(text="slow " * 20, delay=200))
    chat.say("hi")
    chat.idle()
    chat.say("and now?")
    chat.page.locator(".msg-assistant.live .md").wait_for()
    chat.page.locator(".zcard-smart-actions").get_by_role("button", name="See budget").click()
    assert chat.sent("ui_event") == []
    assert "still answering" in chat.page.locator("#toasts").inner_text()
