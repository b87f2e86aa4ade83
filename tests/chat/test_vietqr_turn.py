"""A VietQR payload pasted into the chat: routed by pattern to the bank-text workflow (no router model call),
decoded into a draft transfer whose card the turn sends, saved only when the user decides on the card."""

from decimal import Decimal

import pytest
from asgiref.sync import sync_to_async

from assets.models import BankTextDraft, Transaction
from assets.vietqr import payload as vq
from tests.chat import fake_anthropic as model
from tests.chat.harness import new_chat

pytestmark = pytest.mark.django_db(transaction=True)

QR = vq.encode(vq.VietQR(bank_bin="970422", account="0901234567", amount=Decimal(350000), purpose="AN TRUA NHOM"))


async def test_a_pasted_vietqr_yields_a_transfer_draft_and_the_card_saves_it(alice, fake):
    _thread, talk = await new_chat(alice)
    fake.script(model.tools(("read_bank_text", {"text": QR})), model.text("Pay 350,000 ₫ to MBBank 0901234567?"))
    frames = await talk.say(QR)
    done = frames[-1]
    assert done["type"] == "done" and done["workflow"] == "bank_text"
    assert done["message"]["metadata"]["decided_by"] == "pattern"
    assert not [r for r in fake.model_requests if r["body"]["model"] == fake.router_model]
    (spec,) = [f["spec"] for f in frames if f["type"] == "spec"]
    assert (spec["kind"], spec["amount"], spec["direction"], spec["parsed_by"]) == (
        "transaction_draft",
        "350000",
        "expense",
        "vietqr",
    )
    assert {"label": "To", "value": "MBBank 0901234567"} in spec["items"]
    assert spec["description"] == "AN TRUA NHOM · MBBank 0901234567"
    assert await sync_to_async(Transaction.objects.count)() == 0

    draft_id = spec["draft_id"]
    fake.script(
        model.tools(("decide_bank_text_draft", {"draft_id": draft_id, "decision": "save"})), model.text("Saved.")
    )
    frames = await talk.event("draft_decision", {"draft_id": draft_id, "decision": "save"})
    assert frames[-1]["type"] == "done", frames[-1]
    row = await sync_to_async(Transaction.objects.get)(user=alice)
    assert (row.amount, row.direction) == (Decimal(350000), "expense")
    assert (await sync_to_async(BankTextDraft.objects.get)(id=draft_id)).status == "confirmed"
    await talk.close()


async def test_a_damaged_vietqr_gives_the_model_the_error_and_no_draft(alice, fake):
    _thread, talk = await new_chat(alice)
    damaged = QR[:-4] + ("0000" if QR[-4:] != "0000" else "FFFF")
    fake.script(model.tools(("read_bank_text", {"text": damaged})), model.text("That QR is damaged."))
    frames = await talk.say(damaged)
    assert frames[-1]["type"] == "done" and frames[-1]["workflow"] == "bank_text"
    results = [
        block
        for request in fake.model_requests
        for message in request["body"]["messages"]
        if isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    ]
    assert results and results[-1].get("is_error") is True and "BAD_CHECKSUM" in str(results[-1]["content"])
    assert not await sync_to_async(BankTextDraft.objects.exists)()
    await talk.close()
