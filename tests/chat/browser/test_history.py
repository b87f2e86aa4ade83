"""History over REST (docs/contract/rest.md): reload, load older, threads, and a long thread."""

import uuid

import pytest

from tests.chat.browser import scripts
from tests.chat.browser.conftest import FakeChatBackend, stored_message
from tests.chat.browser.scripts import turn

pytestmark = pytest.mark.browser


def numbered(n):
    return [stored_message("user" if i % 2 == 0 else "assistant", f"Message number {i}", id=f"m{i}") for i in range(n)]


def test_after_a_reload_the_history_comes_back_with_tools_and_cards(open_chat):
    chat = open_chat()
    chat.queue(turn(text="Which asset did you pay with?", tools=["list_assets"], cards=[scripts.ASSET_SELECTOR]))
    chat.say("KFC 150k")
    chat.idle()
    chat.page.reload()
    chat.wait_ready()
    messages = chat.page.locator("#messages .msg")
    assert messages.count() == 2
    assert messages.nth(0).text_content().startswith("KFC 150k")
    assert messages.nth(1).locator(".tool-badge.done").text_content().startswith("Assets")
    assert messages.nth(1).locator(".zcard-asset-selector .option").count() == 2
    assert "Which asset did you pay with?" in messages.nth(1).text_content()
    chat.shot("19_history_after_reload")


def test_load_older_pages_back_and_keeps_the_reader_in_place(open_chat):
    backend = FakeChatBackend()
    backend.add_thread(title="Budget review", messages=numbered(75))
    chat = open_chat(backend=backend)
    assert chat.page.locator("#thread-title").inner_text() == "Budget review"
    messages = chat.page.locator("#messages .msg")
    assert messages.count() == 30
    assert messages.last.text_content().startswith("Message number 74")
    older = chat.page.locator("#load-older")
    older.click()
    chat.page.wait_for_function("() => document.querySelectorAll('#messages .msg').length === 60")
    assert messages.first.text_content().startswith("Message number 15")
    anchor = chat.page.locator('[data-id="m45"]').bounding_box()["y"]
    assert anchor > 0, "the message that was on top stays below the new ones"
    older.click()
    chat.page.wait_for_function("() => document.querySelectorAll('#messages .msg').length === 75")
    assert older.is_hidden()
    assert messages.first.text_content().startswith("Message number 0")


def test_a_500_message_thread_renders_and_the_input_stays_usable(open_chat):
    backend = FakeChatBackend(one_page=True)
    backend.add_thread(title="Long one", messages=numbered(500))
    chat = open_chat(backend=backend)
    chat.page.wait_for_function("() => document.querySelectorAll('#messages .msg').length === 500")
    assert chat.page.evaluate("() => document.activeElement.id") == "input"
    log_bottom = chat.page.evaluate(
        "() => { const l = document.getElementById('log'); return l.scrollHeight - l.scrollTop - l.clientHeight; }"
    )
    assert log_bottom < 150
    chat.say("Still quick?")
    chat.idle()
    assert chat.page.locator("#messages .msg").count() == 502
    assert chat.sent("user_message")[0]["text"] == "Still quick?"
    chat.shot("20_long_thread")


def test_new_chat_creates_a_thread_and_switching_loads_its_history(open_chat):
    backend = FakeChatBackend()
    old = backend.add_thread(title="Old chat", messages=numbered(2))
    chat = open_chat(backend=backend)
    chat.page.click("#new-thread")
    chat.page.wait_for_function("(old) => !location.pathname.endsWith(old)", arg=old)
    assert len(backend.threads) == 2
    chat.page.locator(".empty-state").wait_for()
    assert chat.page.locator(".thread-link").count() == 2
    chat.page.locator(".thread-link", has_text="Old chat").click()
    chat.page.wait_for_function("(old) => location.pathname.endsWith(old)", arg=old)
    chat.page.locator("#messages .msg").nth(1).wait_for()
    assert chat.page.locator("#messages .msg").count() == 2
    assert chat.page.evaluate("() => window.__fake.current().url").endswith(f"/ws/chat/{old}/")


def test_a_user_without_threads_gets_one_and_starter_prompts_send(open_chat):
    chat = open_chat(threads=0)
    assert len(chat.backend.threads) == 1
    chat.page.get_by_role("button", name="Show my assets").click()
    [frame] = chat.wait_sent("user_message")
    assert frame["text"] == "Show my assets"
    chat.idle()
    assert chat.page.locator(".empty-state").count() == 0


def test_active_suggestions_lead_the_starter_prompts(open_chat):
    backend = FakeChatBackend()
    backend.suggestions = [
        {
            "id": 1,
            "kind": "goal_nudge",
            "title": "Top up your emergency fund",
            "body": "",
            "prompt": "How much should I add to my emergency fund?",
            "status": "active",
        },
    ]
    chat = open_chat(backend=backend)
    chips = chat.page.locator(".empty-state .chip")
    chips.first.filter(has_text="Top up your emergency fund").wait_for()
    assert chips.count() == 5
    chips.first.click()
    [frame] = chat.wait_sent("user_message")
    assert frame["text"] == "How much should I add to my emergency fund?"


def test_an_unknown_thread_in_the_url_falls_back_to_the_users_newest(open_chat):
    backend = FakeChatBackend()
    mine = backend.add_thread(title="Mine", messages=numbered(2))
    chat = open_chat(backend=backend)
    chat.open(f"/chat/{uuid.uuid4()}")
    chat.page.wait_for_function("(id) => location.pathname === `/chat/${id}`", arg=mine)
    chat.page.locator("#messages .msg").nth(1).wait_for()
    assert "not available" in chat.page.locator("#toasts").inner_text()


def test_a_socket_refused_for_a_deleted_thread_moves_to_another(open_chat):
    backend = FakeChatBackend()
    backend.add_thread(title="Other")
    doomed = backend.add_thread(title="Doomed")
    chat = open_chat(backend=backend)
    assert chat.page.evaluate("() => location.pathname").endswith(doomed)
    backend.threads = [t for t in backend.threads if t["id"] != doomed]
    del backend.messages[doomed]
    chat.page.evaluate("() => { window.__fake.refuseConnections = true; window.__fake.drop(); }")
    chat.page.wait_for_function("(id) => !location.pathname.endsWith(id)", arg=doomed, timeout=15000)
    assert chat.page.locator("#thread-title").inner_text() == "Other"
