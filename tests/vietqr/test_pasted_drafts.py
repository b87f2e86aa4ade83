"""A VietQR payload pasted (REST bank texts, /share) becomes a draft transfer to the account it names, for its
amount and purpose, that enters the ledger only when the user confirms it; a bad payload is a 4xx, no draft."""

from decimal import Decimal

import pytest

from assets.banktexts.parsers import looks_like_bank_text
from assets.models import BankTextDraft, Transaction
from assets.vietqr import payload as vq
from tests import factories
from tests.assets.helpers import assert_error

pytestmark = pytest.mark.django_db

RENT = vq.encode(vq.VietQR(bank_bin="970436", account="0071000124821", amount=Decimal(6500000), purpose="TIEN NHA T12"))
STATIC = vq.encode(vq.VietQR(bank_bin="970415", account="113366668888"))


def with_crc(body: str) -> str:
    return body + vq.crc16(body)


def test_the_payloads_look_like_what_they_are():
    assert looks_like_bank_text(RENT) and looks_like_bank_text(f"  {RENT}\n")
    assert not looks_like_bank_text("000201 what is this?")


def test_a_pasted_vietqr_is_a_draft_expense_to_its_account_confirmed_by_the_user(alice_api, alice):
    created = alice_api.post("/api/v1/bank-texts", {"text": RENT}, format="json")
    assert created.status_code == 201, created.content
    draft = created.json()
    assert (draft["parsed_by"], draft["direction"], draft["amount"], draft["currency"]) == (
        "vietqr",
        "expense",
        "6500000",
        "VND",
    )
    assert draft["description"] == "TIEN NHA T12 · Vietcombank 0071000124821"
    assert draft["bank"] == "Vietcombank" and draft["asset"] is None
    assert not Transaction.objects.exists()

    bank = factories.asset(alice, name="Techcombank", kind="bank_account", balance="20000000")
    confirmed = alice_api.post(f"/api/v1/bank-texts/{draft['id']}/confirm", {"asset": bank.id}, format="json")
    assert confirmed.status_code in (200, 201), confirmed.content
    row = Transaction.objects.get(user=alice)
    assert (row.amount, row.direction, row.asset_id) == (Decimal(6500000), "expense", bank.id)
    assert row.description == "TIEN NHA T12 · Vietcombank 0071000124821"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (RENT[:-4] + ("0000" if RENT[-4:] != "0000" else "FFFF"), "BAD_CHECKSUM"),
        (with_crc(RENT[:-4].replace("970436", "999999")), "UNKNOWN_BANK"),
        (STATIC, "VIETQR_NO_AMOUNT"),
    ],
)
def test_a_bad_vietqr_is_a_400_and_no_draft(alice_api, text, code):
    assert_error(alice_api.post("/api/v1/bank-texts", {"text": text}, format="json"), 400, code)
    assert not BankTextDraft.objects.exists()


def test_a_vietqr_shared_to_zeus_opens_its_draft(alice, client):
    client.force_login(alice)
    response = client.post("/share", {"text": RENT})
    assert response.status_code == 302
    draft = BankTextDraft.objects.get(user=alice)
    assert response["Location"] == f"/share/{draft.id}"
    page = client.get(response["Location"]).content.decode()
    assert "TIEN NHA T12" in page and "Vietcombank" in page
    bad = client.post("/share", {"text": RENT[:-4] + "0000"})
    assert bad.status_code == 400 and "checksum" in bad.content.decode().lower()


@pytest.mark.parametrize("amount", ["9E+99", "1E-5", "120000.5"])
def test_a_vietqr_whose_amount_is_no_whole_dong_is_a_400_and_no_draft(alice_api, amount):
    from tests.vietqr.test_payload import with_amount

    assert_error(alice_api.post("/api/v1/bank-texts", {"text": with_amount(amount)}, format="json"), 400, "BAD_AMOUNT")
    assert not BankTextDraft.objects.exists()
