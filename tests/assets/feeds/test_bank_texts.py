import datetime as dt
import json

import pytest
from django.test import Client

from assets.models import BankTextDraft, Transaction
from assets.rules.services import rule_create
from tests import factories
from tests.assets.feeds.sepay import deliver, payload
from tests.assets.helpers import assert_error
from tests.chat.fake_anthropic import FakeAnthropic, text

KFC = "TK 0123xxx789 -150,000VND 01/12 10:15 SD 2,345,000VND ND: KFC NGUYEN HUE"


@pytest.fixture
def model(settings):
    with FakeAnthropic() as server:
        settings.ANTHROPIC_BASE_URL = server.url
        settings.ANTHROPIC_API_KEY = "sk-test-server"
        yield server


@pytest.fixture
def no_model(settings):
    settings.ANTHROPIC_API_KEY = ""


def post(api, body):
    return api.post("/api/v1/bank-texts", {"text": body}, format="json")


@pytest.mark.django_db
def test_a_known_text_becomes_a_draft_and_nothing_enters_the_ledger(alice, alice_api, no_model):
    response = post(alice_api, KFC)
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "draft" and body["parsed_by"] == "rule" and body["bank"] == "MB"
    assert (body["amount"], body["currency"], body["direction"]) == ("150000", "VND", "expense")
    assert body["description"] == "KFC NGUYEN HUE" and body["category"] == "dining"
    assert body["account_mask"] == "•••• x789" and body["balance_after"] == "2345000"
    assert body["asset"] is None and body["duplicate_of"] is None
    assert body["occurred_at"].endswith("+07:00") or "T03:15" in body["occurred_at"]
    assert not Transaction.objects.exists()


@pytest.mark.django_db
def test_confirming_creates_one_transaction_with_corrections(alice, alice_api, no_model):
    rule_create(user=alice, match="kfc", category="gifts")
    draft = post(alice_api, KFC).json()
    assert draft["category"] == "gifts"
    confirmed = alice_api.post(
        f"/api/v1/bank-texts/{draft['id']}/confirm", {"amount": "155000", "description": "KFC lunch"}, format="json"
    )
    assert confirmed.status_code == 201, confirmed.content
    txn = confirmed.json()
    assert (txn["amount"], txn["description"], txn["category"], txn["source"]) == (
        "155000",
        "KFC lunch",
        "gifts",
        "manual",
    )
    assert Transaction.objects.filter(user=alice).count() == 1
    again = alice_api.post(f"/api/v1/bank-texts/{draft['id']}/confirm", {}, format="json")
    assert_error(again, 409, "DRAFT_CLOSED")
    assert_error(alice_api.post(f"/api/v1/bank-texts/{draft['id']}/discard"), 409, "DRAFT_CLOSED")
    assert Transaction.objects.filter(user=alice).count() == 1


@pytest.mark.django_db
def test_discarding_saves_nothing(alice_api, no_model):
    draft = post(alice_api, KFC).json()
    response = alice_api.post(f"/api/v1/bank-texts/{draft['id']}/discard")
    assert response.status_code == 200 and response.json() == {"id": draft["id"], "status": "discarded"}
    assert_error(alice_api.post(f"/api/v1/bank-texts/{draft['id']}/confirm", {}, format="json"), 409)
    assert not Transaction.objects.exists()


@pytest.mark.django_db
def test_another_users_draft_is_not_found(alice_api, bob_api, no_model):
    draft = post(alice_api, KFC).json()
    assert_error(bob_api.post(f"/api/v1/bank-texts/{draft['id']}/confirm", {}, format="json"), 404)
    assert_error(bob_api.post(f"/api/v1/bank-texts/{draft['id']}/discard"), 404)
    assert_error(bob_api.get(f"/api/v1/bank-texts/{draft['id']}"), 404)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "status"),
    [({"text": ""}, 400), ({"text": "x" * 1001}, 400), ({"text": "a\u0000b"}, 400), ({}, 400), ({"text": 5}, 400)],
)
def test_bad_text_is_a_400(alice_api, no_model, body, status):
    assert_error(alice_api.post("/api/v1/bank-texts", body, format="json"), status)
    assert not BankTextDraft.objects.exists()


@pytest.mark.django_db
def test_a_bad_correction_is_refused_and_the_draft_stays_open(alice_api, no_model):
    draft = post(alice_api, KFC).json()
    bad = alice_api.post(f"/api/v1/bank-texts/{draft['id']}/confirm", {"category": "salary"}, format="json")
    assert_error(bad, 400)
    assert BankTextDraft.objects.get().status == "draft" and not Transaction.objects.exists()


@pytest.mark.django_db
def test_an_unknown_format_without_a_model_is_a_422(alice_api, no_model):
    assert_error(post(alice_api, "hello, how are you"), 422, "BANK_TEXT_UNREADABLE")
    assert not BankTextDraft.objects.exists()


@pytest.mark.django_db
def test_an_unknown_format_goes_to_the_model_with_only_the_raw_text(alice, alice_api, model):
    factories.txn(alice, description="SECRET LEDGER ROW")
    odd = "[Sacombank] Bien dong 1,200,000 VND (ra) 30/11/2026 10:14. TK 050109499355. LOTTE MART"
    model.script(
        text(
            json.dumps(
                {
                    "amount": 1200000,
                    "currency": "VND",
                    "direction": "expense",
                    "occurred_at": "2026-11-30T10:14:00",
                    "description": "LOTTE MART",
                    "account_mask": "050109499355",
                    "balance_after": 414546016,
                    "bank": "Sacombank",
                }
            )
        )
    )
    response = post(alice_api, odd)
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["parsed_by"], body["amount"], body["category"], body["account_mask"]) == (
        "model",
        "1200000",
        "groceries",
        "•••• 9355",
    )
    [request] = model.model_requests
    sent = request["body"]
    assert sent["messages"] == [{"role": "user", "content": odd}]
    assert "SECRET" not in json.dumps(sent) and "alice" not in json.dumps(sent)
    assert "temperature" not in sent and "tool_choice" not in sent


@pytest.mark.django_db
@pytest.mark.parametrize(
    "answer",
    [
        '{"unreadable": true}',
        "I cannot tell.",
        '{"amount": -5, "currency": "VND", "direction": "expense"}',
        '{"amount": 5, "currency": "XYZ", "direction": "expense"}',
        '{"amount": 5, "currency": "VND", "direction": "sideways"}',
        '{"amount": 5, "currency": "VND", "direction": "income", "occurred_at": "2099-01-01T00:00:00"}',
        "{" * 50_000,  # `\{.*\}` retried from every brace, to the end each time: seconds before
        '{"amount": ' + "[" * 100_000 + "}",  # the parser's recursion: a RecursionError before, not a ValueError
    ],
)
def test_a_model_answer_that_is_not_a_transaction_is_a_422(alice_api, model, answer):
    model.script(text(answer))
    assert_error(post(alice_api, "some text no parser knows at all"), 422, "BANK_TEXT_UNREADABLE")
    assert not BankTextDraft.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "refused",
    [
        "Ma OTP cua tai khoan 23423435 la 400050",
        "Vietcombank: Uu dai hoan tien 20% toi da 100,000VND khi thanh toan QR tai Circle K",
        "MoMo: Giao dich thanh toan 150.000d cho KFC khong thanh cong. So du vi khong thay doi.",
        ("TK 1234 +1,000VND SD 5,000VND ND: x. " * 27)[:1000],
    ],
    ids=["otp", "promotion", "failed-payment", "noise"],
)
def test_an_otp_a_promotion_a_failed_payment_or_noise_never_reaches_the_model(alice_api, model, refused):
    model.script(text(json.dumps({"amount": 100000, "currency": "VND", "direction": "income"})))
    assert_error(post(alice_api, refused), 422, "BANK_TEXT_UNREADABLE")
    assert not BankTextDraft.objects.exists()
    assert model.model_requests == []


def _connect(api):
    return api.post("/api/v1/integrations/sepay", {"auth": "api_key"}, format="json").json()


FED = "TK 0123499999 -150,000VND 30/11 14:02 SD 19,077,000VND ND: KFC NGUYEN HUE thanh toan"


@pytest.mark.django_db
def test_a_draft_of_a_payment_the_feed_already_delivered_says_so(alice, alice_api, no_model):
    deliver(Client(), _connect(alice_api), payload())
    fed = Transaction.objects.get(user=alice)
    body = post(alice_api, FED).json()
    assert body["duplicate_of"] == fed.id
    assert body["linked_account"] is not None and body["asset"] == fed.asset_id
    refused = alice_api.post(f"/api/v1/bank-texts/{body['id']}/confirm", {}, format="json")
    assert_error(refused, 409, "DRAFT_DUPLICATE")
    assert Transaction.objects.filter(user=alice).count() == 1
    forced = alice_api.post(f"/api/v1/bank-texts/{body['id']}/confirm", {"save_anyway": True}, format="json")
    assert forced.status_code == 201


@pytest.mark.django_db
def test_a_statement_row_is_a_duplicate_too(alice, alice_api, no_model):
    factories.txn(alice, amount="150000", source="synced", external_id="ofx:1", occurred_on=dt.date(2026, 12, 1))
    assert post(alice_api, KFC).json()["duplicate_of"] is not None


@pytest.mark.django_db
def test_a_later_feed_delivery_of_a_confirmed_draft_is_matched_not_doubled(alice, alice_api, no_model):
    connection = _connect(alice_api)
    # The account is known from an earlier delivery; then the SMS of a new payment arrives first.
    deliver(Client(), connection, payload(id=1, transferAmount=10000, transactionDate="2026-11-29 08:00:00"))
    text_first = "TK 0123499999 -99,000VND 30/11 18:00 SD 18,978,000VND ND: CGV Vincom"
    draft = post(alice_api, text_first).json()
    assert draft["duplicate_of"] is None and draft["linked_account"] is not None
    confirmed = alice_api.post(f"/api/v1/bank-texts/{draft['id']}/confirm", {}, format="json").json()
    response = deliver(
        Client(),
        connection,
        payload(id=2, transferAmount=99000, content="CGV Vincom", transactionDate="2026-11-30 18:00:05"),
    )
    assert response.status_code == 200
    assert Transaction.objects.filter(user=alice).count() == 2
    matched = Transaction.objects.get(id=confirmed["id"])
    assert (matched.external_id, matched.source) == ("sepay:2", "synced")
    # SePay's retry of the same delivery still changes nothing.
    deliver(Client(), connection, payload(id=2, transferAmount=99000, transactionDate="2026-11-30 18:00:05"))
    assert Transaction.objects.filter(user=alice).count() == 2


@pytest.mark.django_db
@pytest.mark.parametrize(("sender", "bank"), [(None, "Techcombank"), ("VPBank", "VPBank"), ("", "Techcombank")])
def test_the_sms_sender_names_the_bank_a_shared_layout_cannot(alice_api, no_model, sender, bank):
    body = {"text": "TK 203344556 +4,000,000VND luc 02/12/2026 10:01. So du 6,500,000VND. ND: NGUYEN VAN M gui tien"}
    if sender is not None:
        body["sender"] = sender
    response = alice_api.post("/api/v1/bank-texts", body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["bank"] == bank and response.json()["amount"] == "4000000"


@pytest.mark.django_db
@pytest.mark.parametrize("sender", [5, "x" * 51, "VP\x00Bank"], ids=["number", "too-long", "nul"])
def test_a_bad_sender_is_a_400_and_no_draft(alice_api, no_model, sender):
    response = alice_api.post("/api/v1/bank-texts", {"text": KFC, "sender": sender}, format="json")
    assert_error(response, 400)
    assert not BankTextDraft.objects.exists()
