"""The model reads a bank text no parser knows. It is sent the raw text and nothing else of the user's
(no ledger, no name, no accounts), asked for one JSON object, and its answer is checked like any input."""

import datetime as dt
import logging
import re
import zoneinfo
from decimal import Decimal

from django.conf import settings

from assets.banktexts.parsers import MAX_AMOUNT, ParsedText
from zeus.errors import ValidationFailed
from zeus.money import CURRENCY_EXPONENTS, parse_money
from zeus.text import braced, parse_json, scrub

log = logging.getLogger(__name__)

EARLIEST_YEAR = 2000

SYSTEM = (
    "You read one bank or e-wallet notification (SMS or app push) and extract the single transaction it "
    "reports. Answer with one JSON object and nothing else, with these keys: amount (a number, positive), "
    'currency (ISO 4217, "VND" when the text says VND, đ or dong), direction ("expense" for money out, '
    '"income" for money in), occurred_at (ISO 8601 local time as written, or null), description (the '
    "counterpart and the transfer note, as written), account_mask (the account number as written, or null), "
    "balance_after (a number or null), bank (the bank or wallet name, or null). If the text does not report "
    'a transaction, answer {"unreadable": true}.'
)
MAX_TOKENS = 1024
TIMEOUT = 20.0


def read_with_model(text: str, *, now: dt.datetime, tz: zoneinfo.ZoneInfo) -> ParsedText | None:
    """The transaction the router model reads in `text`, or None (no server key, the provider failed, or
    the answer is not a transaction)."""
    if not settings.ANTHROPIC_API_KEY:
        return None
    import anthropic  # here, not at the top: every process loads this module at start, few read a bank text

    client = anthropic.Anthropic(
        api_key=settings.ANTHROPIC_API_KEY,
        base_url=settings.ANTHROPIC_BASE_URL or None,
        max_retries=2,
        timeout=TIMEOUT,
    )
    try:
        message = client.messages.create(
            model=settings.ZEUS_ROUTER_MODEL,
            max_tokens=MAX_TOKENS,
            system=SYSTEM,
            messages=[{"role": "user", "content": text}],
        )
    except anthropic.APIError as exc:
        log.warning("bank text model read failed: %s", exc)
        return None
    finally:
        client.close()
    answer = "".join(block.text for block in message.content if getattr(block, "type", "") == "text")
    return answer_to_parsed(answer, now=now, tz=tz)


def answer_to_parsed(answer: str, *, now: dt.datetime, tz: zoneinfo.ZoneInfo) -> ParsedText | None:
    """The model's JSON, checked: a positive amount in a known currency, a known direction, a time not in
    the future. Anything else is None, never a guess."""
    found = braced(answer, to_last=True)
    if not found:
        return None
    try:
        data = parse_json(found, parse_float=Decimal)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("unreadable"):
        return None
    currency = str(data.get("currency") or "VND").upper()
    direction = data.get("direction")
    if currency not in CURRENCY_EXPONENTS or direction not in ("expense", "income"):
        return None
    try:
        amount = parse_money(data.get("amount"), currency)
        balance = data.get("balance_after")
        balance = None if balance in (None, "") else parse_money(balance, currency, allow_zero=True)
    except ValidationFailed:
        return None
    if amount > MAX_AMOUNT:
        return None
    when = now.astimezone(tz)
    if isinstance(data.get("occurred_at"), str):
        try:
            stamp = dt.datetime.fromisoformat(data["occurred_at"])
        except ValueError:
            stamp = None
        if stamp is not None:
            # Before 2000 no bank sent this text; and year 1 moved into the user's zone overflows (a 500).
            if stamp.year < EARLIEST_YEAR:
                return None
            when = stamp.astimezone(tz) if stamp.tzinfo else stamp.replace(tzinfo=tz)
    if when > now + dt.timedelta(days=1):
        return None
    mask = data.get("account_mask")
    digits = re.sub(r"[^0-9xX*]", "", mask) if isinstance(mask, str) else ""
    return ParsedText(
        # The model's text, kept as its output: a NUL or a lone surrogate made storable (zeus.text).
        bank=scrub(str(data.get("bank") or ""))[:40],
        amount=amount,
        direction=direction,
        occurred_at=when,
        description=scrub(" ".join(str(data.get("description") or "").split()))[:200],
        currency=currency,
        account_mask=f"•••• {digits[-4:]}" if len(digits) >= 3 else "",
        balance_after=balance,
    )
