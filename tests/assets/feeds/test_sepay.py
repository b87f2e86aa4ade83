import asyncio
import json
import time
from decimal import Decimal

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from assets.feeds.signing import sign
from assets.models import Asset, LinkedAccount, SepayConnection, Transaction
from assets.rules.services import rule_create
from tests import factories
from tests.assets.feeds.sepay import deliver, payload
from tests.assets.helpers import assert_error
from tests.race import at_once
from zeus.live import online_now, user_group
from zeus.models import Notification
from zeus.selectors import notification_to_dict


def api_for(user) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {factories.api_key(user)}")
    return api


def connect(api, auth="api_key", name=None) -> dict:
    response = api.post("/api/v1/integrations/sepay", {"auth": auth, **({"name": name} if name else {})}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


@pytest.fixture
def webhook(client):
    """The webhook is reached without a session or token: a fresh client, as SePay is."""
    return Client()


def test_connecting_shows_the_url_and_the_secret_once(alice_api):
    body = connect(alice_api, "hmac", "Shop")
    assert set(body) == {"id", "name", "auth", "webhook_url", "secret", "created_at"}
    assert body["webhook_url"].startswith("http://testserver/api/v1/integrations/sepay/webhook/")
    assert body["name"] == "Shop" and body["auth"] == "hmac" and len(body["secret"]) >= 32
    listed = alice_api.get("/api/v1/integrations/sepay").json()["results"]
    assert [c["id"] for c in listed] == [body["id"]]
    assert "secret" not in listed[0] and listed[0]["webhook_url"] == body["webhook_url"]
    assert body["secret"] not in json.dumps(listed)
    assert body["secret"] not in SepayConnection.objects.get().secret_encrypted


def test_the_webhook_url_uses_the_public_origin_when_set(alice_api, settings):
    settings.ZEUS_PUBLIC_URL = "https://zeus.example.com/"
    assert connect(alice_api)["webhook_url"].startswith("https://zeus.example.com/api/v1/integrations/sepay/webhook/")


def test_bad_connection_requests(alice_api, bob_api, anon_api):
    assert_error(alice_api.post("/api/v1/integrations/sepay", {"auth": "oauth"}, format="json"), 400)
    assert_error(anon_api.post("/api/v1/integrations/sepay", {"auth": "hmac"}, format="json"), 401)
    mine = connect(alice_api)
    assert_error(bob_api.delete(f"/api/v1/integrations/sepay/{mine['id']}"), 404)
    assert bob_api.get("/api/v1/integrations/sepay").json()["results"] == []


@pytest.mark.parametrize("auth", ["api_key", "hmac"])
def test_a_delivery_lands_one_synced_transaction_with_the_account_balance_and_category(alice, alice_api, webhook, auth):
    rule_create(user=alice, match="kfc", category="gifts")
    connection = connect(alice_api, auth)
    response = deliver(webhook, connection, payload())
    assert response.status_code == 200, response.content
    assert response.json() == {"success": True}
    txn = Transaction.objects.get(user=alice)
    assert (txn.external_id, txn.source, txn.direction, txn.amount) == ("sepay:92704", "synced", "expense", 150000)
    assert txn.category == "gifts" and txn.occurred_on.isoformat() == "2026-11-30"
    account = LinkedAccount.objects.get(user=alice)
    assert account.masked_number == "•••• 9999" and account.institution == "Vietcombank"
    assert account.balance == Decimal("19077000") and account.last_synced_at is not None
    assert txn.asset.linked_account_id == account.id and txn.asset.balance == Decimal("19077000")
    listed = alice_api.get("/api/v1/linked-accounts").json()["results"]
    assert listed[0]["masked_number"] == "•••• 9999" and "0123499999" not in json.dumps(listed)
    note = Notification.objects.get(user=alice)
    assert note.kind == "transaction_synced" and "150,000" in note.title
    # A synced row takes corrections (docs/ledger.md); its bank's facts stay read only.
    assert alice_api.patch(f"/api/v1/transactions/{txn.id}", {"category": "dining"}, format="json").status_code == 200
    assert alice_api.patch(f"/api/v1/transactions/{txn.id}", {"amount": "1"}, format="json").status_code == 409


def test_without_a_rule_the_merchant_dictionary_categorizes(alice, alice_api, webhook):
    deliver(webhook, connect(alice_api), payload(content="GRAB*FOOD 12345", description=None))
    assert Transaction.objects.get(user=alice).category == "dining"


def test_retries_store_nothing_twice_and_the_account_is_reused(alice, alice_api, webhook):
    connection = connect(alice_api)
    for _ in range(8):  # the first attempt and SePay's seven retries
        assert deliver(webhook, connection, payload()).json() == {"success": True}
    second = payload(id=92705, transferType="in", transferAmount=2277000, accumulated=21354000)
    assert deliver(webhook, connection, second).status_code == 200
    assert Transaction.objects.filter(user=alice).count() == 2
    assert LinkedAccount.objects.filter(user=alice).count() == 1
    assert Asset.objects.filter(user=alice).count() == 1
    assert Notification.objects.filter(user=alice).count() == 2
    assert LinkedAccount.objects.get(user=alice).balance == Decimal("21354000")


def test_an_older_delivery_arriving_late_does_not_roll_the_balance_back(alice, alice_api, webhook):
    connection = connect(alice_api)
    deliver(webhook, connection, payload(id=2, transactionDate="2026-11-30 15:00:00", accumulated=500))
    deliver(webhook, connection, payload(id=1, transactionDate="2026-11-30 09:00:00", accumulated=900))
    assert LinkedAccount.objects.get(user=alice).balance == Decimal("500")
    assert Transaction.objects.filter(user=alice).count() == 2


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"transferAmount": "150000"}, "transferAmount"),
        ({"transferAmount": -150000}, "transferAmount"),
        ({"transferAmount": 0}, "transferAmount"),
        ({"transferAmount": 10**13}, "transferAmount"),
        ({"transferAmount": 1500.5}, "transferAmount"),
        ({"transferAmount": True}, "transferAmount"),
        ({"transactionDate": "2099-01-01 00:00:00"}, "transactionDate"),
        ({"transactionDate": "30/11/2026 14:02"}, "transactionDate"),
        ({"transferType": "sideways"}, "transferType"),
        ({"id": "92704"}, "id"),
        ({"id": None}, "id"),
        ({"accountNumber": ""}, "accountNumber"),
        ({"accumulated": "19077000"}, "accumulated"),
        ({"content": "KFC\u0000"}, "content"),
        ({"gateway": 12}, "gateway"),
    ],
)
def test_a_malformed_payload_is_a_400_naming_the_field_and_stores_nothing(alice, alice_api, webhook, change, field):
    response = deliver(webhook, connect(alice_api, "hmac"), payload(**change))
    error = assert_error(response, 400, "INVALID_PAYLOAD")
    assert field in error["fields"]
    assert not Transaction.objects.exists() and not LinkedAccount.objects.exists()
    assert not Notification.objects.exists()


@pytest.mark.parametrize("body", [b"", b"not json", b"[1, 2]", b'{"id": NaN}', b"\xff\xfe"])
def test_a_body_that_is_not_a_json_object_is_a_400(alice_api, webhook, body):
    assert_error(deliver(webhook, connect(alice_api), body), 400)


def test_a_missing_field_is_named(alice_api, webhook):
    body = payload()
    del body["transferAmount"], body["transactionDate"]
    error = assert_error(deliver(webhook, connect(alice_api), body), 400, "INVALID_PAYLOAD")
    assert set(error["fields"]) == {"transferAmount", "transactionDate"}


def test_api_key_mistakes_are_401(alice_api, webhook):
    connection = connect(alice_api)
    assert_error(deliver(webhook, connection, payload(), secret="wrong"), 401, "INVALID_API_KEY")
    assert_error(deliver(webhook, connection, payload(), HTTP_AUTHORIZATION=""), 401, "API_KEY_REQUIRED")
    bearer = f"Bearer {connection['secret']}"
    assert_error(deliver(webhook, connection, payload(), HTTP_AUTHORIZATION=bearer), 401, "API_KEY_REQUIRED")
    assert not Transaction.objects.exists()


def test_hmac_mistakes_are_401(alice_api, webhook):
    connection = connect(alice_api, "hmac")
    assert_error(deliver(webhook, connection, payload(), secret="wrong"), 401, "INVALID_SIGNATURE")
    old = int(time.time()) - 301
    assert_error(deliver(webhook, connection, payload(), timestamp=old), 401, "TIMESTAMP_OUT_OF_RANGE")
    ahead = int(time.time()) + 400
    assert_error(deliver(webhook, connection, payload(), timestamp=ahead), 401, "TIMESTAMP_OUT_OF_RANGE")
    assert_error(deliver(webhook, connection, payload(), HTTP_X_SEPAY_SIGNATURE=""), 401, "SIGNATURE_REQUIRED")
    assert_error(deliver(webhook, connection, payload(), HTTP_X_SEPAY_TIMESTAMP="soon"), 401, "INVALID_TIMESTAMP")
    # A signature over another body: the payload was changed in transit.
    stamp = str(int(time.time()))
    forged = sign(connection["secret"], stamp, json.dumps(payload(transferAmount=1)).encode())
    tampered = deliver(webhook, connection, payload(), HTTP_X_SEPAY_TIMESTAMP=stamp, HTTP_X_SEPAY_SIGNATURE=forged)
    assert_error(tampered, 401, "INVALID_SIGNATURE")
    assert not Transaction.objects.exists()


def test_a_signature_within_five_minutes_is_accepted_without_its_prefix(alice_api, webhook):
    connection = connect(alice_api, "hmac")
    stamp = str(int(time.time()) - 290)
    raw = json.dumps(payload()).encode()
    bare = sign(connection["secret"], stamp, raw).removeprefix("sha256=")
    response = deliver(webhook, connection, raw, HTTP_X_SEPAY_TIMESTAMP=stamp, HTTP_X_SEPAY_SIGNATURE=bare)
    assert response.status_code == 200


def test_another_users_secret_does_not_open_this_url(alice_api, bob_api, webhook):
    alice = connect(alice_api)
    bob = connect(bob_api)
    assert_error(deliver(webhook, alice, payload(), secret=bob["secret"]), 401)
    assert not Transaction.objects.exists()


def test_a_deleted_connection_answers_401_and_keeps_what_it_imported(alice, alice_api, webhook):
    connection = connect(alice_api)
    deliver(webhook, connection, payload())
    assert alice_api.delete(f"/api/v1/integrations/sepay/{connection['id']}").status_code == 204
    assert_error(deliver(webhook, connection, payload(id=5)), 401, "UNKNOWN_CONNECTION")
    assert Transaction.objects.filter(user=alice).count() == 1
    assert LinkedAccount.objects.filter(user=alice).count() == 1


def test_only_post_is_allowed(alice_api, webhook):
    assert webhook.get(connect(alice_api)["webhook_url"]).status_code == 405


def test_two_users_with_the_same_bank_account_number_are_kept_apart(alice, bob, alice_api, bob_api, webhook):
    deliver(webhook, connect(alice_api), payload())
    deliver(webhook, connect(bob_api), payload())
    assert Transaction.objects.filter(user=alice).count() == 1
    assert Transaction.objects.filter(user=bob).count() == 1
    assert LinkedAccount.objects.filter(user=bob).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_deliveries_racing_on_two_connections_store_one_row():
    alice = factories.user("alice")
    connection = connect(api_for(alice), "hmac")
    raw = json.dumps(payload()).encode()
    answers = []

    def send():
        return deliver(Client(), connection, raw).status_code

    for _ in range(3):
        answers += at_once(send, send)
    assert answers == [200] * 6
    assert Transaction.objects.filter(user=alice).count() == 1
    assert LinkedAccount.objects.filter(user=alice).count() == 1
    assert Asset.objects.filter(user=alice).count() == 1
    assert Notification.objects.filter(user=alice).count() == 1


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_the_users_open_sockets_hear_of_it_after_commit():
    alice = factories.user("alice")
    connection = connect(api_for(alice))
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(user_group(alice.id), channel)
    try:
        assert deliver(Client(), connection, payload()).status_code == 200
        message = async_to_sync(asyncio.wait_for)(layer.receive(channel), 5)
    finally:
        async_to_sync(layer.group_discard)(user_group(alice.id), channel)
    assert message["type"] == "notification.push"
    assert message["notification"]["kind"] == "transaction_synced"


def test_the_answers_keep_their_order_when_the_body_is_read_first(alice_api, webhook):
    """An unknown URL is a 401 before a bad body is a 400, and a bad key before a bad body."""
    connection = connect(alice_api, "hmac")
    gone = {**connection, "webhook_url": connection["webhook_url"][:-4] + "nope"}
    assert_error(deliver(webhook, gone, b"not json"), 401, "UNKNOWN_CONNECTION")
    assert_error(deliver(webhook, connection, b"not json", secret="wrong"), 401, "INVALID_SIGNATURE")
    assert_error(deliver(webhook, connection, b"not json"), 400, "MALFORMED_JSON")


@pytest.mark.django_db(transaction=True)
def test_twin_deliveries_racing_into_a_known_account_store_one_row_each():
    """The one-statement path: the account exists, every id is delivered twice at the same moment."""
    alice = factories.user("alice")
    connection = connect(api_for(alice), "hmac")
    assert deliver(Client(), connection, payload(id=1, accumulated=100)).status_code == 200
    answers = []
    for n in range(2, 7):
        raw = json.dumps(payload(id=n, transactionDate=f"2026-11-30 15:0{n}:00", accumulated=100 * n)).encode()

        def send(raw=raw):
            return deliver(Client(), connection, raw).status_code

        answers += at_once(send, send)
    assert answers == [200] * 10
    assert Transaction.objects.filter(user=alice).count() == 6
    assert Notification.objects.filter(user=alice).count() == 6
    account = LinkedAccount.objects.get(user=alice)
    assert account.balance == Decimal("600")
    assert Asset.objects.get(user=alice, linked_account=account).balance == Decimal("600")


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_delivery_into_a_known_account_is_heard_at_once_and_nobody_listening_costs_no_push():
    alice = factories.user("alice")
    connection = connect(api_for(alice))
    assert deliver(Client(), connection, payload(id=1)).status_code == 200
    layer = get_channel_layer()
    assert online_now(layer, [alice.id]) == []
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(user_group(alice.id), channel)
    try:
        assert online_now(layer, [alice.id]) == [alice.id]
        assert deliver(Client(), connection, payload(id=2, transferAmount=99_000)).status_code == 200
        message = async_to_sync(asyncio.wait_for)(layer.receive(channel), 5)
    finally:
        async_to_sync(layer.group_discard)(user_group(alice.id), channel)
    assert message["type"] == "notification.push"
    notification = Notification.objects.get(user=alice, dedupe_key="synced:sepay:2")
    with translation.override("en"):  # the push is worded in its reader's language, and alice reads English
        assert message["notification"] == notification_to_dict(notification)


def test_an_account_deleted_between_the_read_and_the_landing_is_made_again(alice, alice_api, webhook):
    from django.utils import timezone

    from assets.feeds.payload import parse_payload
    from assets.feeds.selectors import sepay_delivery_context
    from assets.feeds.services import sepay_delivery_land

    connection = connect(alice_api)
    deliver(webhook, connection, payload(id=1))
    delivery = parse_payload(payload(id=2), now=timezone.now())
    token = connection["webhook_url"].rstrip("/").rsplit("/", 1)[1]
    context = sepay_delivery_context(token=token)
    LinkedAccount.objects.filter(user=alice).delete()
    assert sepay_delivery_land(context=context, delivery=delivery).created
    assert Transaction.objects.filter(user=alice, external_id="sepay:2").exists()
    assert LinkedAccount.objects.filter(user=alice).count() == 1
