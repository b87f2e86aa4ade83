"""A pasted bank text in the chat: routed by pattern (no router model call), read into a draft whose card
the turn sends, and saved by the card's draft_decision."""

import pytest
from asgiref.sync import sync_to_async

from assets.models import BankTextDraft, Transaction
from tests.chat import fake_anthropic as model
from tests.chat.harness import new_chat

pytestmark = pytest.mark.django_db(transaction=True)

KFC = "TK 0123xxx789 -150,000VND 01/12 10:15 SD 2,345,000VND ND: KFC NGUYEN HUE"


async def test_a_pasted_bank_text_yields_a_draft_card_and_the_card_saves_it(alice, fake):
    _thread, talk = await new_chat(alice)
    fake.script(model.tools(("read_bank_text", {"text": KFC})), model.text("Save this KFC payment?"))
    frames = await talk.say(KFC)
    done = frames[-1]
    assert done["type"] == "done" and done["workflow"] == "bank_text"
    assert done["message"]["metadata"]["decided_by"] == "pattern"
    assert not [r for r in fake.model_requests if r["body"]["model"] == fake.router_model]
    specs = [f["spec"] for f in frames if f["type"] == "spec"]
    assert [s["kind"] for s in specs] == ["transaction_draft"]
    draft_id = specs[0]["draft_id"]
    assert await sync_to_async(Transaction.objects.count)() == 0

    fake.script(
        model.tools(("decide_bank_text_draft", {"draft_id": draft_id, "decision": "save"})), model.text("Saved.")
    )
    frames = await talk.event("draft_decision", {"draft_id": draft_id, "decision": "save"})
    assert frames[-1]["type"] == "done", frames[-1]
    assert frames[-1]["workflow"] == "bank_text"
    assert await sync_to_async(Transaction.objects.count)() == 1
    draft = await sync_to_async(BankTextDraft.objects.get)(id=draft_id)
    assert draft.status == "confirmed"
    await talk.close()
