import pytest

pytestmark = pytest.mark.browser


def test_smoke(open_chat):
    chat = open_chat()
    chat.shot("smoke")
    chat.say("Hello there")
    chat.page.wait_for_selector(".msg-assistant .md strong")
    chat.idle()
    chat.shot("smoke2")
    print(chat.sent())
