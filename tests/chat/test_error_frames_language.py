"""An error frame's `message` is in the user's language (their profile's, read when the socket opens), so a
websocket client that shows it needs no table of its own; the code and the frame's shape are the contract's
(docs/contract/websocket.md), the same in every language."""

import pytest
from asgiref.sync import sync_to_async

from tests.chat import factories as chat
from tests.chat import fake_anthropic as model
from tests.chat.conftest import open_socket
from zeus.services import profile_update

pytestmark = pytest.mark.django_db(transaction=True)

GOAL_FORM = {
    "intent": "create_goal",
    "values": {"name": "Nhà", "kind": "savings", "target_amount": "lots", "deadline": "2030-01-01"},
}
CASES = [
    ("not json", "BAD_FRAME", "A frame is a JSON object.", "Mỗi khung"),
    ({"type": "dance"}, "BAD_FRAME", "Unknown frame type.", "Loại khung"),
    ({"type": "user_message", "id": "a", "text": "x" * 4001}, "MESSAGE_TOO_LONG", "at most 4,000", "tối đa 4.000"),
    (
        {"type": "ui_event", "id": "a", "event": "form_submit", "payload": GOAL_FORM},
        "BAD_FRAME",
        "target_amount is not an amount; try 150000",
        "target_amount không phải là số tiền",
    ),
]


async def _socket(user, cookie, language):
    await sync_to_async(profile_update)(user=user, language=language)
    thread = await sync_to_async(chat.thread)(user)
    socket, connected, _ = await open_socket(cookie, thread.id)
    assert connected
    return socket


@pytest.mark.parametrize(("frame", "code", "english", "vietnamese"), CASES)
async def test_a_refused_frame_is_explained_in_the_users_language(
    alice, alice_cookie, fake, frame, code, english, vietnamese
):
    for language, words in (("en", english), ("vi", vietnamese)):
        socket = await _socket(alice, alice_cookie, language)
        await socket.send(frame)
        error = await socket.receive()
        assert set(error) == {"type", "code", "message"}
        assert (error["type"], error["code"]) == ("error", code)
        assert words in error["message"], (language, error["message"])
        await socket.close()


async def test_a_turns_error_is_in_the_users_language(alice, alice_cookie, fake, settings):
    said = {}
    for language in ("en", "vi"):
        socket = await _socket(alice, alice_cookie, language)
        fake.script(model.text("one two three", error_after_tokens=1, error_type="overloaded_error"))
        failed = (await socket.say("show my transactions"))[-1]
        assert (failed["type"], failed["code"]) == ("error", "PROVIDER_UNAVAILABLE")
        said[language] = failed["message"]
        await socket.close()
    assert said["en"] == "The AI provider is unavailable; try again."
    assert said["vi"] == "Nhà cung cấp AI đang không phục vụ được; hãy thử lại."


async def test_no_key_is_said_in_the_users_language(alice, alice_cookie, fake, settings):
    settings.ANTHROPIC_API_KEY = ""
    socket = await _socket(alice, alice_cookie, "vi")
    refused = (await socket.say("show my transactions"))[-1]
    assert refused["code"] == "AI_PROVIDER_REQUIRED"
    assert refused["message"] == "Hãy thêm khóa API Anthropic trong phần cài đặt trò chuyện."
    await socket.close()
