"""The view follows a streaming reply while the reader is at the bottom; scrolled up, it stays put and a
"new messages" pill offers the way back down."""

import pytest

from tests.chat.browser.conftest import FakeChatBackend, stored_message
from tests.chat.browser.scripts import turn

pytestmark = pytest.mark.browser

LONG = " ".join(f"word{i}" for i in range(400))


def at_bottom(page) -> bool:
    return page.evaluate(
        "() => { const l = document.getElementById('log'); return l.scrollHeight - l.scrollTop - l.clientHeight < 4; }"
    )


def test_a_reply_is_followed_at_the_bottom_and_flagged_when_scrolled_up(open_chat):
    backend = FakeChatBackend()
    backend.add_thread(title="Long", messages=[stored_message("user", f"line {i} " * 20) for i in range(30)])
    chat = open_chat(backend=backend)
    pill = chat.page.locator("#new-below")

    chat.queue(turn(text=LONG, delay=5))
    chat.say("tell me everything")
    chat.idle()
    assert at_bottom(chat.page) and pill.is_hidden()

    chat.queue(turn(text=LONG[: len(LONG) // 2], delay=10))
    chat.say("and more")
    chat.page.locator(".msg-assistant.live .md").filter(has_text="word20").wait_for()
    chat.page.evaluate("() => { document.getElementById('log').scrollTop = 0; }")  # the reader scrolls up
    chat.idle()
    assert pill.is_visible()
    assert chat.page.evaluate("() => document.getElementById('log').scrollTop") < 50  # left where it was read
    chat.shot("30_new_messages_pill")
    pill.click()
    assert at_bottom(chat.page) and pill.is_hidden()
