"""The assistant is told, in the per-turn block, which language the user reads Zeus in."""

import json

import pytest
from asgiref.sync import sync_to_async

from chat.turn import prompt
from tests.chat import factories as chat
from tests.chat.conftest import open_socket
from zeus.services import profile_update

pytestmark = pytest.mark.django_db(transaction=True)


async def test_the_turn_tells_the_model_the_users_language_after_the_cached_prefix(alice, alice_cookie, fake):
    thread = await sync_to_async(chat.thread)(alice)
    for language in ["en", "vi"]:
        # The language is changed on /settings; the chat page opened after it has a new socket.
        await sync_to_async(profile_update)(user=alice, language=language)
        socket, connected, _ = await open_socket(alice_cookie, thread.id)
        assert connected
        await socket.say("show my transactions")
        await socket.close()
    english, vietnamese = (r["body"]["system"] for r in fake.main_requests)
    assert "reads Zeus in English (en): reply in English" in english[1]["text"]
    assert "reads Zeus in Vietnamese (vi): reply in Vietnamese" in vietnamese[1]["text"]
    # The language lives in the per-turn block: the cached prefix is byte for byte the same.
    assert json.dumps(english[0]) == json.dumps(vietnamese[0])


def test_no_language_adds_nothing_to_the_per_turn_block():
    import datetime as dt

    blocks = prompt.system_blocks(today=dt.date(2026, 12, 1), currency="VND", timezone="Asia/Ho_Chi_Minh")
    assert "reads Zeus" not in blocks[1]["text"]
