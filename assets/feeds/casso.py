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

from assets.feeds.payload import EARLIEST, MAX_BALANCE, MAX_BODY_BYTES, MAX_TRANSFER, SEPAY_TZ, InvalidPayload
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
    # A lone surrogate ("\\ud800" in the body) is encoded as is, so a forged body is answered as unsigned (401)
    # and a signed one as malformed (400), never a 500; the field checks refuse such text.
    return json.dumps(_sorted(data), separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass")


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
    if not number.is_finite() or number != number.to_integral_value():
        # VND has no minor unit: a fraction of a dong is a broken sender, and would land as a zero row.
        problems[name] = ["Must be a whole number of dong."]
        return None
    return number


def _text(value, name: str, problems: dict, *, max_length: int) -> str:
    """Text a row can hold: no NUL, no lone surrogate (neither can be stored), at most max_length."""
    if value is None:
        return ""
    text = str(value) if isinstance(value, int | str) and not isinstance(value, bool) else None
    if text is None:
        problems[name] = ["Must be text."]
        return ""
    if "\x00" in text or any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        problems[name] = ["Contains a character text cannot hold (NUL or a lone surrogate)."]
        return ""
    text = " ".join(text.split())
    if len(text) > max_length:
        problems[name] = [f"At most {max_length} characters."]
        return ""
    return text


def _when(value, now: dt.datetime) -> tuple[dt.datetime | None, str | None]:
    """The webhook's `YYYY-MM-DD HH:MM:SS`; the API's `YYYY-MM-DDTHH:MM:SS` or bare day (Vietnam time)."""
    text = str(value or "").strip()[:19]
    for shape in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d"):
        try:
            when = dt.datetime.strptime(text, shape).replace(tzinfo=CASSO_TZ)
            break
        except ValueError:
            continue
    else:
        return None, "Use YYYY-MM-DD HH:MM:SS."
    if when > now + dt.timedelta(minutes=5):
        return None, "In the future."
    if when < EARLIEST:
        return None, "Before the year 2000."
    return when, None


def transaction(record: dict, *, now: dt.datetime, webhook: bool = True) -> CassoTransaction:
    """One payment from a webhook's `data` or an API record; InvalidPayload naming every bad field."""
    problems: dict[str, list[str]] = {}
    names = (
        ("amount", ("runningBalance",), "transactionDateTime", "accountNumber", "bankName")
        if webhook
        else ("amount", ("cusumBalance", "cusum_balance"), "when", "bankSubAccId", "bankCodeName")
    )
    amount_key, balance_keys, when_key, account_key, bank_key = names
    casso_id = record.get("id")
    casso_id = _text(casso_id, "id", problems, max_length=60) if not isinstance(casso_id, bool) else ""
    if casso_id in ("", "0") and "id" not in problems:
        problems["id"] = ["A Casso transaction id is required."]
    amount = _decimal(record.get(amount_key), amount_key, problems)
    if amount is not None and not 0 < abs(amount) <= MAX_TRANSFER:
        problems[amount_key] = ["Must be non-zero and at most a trillion."]
    balance = None
    balance_key = next((key for key in balance_keys if record.get(key) not in (None, "")), None)
    if balance_key is not None:
        balance = _decimal(record.get(balance_key), balance_key, problems)
        if balance is not None and abs(balance) > MAX_BALANCE:
            problems[balance_key] = ["Too large."]
    occurred_at, problem = _when(record.get(when_key), now)
    if problem:
        problems[when_key] = [problem]
    account = _text(record.get(account_key), account_key, problems, max_length=64)
    if not account and account_key not in problems:
        problems[account_key] = ["The account number is required (at most 64 characters)."]
    bank = _text(record.get(bank_key) or record.get("bankAbbreviation"), bank_key, problems, max_length=100)
    description = _text(record.get("description") or record.get("corresponsiveName"), "description", problems,
                        max_length=1_000)  # fmt: skip
    if problems:
        raise InvalidPayload("The Casso transaction is malformed.", fields=problems)
    return CassoTransaction(
        casso_id=casso_id,
        bank=bank or "Casso",
        account_number=account,
        occurred_at=occurred_at,
        direction="expense" if amount < 0 else "income",
        amount=abs(amount).quantize(Decimal(1)),
        balance=balance.quantize(Decimal(1)) if balance is not None else None,
        description=description[:200],
    )
