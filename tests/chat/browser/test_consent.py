"""The consent panel on /chat (zeus/consent.py) and the "What was sent to the model?" disclosure under a reply."""

import pytest

from tests import factories
from tests.chat.browser.scripts import assistant, turn
from zeus.models import ModelConsent

pytestmark = pytest.mark.browser

HOSTILE = "<img src=x onerror=window.__pwned=1> Phở Hòa"


def test_the_panel_asks_first_and_agreeing_retries_the_refused_message(open_chat):
    carol = factories.user("carol", consent=False)
    chat = open_chat(user=carol)
    panel = chat.page.locator("#consent-panel")
    assert panel.is_visible() and "Anthropic" in panel.inner_text()
    chat.shot("consent_01_asked")

    # A message sent anyway is refused by the server; the panel stays, the refusal is said in place.
    chat.queue([{"type": "error", "code": "CONSENT_REQUIRED", "message": "Consent needed."}])
    chat.say("How much did I spend?")
    chat.page.locator(".msg.failed").wait_for()
    assert "consent" in chat.page.locator(".msg.failed").inner_text()

    chat.queue(turn(text="You spent 1,250,000 ₫."))
    panel.get_by_role("button", name="I agree").click()
    panel.wait_for(state="hidden")
    # The refused message goes again, under a fresh id, and is answered.
    first, again = chat.wait_sent("user_message", 2)
    assert again["text"] == first["text"] and again["id"] != first["id"]
    chat.idle()
    assert ModelConsent.objects.get(user=carol).granted is True

    # Reopened, the page no longer asks.
    chat.open()
    assert chat.page.locator("#consent-panel").is_hidden()


def test_declining_keeps_the_assistant_off_and_says_so(open_chat):
    carol = factories.user("carol", consent=False)
    chat = open_chat(user=carol)
    panel = chat.page.locator("#consent-panel")
    panel.get_by_role("button", name="Decline").click()
    chat.page.locator(".consent-status", has_text="assistant stays off").wait_for()
    assert panel.is_visible()
    assert ModelConsent.objects.get(user=carol).granted is False


def test_a_reply_shows_what_was_sent_for_it_as_text(open_chat):
    chat = open_chat()
    reply = assistant("You spent 85,000 ₫.", metadata={"workflow": "inspect", "model": "m", "sent_to_model": True})
    chat.backend.sent[reply["id"]] = {
        "message_id": reply["id"],
        "sent_at": reply["created_at"],
        "model": "m",
        "facts": "The user's currency is VND.",
        "router": None,
        "omitted_messages": 0,
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "show my transactions"}]},
            {"role": "assistant", "content": [{"type": "tool_use", "name": "list_transactions", "input": {}}]},
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "name": "list_transactions",
                        "output": {"transactions": [{"description": HOSTILE}]},
                        "is_error": False,
                    }
                ],
            },
        ],
    }
    frames = [f for f in turn(text="You spent 85,000 ₫.") if f.get("type") != "done"]
    frames.append({"type": "done", "message": reply, "tools_used": [], "workflow": "inspect"})
    chat.queue(frames)
    chat.say("show my transactions")
    chat.idle()
    disclosure = chat.page.locator(".msg-assistant .sent-disclosure").last
    disclosure.locator("summary", has_text="What was sent to the model?").click()
    body = disclosure.locator(".sent-body")
    body.locator("pre", has_text="Phở Hòa").wait_for()
    assert "list_transactions" in body.inner_text() and "The user's currency is VND." in body.inner_text()
    assert HOSTILE in body.locator("pre").last.inner_text()
    assert body.locator("img").count() == 0 and chat.page.evaluate("() => window.__pwned") is None
    link = body.get_by_role("link", name="Open as a page")
    assert link.get_attribute("href").endswith(f"/messages/{reply['id']}/sent")
    chat.shot("sent_01_disclosure")
