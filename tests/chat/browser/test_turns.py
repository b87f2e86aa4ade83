"""A turn over the (faked) websocket: streaming, stop, errors in place, the key dialog, reconnecting."""

import re

import pytest

from tests.chat.browser.scripts import turn

pytestmark = pytest.mark.browser

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


def test_it_streams_the_reply_token_by_token_after_logging_in(open_chat):
    chat = open_chat()
    chat.shot("01_logged_in")
    chat.queue(turn(text="Your dining spend is **1,250,000 ₫** this month, up 20% on October.", delay=120))
    chat.say("How much did I spend on dining?")

    live = chat.page.locator(".msg-assistant.live .md")
    live.filter(has_text="Your dining").wait_for()
    partial = live.inner_text()
    assert "October" not in partial
    assert chat.page.locator("#stop").is_visible()
    chat.shot("02_streaming")

    chat.idle()
    final = chat.page.locator(".msg-assistant").last
    assert final.locator("strong").inner_text() == "1,250,000 ₫"
    assert "up 20% on October." in final.inner_text()
    [frame] = chat.sent("user_message")
    assert frame["text"] == "How much did I spend on dining?"
    assert UUID.match(frame["id"])
    assert chat.page.locator(".msg-user").last.get_attribute("class") == "msg msg-user"
    chat.shot("03_streamed")


def test_phases_and_tool_badges_show_while_the_turn_works(open_chat):
    chat = open_chat()
    chat.queue(turn(text="Done.", tools=["list_assets"], delay=400))
    chat.say("KFC 150k")
    badge = chat.page.locator(".msg-assistant.live .tool-badge.calling")
    badge.wait_for()
    assert badge.inner_text().startswith("Assets")
    assert "Checking assets" in chat.page.locator(".turn-status").inner_text()
    chat.shot("04_tool_badge")
    chat.idle()
    assert chat.page.locator(".msg-assistant .tool-badge.done").inner_text().startswith("Assets")


def test_model_text_is_rendered_as_safe_markdown(open_chat):
    chat = open_chat()
    hostile = (
        'Hi <img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script> '
        "[click](javascript:window.__pwned=3) [docs](https://example.com/help) `code` *soft*\n\n- one\n- two"
    )
    chat.queue(turn(text=hostile))
    chat.say("hello")
    chat.idle()
    reply = chat.page.locator(".msg-assistant").last
    assert reply.locator("img, script").count() == 0
    assert "<img" in reply.inner_text()
    hrefs = reply.locator("a").evaluate_all("links => links.map(a => a.href)")
    assert hrefs == ["https://example.com/help"]
    assert reply.locator("code").inner_text() == "code"
    assert reply.locator("em").inner_text() == "soft"
    assert reply.locator("li").count() == 2
    assert chat.page.evaluate("() => window.__pwned") is None


def test_the_stop_button_sends_stop_and_keeps_what_streamed(open_chat):
    chat = open_chat()
    chat.queue(turn(text="This is a very long answer that keeps going and going " * 4, delay=150))
    chat.say("Explain budgets")
    chat.page.locator(".msg-assistant.live .md", has_text="This is a very").wait_for()
    chat.shot("05_before_stop")
    chat.page.click("#stop")
    chat.idle()
    assert chat.sent("stop") == [{"type": "stop"}]
    stopped = chat.page.locator(".msg-assistant").last
    assert stopped.locator(".md").inner_text().startswith("This is a very")
    assert "Stopped." in stopped.locator(".error-note").inner_text()
    assert chat.page.locator("#send").is_enabled()
    chat.shot("06_stopped")


def test_an_error_frame_shows_in_place_and_retry_resends_with_a_fresh_id(open_chat):
    chat = open_chat()
    chat.queue([{"type": "ack", "id": "$ID"}, {"type": "error", "code": "PROVIDER_UNAVAILABLE", "message": "x"}])
    chat.say("Show my goals")
    note = chat.page.locator(".msg-assistant.failed .error-note")
    note.wait_for()
    assert "not answering" in note.inner_text()
    chat.shot("07_error_in_place")
    note.get_by_role("button", name="Retry").click()
    first, second = chat.wait_sent("user_message", 2)
    assert second["text"] == first["text"] == "Show my goals"
    assert second["id"] != first["id"]
    chat.idle()
    assert chat.page.locator(".msg-assistant.failed").count() == 0
    assert chat.page.locator(".msg-user").count() == 1


def test_ai_provider_required_opens_the_key_dialog_and_retries_after_saving(open_chat):
    chat = open_chat()
    chat.queue([{"type": "error", "code": "AI_PROVIDER_REQUIRED", "message": "Add a key."}])
    chat.say("KFC 150k")
    dialog = chat.page.locator("#key-dialog")
    dialog.wait_for()
    assert chat.page.evaluate("() => document.activeElement.id") == "key-input"
    chat.shot("08_key_dialog")

    chat.page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    chat.page.locator(".error-note").get_by_role("button", name="Add a key").click()
    chat.page.fill("#key-input", "sk-ant-test-123")
    chat.page.click("#key-save")
    dialog.wait_for(state="hidden")

    assert chat.backend.provider_keys == [{"api_key": "sk-ant-test-123"}]
    assert chat.backend.csrf_missing == 0
    first, second = chat.wait_sent("user_message", 2)
    assert second["text"] == "KFC 150k" and second["id"] != first["id"]
    chat.idle()
    assert "You said" in chat.page.locator(".msg-assistant").last.inner_text()
    chat.shot("09_after_key")


def test_it_reconnects_after_the_socket_drops(open_chat):
    chat = open_chat()
    chat.page.evaluate("() => { window.__fake.refuseConnections = true; window.__fake.drop(); }")
    banner = chat.page.locator("#banner")
    banner.wait_for()
    assert "Reconnecting" in banner.inner_text()
    chat.page.wait_for_function("() => window.__fake.connects >= 3")
    chat.shot("10_reconnecting")

    chat.page.evaluate("() => { window.__fake.refuseConnections = false; }")
    chat.page.wait_for_function("() => window.__fake.current() !== null", timeout=10000)
    banner.wait_for(state="hidden")
    chat.say("Still there?")
    chat.idle()
    assert chat.sent("user_message")[0]["text"] == "Still there?"
    assert "You said" in chat.page.locator(".msg-assistant").last.inner_text()


def test_a_message_typed_while_offline_goes_out_after_reconnecting(open_chat):
    chat = open_chat()
    chat.page.evaluate("() => { window.__fake.refuseConnections = true; window.__fake.drop(); }")
    chat.page.locator("#banner").wait_for()
    chat.say("Queued hello")
    chat.page.evaluate("() => { window.__fake.refuseConnections = false; }")
    chat.page.click("#banner button")
    chat.idle()
    assert [f["text"] for f in chat.sent("user_message")] == ["Queued hello"]


def test_a_dropped_socket_mid_turn_offers_a_retry(open_chat):
    chat = open_chat()
    chat.queue(turn(text="slow words here and more and more and more", delay=1000))
    chat.say("Analyse my spending")
    chat.page.locator(".msg-assistant.live .md").wait_for()
    chat.page.evaluate("() => { window.__fake.refuseConnections = true; window.__fake.drop(); }")
    note = chat.page.locator(".msg-assistant.failed .error-note")
    note.wait_for()
    assert "connection dropped" in note.inner_text()
    assert note.get_by_role("button", name="Retry").is_visible()


def test_a_staff_reply_arrives_live(open_chat):
    chat = open_chat()
    chat.emit(
        {
            "type": "message",
            "message": {
                "id": "staff-1",
                "role": "assistant",
                "parts": [{"type": "text", "text": "Hi, this is **Lan** from Zeus support."}],
                "metadata": {"admin_initiated": True},
                "created_at": "2026-11-29T09:00:00Z",
            },
        }
    )
    reply = chat.page.locator('.msg-assistant.from-staff[data-id="staff-1"]')
    reply.wait_for()
    assert "from the Zeus team" in reply.inner_text()
    assert reply.locator("strong").inner_text() == "Lan"


def test_prompt_in_the_url_prefills_the_input(open_chat):
    chat = open_chat()
    chat.open("/chat?prompt=Plan%20my%20month")
    assert chat.page.input_value("#input") == "Plan my month"
    assert chat.sent("user_message") == []


def test_enter_sends_and_shift_enter_adds_a_line(open_chat):
    chat = open_chat()
    chat.page.click("#input")
    chat.page.keyboard.type("line one")
    chat.page.keyboard.press("Shift+Enter")
    chat.page.keyboard.type("line two")
    assert chat.sent("user_message") == []
    chat.page.keyboard.press("Enter")
    [frame] = chat.wait_sent("user_message")
    assert frame["text"] == "line one\nline two"
    chat.idle()
    assert chat.page.input_value("#input") == ""


def test_after_a_reconnect_the_page_shows_what_arrived_while_it_was_offline(open_chat):
    chat = open_chat()
    chat.page.evaluate("() => { window.__fake.refuseConnections = true; window.__fake.drop(); }")
    chat.page.locator("#banner").wait_for()
    thread_id = chat.backend.threads[0]["id"]
    chat.backend.persist(
        thread_id,
        {
            "id": "missed-1",
            "role": "assistant",
            "parts": [{"type": "text", "text": "A reply from the Zeus team while you were away."}],
            "metadata": {"admin_initiated": True},
            "created_at": "2026-11-29T09:00:00Z",
        },
    )
    chat.page.evaluate("() => { window.__fake.refuseConnections = false; }")
    chat.page.click("#banner button")
    missed = chat.page.locator('[data-id="missed-1"]')
    missed.wait_for()
    assert "while you were away" in missed.text_content()


def test_text_streamed_before_and_between_tool_calls_stays_in_the_live_bubble(open_chat):
    chat = open_chat()
    call = "toolu_before0001"
    # The tokens and the tool call arrive in one burst, before the page has painted a frame.
    chat.queue(
        [
            {"type": "ack", "id": "$ID"},
            {"type": "phase", "phase": "generating"},
            {"type": "token", "text": "Để "},
            {"type": "token", "text": "xem "},
            {"type": "token", "text": "các tài khoản."},
            {"type": "tool", "name": "list_assets", "call_id": call, "status": "calling"},
            {"$delay": 200},
            {"type": "tool", "name": "list_assets", "call_id": call, "status": "done"},
            {"type": "token", "text": "Bạn có "},
            {"type": "token", "text": "hai tài khoản."},
            {"type": "tool", "name": "list_goals", "call_id": "toolu_between001", "status": "calling"},
        ]
    )
    chat.say("show my accounts")
    chat.page.locator(".msg-assistant.live .tool-badge[data-tool=list_goals]").wait_for()
    chat.page.wait_for_timeout(300)
    texts = chat.page.locator(".msg-assistant.live .md").all_inner_texts()
    assert [t.strip() for t in texts] == ["Để xem các tài khoản.", "Bạn có hai tài khoản."]
