"""End to end: headless Chromium against the running app (daphne serving zeus.asgi:application with the real
websocket consumer, agent loop, tool catalog and cards) and the offline Anthropic-compatible model server.
Nothing is faked in the page: the model's replies are scripted as a function of what it is sent.
Here: a reply streaming in and stored, stop, older pages, a personal key, a transaction's day, the marker
of a figure no tool gave."""

from datetime import date

import pytest

from chat.models import Message
from tests import factories
from tests.chat import factories as chat_factories
from tests.chat.browser.e2e_requests import answering_tools
from tests.chat.fake_anthropic import text, tools

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_reply_streams_into_the_page_and_is_stored(open_app, model):
    user = factories.user("e2e_stream")
    answer = "You spent **1,250,000 ₫** on dining this month, which is a little more than in October."
    model.responder = lambda body: text(answer, token_delay=0.06)
    app = open_app(user)
    app.shot("01_logged_in")

    app.say("How much did I spend on dining this month?")
    live = app.page.locator(".msg-assistant.live .md")
    live.filter(has_text="You spent").wait_for()
    partial = live.inner_text()
    assert "October" not in partial, "the reply arrived whole, not streamed"
    app.shot("02_streaming")

    app.idle()
    reply = app.last_reply()
    assert reply.locator("strong").inner_text() == "1,250,000 ₫"
    assert "more than in October." in reply.inner_text()
    assert app.page.locator(".msg-user.pending").count() == 0
    app.shot("03_streamed")
    stored = list(Message.objects.filter(thread_id=app.thread_id).order_by("id"))
    assert [m.role for m in stored] == ["user", "assistant"]
    assert stored[0].parts == [{"type": "text", "text": "How much did I spend on dining this month?"}]
    assert stored[1].parts == [{"type": "text", "text": answer}]
    assert reply.get_attribute("data-id") == str(stored[1].id)


def test_stop_keeps_the_partial_reply_as_aborted(open_app, model):
    user = factories.user("e2e_stop")
    words = " ".join(f"word{n}" for n in range(80))
    model.responder = lambda body: text(words, token_delay=0.08)
    app = open_app(user)
    app.say("Explain how budgets work")
    live = app.page.locator(".msg-assistant.live .md")
    live.filter(has_text="word3 ").wait_for()
    app.page.click("#stop")
    app.idle()
    stopped = app.last_reply()
    assert "Stopped." in stopped.locator(".error-note").inner_text()
    app.shot("11_stopped")

    shown = stopped.locator(".md").inner_text().strip()
    [assistant] = Message.objects.filter(thread_id=app.thread_id, role="assistant")
    assert assistant.metadata["aborted"] is True
    assert assistant.metadata["error"] == "STOPPED"
    stored = assistant.parts[0]["text"]
    assert words.startswith(stored) and stored != words
    assert stored.strip() == shown

    app.page.reload()
    app.wait_ready()
    again = app.page.locator("#messages .msg-assistant").last
    again.wait_for()
    assert again.locator(".md").inner_text().strip() == shown
    assert "stopped" in again.locator(".msg-meta").inner_text()
    app.shot("12_stopped_after_reload")


def test_load_older_pages_through_the_stored_history(open_app, model):
    user = factories.user("e2e_history")
    thread = chat_factories.thread(user)
    for n in range(18):
        chat_factories.user_message(thread, f"question {n}")
        chat_factories.assistant_message(thread, f"answer {n}")
    app = open_app(user)
    bubbles = app.page.locator("#messages .msg .bubble")
    app.page.locator("#messages .msg-assistant", has_text="answer 17").wait_for()
    assert bubbles.count() == 30
    app.page.click("#load-older")
    app.page.locator("#messages .msg-user", has_text="question 0").wait_for()
    app.page.locator("#load-older").wait_for(state="hidden")
    expected = [f"{kind} {n}" for n in range(18) for kind in ("question", "answer")]
    # textContent: off-screen messages skip rendering (content-visibility), so innerText is empty there.
    assert [b.strip() for b in bubbles.all_text_contents()] == expected


def test_a_transactions_date_is_its_own_day_west_of_greenwich(open_app, model):
    user = factories.user("e2e_west", currency="USD", timezone="America/Los_Angeles")
    factories.txn(user, amount="12.5", currency="USD", description="Tacos", occurred_on=date(2026, 11, 29))
    app = open_app(user, timezone_id="America/Los_Angeles")
    app.page.locator("#recent-list .recent-item").wait_for()
    recent = app.page.locator("#recent-list").inner_text()
    assert "Nov 29, 2026" in recent and "$12.50" in recent


def test_without_any_key_the_dialog_saves_the_users_key_and_the_retry_uses_it(open_app, model, settings):
    settings.ANTHROPIC_API_KEY = ""
    user = factories.user("e2e_key")
    model.responder = lambda body: text("Hello! Your own key works.")
    app = open_app(user)
    app.say("Hello Zeus")
    dialog = app.page.locator("#key-dialog")
    dialog.wait_for()
    assert model.requests == []
    app.page.fill("#key-input", "sk-ant-user-key-0123456789")
    app.shot("15_key_dialog")
    app.page.click("#key-save")
    dialog.wait_for(state="hidden")
    app.page.locator(".msg-assistant", has_text="Your own key works.").wait_for()
    app.idle()
    app.shot("16_answered_with_the_users_key")
    assert [r["api_key"] for r in model.main_requests] == ["sk-ant-user-key-0123456789"]
    assert app.page.locator(".msg-assistant.failed").count() == 0


def test_a_figure_no_tool_gave_gets_a_quiet_marker_with_its_tooltip(open_app, model):
    user = factories.user("e2e_figures")
    factories.txn(user, amount="85000", description="Phở Hòa", category="dining")

    def reply(body):
        if answering_tools(body):
            return text("You spent 85,000 ₫ on phở, and about 2,400,000 ₫ in total this month.")
        return tools(("list_transactions", {"limit": 5}))

    model.responder = reply
    app = open_app(user)
    app.say("show my transactions")
    app.idle()
    marker = app.last_reply().locator(".msg-meta .unverified")
    marker.wait_for()
    tip = marker.get_attribute("title")
    assert "2,400,000 ₫" in tip and "85,000" not in tip
    assert marker.get_attribute("data-unverified") == "1"
    app.shot("figures_marker")
    # the stored message carries it too: a reload renders the same marker from history
    app.page.reload()
    app.wait_ready()
    assert "2,400,000 ₫" in app.last_reply().locator(".msg-meta .unverified").get_attribute("title")
    # a reply whose figures all come from the tools has none
    model.responder = lambda body: text("You spent 85,000 ₫ on phở.") if answering_tools(body) else reply(body)
    app.say("show my transactions again")
    app.idle()
    assert app.last_reply().locator(".msg-meta .unverified").count() == 0
