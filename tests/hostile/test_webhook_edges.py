"""The SePay webhook on what a red team sent it: each a 4xx with a code, nothing stored."""

import pytest
from django.test import Client

from assets.models import Transaction
from tests.assets.feeds.sepay import deliver, payload
from tests.assets.feeds.test_sepay import connect


@pytest.fixture
def webhook():
    return Client()


def _code(response) -> str:
    return response.json()["error"]["code"]


@pytest.mark.django_db
@pytest.mark.parametrize("auth", ["api_key", "hmac"])
def test_five_thousand_nested_brackets_are_a_400(alice_api, webhook, auth):
    connection = connect(alice_api, auth)
    for body in (b"[" * 5000, b'{"id":' * 5000, b'{"id": 1, "x": ' + b"[" * 5000 + b"]" * 5000 + b"}"):
        response = deliver(webhook, connection, body)
        assert response.status_code == 400, response.content[:200]
        assert _code(response) == "MALFORMED_JSON"
    assert not Transaction.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("auth", ["api_key", "hmac"])
def test_a_multipart_body_is_a_4xx(alice_api, webhook, auth):
    connection = connect(alice_api, auth)
    headers = {"HTTP_AUTHORIZATION": f"Apikey {connection['secret']}"} if auth == "api_key" else {}
    response = webhook.post(connection["webhook_url"], {"id": "1", "file": "x"}, **headers)
    assert 400 <= response.status_code < 500, response.content[:200]
    assert not Transaction.objects.exists()


@pytest.mark.django_db
def test_a_four_hundred_digit_timestamp_is_a_401(alice_api, webhook):
    connection = connect(alice_api, "hmac")
    for stamp in ("9" * 400, "-" + "9" * 400, "1e400", "٣٣", "nan", " "):
        response = deliver(webhook, connection, payload(), HTTP_X_SEPAY_TIMESTAMP=stamp)
        assert response.status_code == 401, (stamp, response.content[:200])
        assert _code(response) in ("INVALID_TIMESTAMP", "SIGNATURE_REQUIRED"), stamp
    assert not Transaction.objects.exists()


@pytest.mark.django_db
def test_a_ten_megabyte_body_is_payload_too_large(alice_api, webhook):
    connection = connect(alice_api)
    response = deliver(webhook, connection, b" " * (10 * 1024 * 1024))
    assert response.status_code == 413
    assert _code(response) == "PAYLOAD_TOO_LARGE"


@pytest.mark.django_db
def test_a_rest_body_over_the_limit_is_refused_before_it_is_read(alice_api, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = alice_api.post("/api/v1/goals", {"name": "x" * 2000}, format="json")
    assert response.status_code == 413
    assert _code(response) == "PAYLOAD_TOO_LARGE"
    for declared in ("x", "\u00b9", "-1", "9" * 20):
        response = alice_api.generic(
            "POST", "/api/v1/goals", "{}", content_type="application/json", CONTENT_LENGTH=declared
        )
        assert response.status_code == 413, declared
