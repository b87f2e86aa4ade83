"""SePay deliveries as SePay sends them (the documented payload, signed as SePay signs), for the tests."""

import json
import time

from assets.feeds.signing import sign


def payload(**overrides) -> dict:
    body = {
        "id": 92704,
        "gateway": "Vietcombank",
        "transactionDate": "2026-11-30 14:02:37",
        "accountNumber": "0123499999",
        "subAccount": None,
        "code": None,
        "content": "KFC NGUYEN HUE thanh toan",
        "transferType": "out",
        "transferAmount": 150000,
        "accumulated": 19077000,
        "referenceCode": "MBVCB.3278907687",
        "description": "BankAPINotify KFC NGUYEN HUE thanh toan",
    }
    body.update(overrides)
    return body


def deliver(client, connection: dict, body, *, secret: str | None = None, timestamp: int | None = None, **headers):
    """POSTs to the connection's webhook URL, authenticated the connection's way with `secret`."""
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    secret = secret if secret is not None else connection["secret"]
    if connection["auth"] == "hmac":
        stamp = str(int(time.time()) if timestamp is None else timestamp)
        headers.setdefault("HTTP_X_SEPAY_TIMESTAMP", stamp)
        headers.setdefault("HTTP_X_SEPAY_SIGNATURE", sign(secret, stamp, raw))
    else:
        headers.setdefault("HTTP_AUTHORIZATION", f"Apikey {secret}")
    return client.post(connection["webhook_url"], raw, content_type="application/json", **headers)
