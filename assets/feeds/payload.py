"""SePay's webhook payload, checked field by field. Pure: no ORM, the clock comes in as an argument.

A delivery is refused whole (a 400 naming each bad field) rather than half read: a string amount, a negative
or absurd one, a date in the future or an unknown transfer type change nothing.
"""

import datetime as dt
import zoneinfo
from dataclasses import dataclass
from decimal import Decimal

from zeus.errors import ValidationFailed
from zeus.text import parse_json

# SePay writes transactionDate in Vietnam's local time, without an offset.
SEPAY_TZ = zoneinfo.ZoneInfo("Asia/Ho_Chi_Minh")
SEPAY_CURRENCY = "VND"
# One transfer above a trillion dong (about 40 million USD) is a forged or broken delivery, not a payment.
MAX_TRANSFER = Decimal(10**12)
# The ledger's widest balance (15 integer digits, zeus.money.MAX_AMOUNT).
MAX_BALANCE = Decimal("999999999999999")
# Bank clocks and SePay's queue may run a little ahead of ours; more than this is a date in the future.
FUTURE_SLACK = dt.timedelta(minutes=5)
EARLIEST = dt.datetime(2000, 1, 1, tzinfo=SEPAY_TZ)
MAX_BODY_BYTES = 64 * 1024


class InvalidPayload(ValidationFailed):
    code = "INVALID_PAYLOAD"


@dataclass(frozen=True)
class SepayTransaction:
    sepay_id: int
    gateway: str
    occurred_at: dt.datetime
    account_number: str
    sub_account: str | None
    code: str | None
    content: str
    direction: str  # expense or income
    amount: Decimal
    accumulated: Decimal | None
    reference_code: str | None
    description: str | None

    @property
    def external_id(self) -> str:
        return f"sepay:{self.sepay_id}"


def parse_body(raw: bytes, *, now: dt.datetime) -> SepayTransaction:
    if len(raw) > MAX_BODY_BYTES:
        raise InvalidPayload(f"The body is larger than {MAX_BODY_BYTES // 1024} KB.", code="PAYLOAD_TOO_LARGE")
    try:
        data = parse_json(raw.decode("utf-8"), parse_float=Decimal)
    except (UnicodeDecodeError, ValueError) as exc:
        raise InvalidPayload(f"The body is not JSON: {exc}.", code="MALFORMED_JSON") from None
    if not isinstance(data, dict):
        raise InvalidPayload("The body must be a JSON object.", code="MALFORMED_JSON")
    return parse_payload(data, now=now)


def parse_payload(data: dict, *, now: dt.datetime) -> SepayTransaction:
    problems: dict[str, list[str]] = {}

    def check(field, read, *, required=True):
        if field not in data or data[field] is None:
            if required:
                problems[field] = ["This field is required."]
            return None
        try:
            return read(data[field])
        except ValueError as exc:
            problems[field] = [str(exc)]
            return None

    sepay_id = check("id", _positive_int)
    gateway = check("gateway", lambda v: _text(v, 100, required=True))
    occurred_at = check("transactionDate", lambda v: _when(v, now))
    account_number = check("accountNumber", _account_number)
    sub_account = check("subAccount", lambda v: _text(v, 100), required=False)
    code = check("code", lambda v: _text(v, 100), required=False)
    content = check("content", lambda v: _text(v, 1_000), required=False) or ""
    direction = check("transferType", _direction)
    amount = check("transferAmount", lambda v: _amount(v, low=Decimal(1), high=MAX_TRANSFER))
    accumulated = check("accumulated", lambda v: _amount(v, low=-MAX_BALANCE, high=MAX_BALANCE), required=False)
    reference_code = check("referenceCode", lambda v: _text(v, 100), required=False)
    description = check("description", lambda v: _text(v, 1_000), required=False)
    if problems:
        first = next(iter(problems.items()))
        raise InvalidPayload(f"{first[0]}: {first[1][0]}", fields=problems)
    return SepayTransaction(
        sepay_id=sepay_id,
        gateway=gateway,
        occurred_at=occurred_at,
        account_number=account_number,
        sub_account=sub_account,
        code=code,
        content=content,
        direction=direction,
        amount=amount,
        accumulated=accumulated,
        reference_code=reference_code,
        description=description,
    )


def _positive_int(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("Must be a whole number (JSON number), not text.")
    if not 1 <= value <= 2**63 - 1:
        raise ValueError("Must be a positive id.")
    return value


def _text(value, max_length: int, *, required: bool = False) -> str:
    if not isinstance(value, str):
        raise ValueError("Must be text.")
    if "\x00" in value:
        raise ValueError("Contains a NUL character.")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("Is not valid text.") from None
    value = " ".join(value.split())
    if required and not value:
        raise ValueError("Must not be empty.")
    if len(value) > max_length:
        raise ValueError(f"At most {max_length} characters.")
    return value


def _account_number(value) -> str:
    value = _text(value, 40, required=True)
    if not value.replace(" ", "").isalnum():
        raise ValueError("Must be letters and digits.")
    return value.replace(" ", "")


def _when(value, now: dt.datetime) -> dt.datetime:
    if not isinstance(value, str):
        raise ValueError("Must be text: YYYY-MM-DD HH:MM:SS.")
    try:
        local = dt.datetime.strptime(value.strip(), "%Y-%m-%d %H:%M:%S")
    except ValueError:
        raise ValueError("Must be YYYY-MM-DD HH:MM:SS.") from None
    when = local.replace(tzinfo=SEPAY_TZ)
    if when > now + FUTURE_SLACK:
        raise ValueError("Is in the future.")
    if when < EARLIEST:
        raise ValueError("Is before the year 2000.")
    return when


def _direction(value) -> str:
    if value == "in":
        return "income"
    if value == "out":
        return "expense"
    raise ValueError('Must be "in" or "out".')


def _amount(value, *, low: Decimal, high: Decimal) -> Decimal:
    # A JSON number only: SePay sends numbers, and a string here means a forged or broken sender.
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise ValueError("Must be a JSON number, not text.")
    amount = Decimal(value)
    if not amount.is_finite() or amount != amount.to_integral_value():
        raise ValueError("Must be a whole number of dong.")
    if amount < low:
        raise ValueError("Must be positive." if low > 0 else f"Must be at least {low}.")
    if amount > high:
        raise ValueError(f"Must be at most {high:,}.")
    return amount.quantize(Decimal(1))
