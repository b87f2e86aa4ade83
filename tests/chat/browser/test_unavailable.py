"""A socket closed with 4503 (PostgreSQL or Redis down, docs/security.md): the page says it is reconnecting,
distinct from a dropped connection or being logged out, and comes back by itself."""

import pytest

pytestmark = pytest.mark.browser

# Every connection attempt while "down" is accepted and closed with 4503, as the server does.
UNAVAILABLE = """() => {
  const proto = window.WebSocket.prototype;
  window.__closeAs = window.__closeAs || proto._close;
  proto._close = function (code) { return window.__closeAs.call(this, code === 1006 ? 4503 : code); };
  window.__fake.refuseConnections = true;
  window.__fake.current()._close(4503);
}"""


def test_a_4503_close_says_reconnecting_and_recovers(open_chat):
    chat = open_chat()
    chat.page.evaluate(UNAVAILABLE)
    banner = chat.page.locator("#banner")
    banner.wait_for()
    assert "briefly unavailable" in banner.inner_text()
    assert "Reconnecting" in banner.inner_text()
    assert chat.page.locator("#conn-status").inner_text() == "Reconnecting…"
    chat.page.wait_for_function("() => window.__fake.connects >= 3")
    assert "/chat" in chat.page.url  # still on the chat, not sent to log in

    chat.page.evaluate("() => { window.__fake.refuseConnections = false; }")
    chat.page.wait_for_function("() => window.__fake.current() !== null", timeout=10000)
    banner.wait_for(state="hidden")
    chat.say("Back?")
    chat.idle()
    assert "You said" in chat.page.locator(".msg-assistant").last.inner_text()
