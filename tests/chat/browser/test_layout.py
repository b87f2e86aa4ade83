"""Phone width and keyboard use."""

import pytest

from tests.chat.browser import scripts
from tests.chat.browser.conftest import PHONE
from tests.chat.browser.scripts import turn

pytestmark = pytest.mark.browser


def overflow(page):
    return page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")


def test_at_phone_width_nothing_overflows_and_the_threads_open_as_a_drawer(open_chat):
    chat = open_chat(viewport=PHONE)
    assert overflow(chat.page) <= 0
    assert chat.page.locator("#sidebar").is_hidden()
    composer = chat.page.locator("#composer").bounding_box()
    assert composer["y"] + composer["height"] <= PHONE["height"]
    chat.shot("23_phone_empty")

    chat.queue(
        turn(
            text="Here you go. " * 8,
            tools=["list_assets", "summarize_spending"],
            cards=[scripts.ASSET_SELECTOR, scripts.CHART, scripts.CONFIRM_DELETE],
        )
    )
    chat.say("KFC 150k")
    chat.idle()
    assert overflow(chat.page) <= 0
    chat.page.locator(".zcard-chart").scroll_into_view_if_needed()
    chat.shot("24_phone_cards")

    chat.page.click("#open-sidebar")
    chat.page.locator("#sidebar").wait_for()
    chat.page.wait_for_function("() => document.getElementById('sidebar').getBoundingClientRect().left === 0")
    assert chat.page.evaluate("() => document.activeElement.id") == "new-thread"
    chat.shot("25_phone_drawer")
    chat.page.keyboard.press("Escape")
    chat.page.locator("#sidebar").wait_for(state="hidden")
    assert chat.page.evaluate("() => document.activeElement.id") == "open-sidebar"

    chat.page.click("#bell")
    inbox = chat.page.locator("#inbox").bounding_box()
    assert inbox["x"] >= 0 and inbox["x"] + inbox["width"] <= PHONE["width"]
    chat.shot("26_phone_inbox")
    chat.page.keyboard.press("Escape")

    chat.emit({"type": "error", "code": "AI_PROVIDER_REQUIRED", "message": "Add a key."})
    chat.page.locator("#key-dialog").wait_for()
    dialog = chat.page.locator("#key-dialog").bounding_box()
    assert dialog["x"] >= 0 and dialog["x"] + dialog["width"] <= PHONE["width"]
    chat.shot("27_phone_key_dialog")


def test_the_page_works_from_the_keyboard(open_chat):
    chat = open_chat()
    chat.queue(turn(text="Pick one.", cards=[scripts.ASSET_SELECTOR]))
    chat.page.keyboard.type("KFC 150k")
    chat.page.keyboard.press("Enter")
    chat.idle()
    chat.page.locator(".zcard-asset-selector .option").first.focus()
    chat.page.keyboard.press("Tab")
    assert chat.page.evaluate("() => document.activeElement.dataset.assetId") == "31"
    chat.page.keyboard.press("Enter")
    [frame] = chat.wait_sent("ui_event")
    assert frame["payload"] == {"asset_id": 31}
    chat.idle()
    for control in chat.page.locator("#chat-app button:visible").all():
        assert control.evaluate("b => b.tagName") == "BUTTON"
    assert chat.page.locator("#messages").get_attribute("aria-live") == "polite"


def test_the_sidebars_amounts_are_whole_beside_long_descriptions(open_chat):
    chat = open_chat()
    chat.backend.transactions = [
        {"id": i, "amount": amount, "currency": "VND", "direction": "expense", "category": "dining",
         "description": "Thanh toán QR tại cửa hàng tiện lợi Circle K số 1234 Nguyễn Thị Minh Khai",
         "occurred_on": "2026-11-29"}
        for i, amount in enumerate(["65000", "15117000", "1250000000"], start=1)
    ]  # fmt: skip
    chat.page.reload()
    chat.wait_ready()
    chat.page.locator("#recent-panel").wait_for()
    clipped = chat.page.evaluate(
        """() => [...document.querySelectorAll('#recent-list .amount')].filter((a) => {
            const box = a.getBoundingClientRect(), panel = a.closest('#recent-panel').getBoundingClientRect();
            return a.scrollWidth > a.clientWidth + 1 || box.right > panel.right + 1 || box.left < panel.left;
        }).map((a) => a.textContent)"""
    )
    assert clipped == []
