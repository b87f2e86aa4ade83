"""Casso's webhook (v2) and transactions API records, read and checked. Pure: no ORM, the clock comes in.

A v2 delivery is `{"error": 0, "data": {"id", "reference", "description", "amount" (negative for money
out), "runningBalance", "transactionDateTime" ("YYYY-MM-DD HH:MM:SS", Vietnam time), "accountNumber",
"bankName", "bankAbbreviation", "virtualAccountNumber", "counterAccountName", …}}`, signed in the header
`X-Casso-Signature: t=<unix ms>,v1=<hex>`: the HMAC-SHA512, keyed by the connection's secret, of
`<t>.<the body as JSON with every object's keys sorted, no spaces>`. A signature more than five minutes
from our clock is refused, so a captured delivery cannot be replayed later.

The transactions API (`GET /v2/transactions`) gives the same payments as records with `id`, `tid`,
`description`, `amount`, `cusumBalance`, `when`, `bankSubAccId`, `corresponsiveName`…; the record's `id` is
the webhook's `data.id`, so a payment pulled after its webhook lands once."""

import datetime as dt
import hashlib
import hmac
import json
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from assets.feeds.payload import MAX_BALANCE, MAX_BODY_BYTES, MAX_TRANSFER, SEPAY_TZ, InvalidPayload
from assets.feeds.signing import MAX_SKEW_SECONDS, Unauthorized

CASSO_TZ = SEPAY_TZ


@dataclass(frozen=True)
class CassoTransaction:
    casso_id: str
    bank: str
    account_number: str
    occurred_at: dt.datetime
    direction: str
    amount: Decimal
    balance: Decimal | None
    description: str

    @property
    def external_id(self) -> str:
        return f"casso:{self.casso_id}"


def _sorted(value):
    if isinstance(value, dict):
        return {key: _sorted(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_sorted(item) for item in value]
    return value


def canonical(data) -> bytes:
    return json.dumps(_sorted(data), separators=(",", ":"), ensure_ascii=False).encode()


def sign(secret: str, timestamp: int | str, data) -> str:
    """The X-Casso-Signature header for a body (what Casso sends; the tests sign with it)."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + canonical(data), hashlib.sha512).hexdigest()
    return f"t={timestamp},v1={digest}"


def check_signature(secret: str, header: str, data, *, now: float) -> None:
    parts = dict(part.strip().split("=", 1) for part in (header or "").split(",") if "=" in part)
    if not parts.get("t") or not parts.get("v1"):
        raise Unauthorized("SIGNATURE_REQUIRED", "Send X-Casso-Signature: t=<timestamp>,v1=<signature>.")
    try:
        sent_at = int(parts["t"]) / 1000
    except ValueError:
        raise Unauthorized("INVALID_TIMESTAMP", "The signature's t must be Unix milliseconds.") from None
    if abs(now - sent_at) > MAX_SKEW_SECONDS:
        raise Unauthorized("TIMESTAMP_OUT_OF_RANGE", "The signature's time is more than 5 minutes from our clock.")
    expected = sign(secret, parts["t"], data).rsplit("v1=", 1)[1]
    if not hmac.compare_digest(parts["v1"].strip().lower().encode(), expected.encode()):
        raise Unauthorized("INVALID_SIGNATURE", "The signature does not match the body.")


def parse_json(raw: bytes):
    if len(raw) > MAX_BODY_BYTES:
        raise InvalidPayload(f"The body is larger than {MAX_BODY_BYTES // 1024} KB.", code="PAYLOAD_TOO_LARGE")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise InvalidPayload(f"The body is not JSON: {exc}.", code="MALFORMED_JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("data"), dict):
        raise InvalidPayload('The body must be Casso\'s {"error": 0, "data": {...}}.', code="MALFORMED_JSON")
    return data


def _decimal(value, name: str, problems: dict) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str) or value == "":
        problems[name] = ["Must be a number."]
        return None
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        problems[name] = ["Must be a number."]
        return None
    if not number.is_finite():
        problems[name] = ["Must be a number."]
        return None
    return number


def transaction(record: dict, *, now: dt.datetime, webhook: bool = True) -> CassoTransaction:
    """One payment from a webhook's `data` or an API record; InvalidPayload naming every bad field."""
    problems: dict[str, list[str]] = {}
    names = (
        ("amount", "runningBalance", "transactionDateTime", "accountNumber", "bankName")
        if webhook
        else ("amount", "cusumBalance", "when", "bankSubAccId", "bankCodeName")
    )
    amount_key, balance_key, when_key, account_key, bank_key = names
    casso_id = record.get("id")
    if isinstance(casso_id, bool) or not isinstance(casso_id, int | str) or str(casso_id).strip() in ("", "0"):
        problems["id"] = ["A Casso transaction id is required."]
    amount = _decimal(record.get(amount_key), amount_key, problems)
    if amount is not None and not 0 < abs(amount) <= MAX_TRANSFER:
        problems[amount_key] = ["Must be non-zero and at most a trillion."]
    balance = None
    if record.get(balance_key) not in (None, ""):
        balance = _decimal(record.get(balance_key), balance_key, problems)
        if balance is not None and abs(balance) > MAX_BALANCE:
            problems[balance_key] = ["Too large."]
    try:
        occurred_at = dt.datetime.strptime(str(record.get(when_key) or "")[:19], "%Y-%m-%d %H:%M:%S")
        occurred_at = occurred_at.replace(tzinfo=CASSO_TZ)
        if occurred_at > now + dt.timedelta(minutes=5):
            problems[when_key] = ["In the future."]
    except ValueError:
        occurred_at = None
        problems[when_key] = ["Use YYYY-MM-DD HH:MM:SS."]
    account = str(record.get(account_key) or "").strip()
    if not account or len(account) > 64:
        problems[account_key] = ["The account number is required (at most 64 characters)."]
    if problems:
        raise InvalidPayload("The Casso transaction is malformed.", fields=problems)
    description = str(record.get("description") or record.get("corresponsiveName") or "")
    return CassoTransaction(
        casso_id=str(casso_id).strip()[:60],
        bank=str(record.get(bank_key) or record.get("bankAbbreviation") or "Casso").strip()[:100] or "Casso",
        account_number=account,
        occurred_at=occurred_at,
        direction="expense" if amount < 0 else "income",
        amount=abs(amount).quantize(Decimal(1)),
        balance=balance.quantize(Decimal(1)) if balance is not None else None,
        description=" ".join(description.replace("\x00", " ").split())[:200],
    )
