"""The model that reads a capture (a receipt, a transfer screenshot, a PDF statement), registered with
assets.captures.reader from ChatConfig.ready().

It lives here because the provider's client does (chat/provider): assets sits below chat in the import order
and must not import it, and a second client in assets would be a second copy of the keys, timeouts, retries and
error mapping. The request sends the file alone, as an image or a document block with a base64 source, plus
one instruction; the answer's shape is the structured output format (assets/captures/answer.py's schema), so
the model answers with that JSON object and nothing else, and assets checks it again before any draft exists.
The user's own key is used when they set one, and the reading counts against their daily allowance
(chat/usage.py), as their chat turns do: a day's allowance spent, the file is refused before the model sees it."""

import base64
import logging

from django.conf import settings
from django.db import DatabaseError
from django.utils import timezone
from django.utils.translation import gettext as _

from assets.captures.answer import ANSWER_SCHEMA, CaptureAnswerInvalid
from assets.captures.files import IMAGE
from assets.captures.reader import CaptureReaderUnavailable
from chat.pricing import configured_prices, price_for, usage_cost, weighted_tokens
from chat.provider.client import classify, create_message
from chat.provider.stream import usage_dict
from chat.provider.wire import main_request_options
from chat.selectors import provider_for
from chat.usage import budget_reached, cost_limit_message, daily_usage_charge, limit_message, turn_account
from zeus.errors import ZeusError
from zeus.timeutil import user_tz

log = logging.getLogger(__name__)

# A statement's hundred rows (assets.captures.answer.MAX_ROWS) at some seventy tokens each; a longer answer
# stops at max_tokens and is refused. Small enough for a non-streamed call.
MAX_TOKENS = 8192
SYSTEM = (
    "You read one financial document a person shared with their personal-finance app: a shop or restaurant "
    "receipt, a bank or e-wallet transfer screenshot, or a bank statement (often Vietnamese). Report every "
    "transaction it shows, exactly as shown: never invent, round or convert an amount. A receipt or a transfer "
    "is one transaction (a receipt's total, a transfer's amount); a statement lists each of its rows. Money "
    "the person paid or sent is an expense, money they received is income. Write amounts as plain digits "
    "with an optional '.' decimal part (150000, 12.50): Vietnamese documents group thousands with '.' or ','. "
    "Currency: ISO 4217, VND for đ, VND or dong. Days as YYYY-MM-DD (Vietnamese documents write day/month/"
    "year). If the document shows no transaction (not a receipt, a transfer or a statement), answer kind "
    '"not_financial" with no transactions.'
)
ASK = "Read the transactions in this document."


class CaptureUnopenable(ZeusError):
    status = 422
    code = "CAPTURE_UNREADABLE"


class CaptureOverAllowance(ZeusError):
    status = 429
    code = "USAGE_LIMIT"


def _check_allowance(user, day) -> None:
    account = turn_account(user_id=user.id, day=day)
    reached = budget_reached(
        tokens=account.tokens_used,
        cost=account.cost_used,
        token_budget=account.token_budget,
        cost_budget=account.cost_budget,
    )
    if reached:
        zone = str(user_tz(user))
        raise CaptureOverAllowance(
            limit_message(account.token_budget, zone)
            if reached == "tokens"
            else cost_limit_message(account.cost_budget, zone)
        )


def _charge(user, day, model: str, message) -> None:
    usage = usage_dict(message.usage.model_dump() if message.usage is not None else None)
    try:
        daily_usage_charge(
            user_id=user.id,
            day=day,
            tokens=weighted_tokens(usage, price_for(model, configured_prices())),
            cost_usd=usage_cost(model, usage),
        )
    except DatabaseError:
        log.exception("capture: could not count the tokens of a reading for user %s", user.id)


def _request(kind: str, media_type: str, data: bytes) -> dict:
    source = {"type": "base64", "media_type": media_type, "data": base64.b64encode(data).decode("ascii")}
    block = {"type": "image" if kind == IMAGE else "document", "source": source}
    model = settings.ZEUS_MODEL
    options = main_request_options(model, "capture", settings.ZEUS_EFFORT)
    output_config = {**options.pop("output_config", {}), "format": {"type": "json_schema", "schema": ANSWER_SCHEMA}}
    return {
        "model": model,
        "max_tokens": MAX_TOKENS,
        "system": SYSTEM,
        "messages": [{"role": "user", "content": [block, {"type": "text", "text": ASK}]}],
        "output_config": output_config,
        **options,
    }


def read_capture(*, user, kind: str, media_type: str, data: bytes) -> str:
    """The model's JSON answer (text) about the file; a ZeusError with a code when it cannot be had."""
    provider = provider_for(user=user)
    if provider is None:
        raise CaptureReaderUnavailable(
            _("Reading images and PDFs needs an AI provider key: add yours in Settings."), code="AI_PROVIDER_REQUIRED"
        )
    day = timezone.now().astimezone(user_tz(user)).date()
    _check_allowance(user, day)
    import anthropic  # here: most processes never read a capture

    request = _request(kind, media_type, data)
    try:
        message = create_message(provider, request, timeout=settings.ZEUS_CAPTURE_TIMEOUT)
    except anthropic.BadRequestError as exc:
        log.warning("capture: the provider refused the file: %s", exc)
        raise CaptureUnopenable(
            _("The AI provider could not open this file; is it a whole, readable image or PDF?")
        ) from exc
    except anthropic.APIError as exc:
        failure = classify(exc)
        timed_out = isinstance(exc, anthropic.APITimeoutError)
        log.warning("capture: the provider failed (%s): %s", failure.code, exc)
        raise CaptureReaderUnavailable(
            _("The AI provider took too long to read this file; try again.") if timed_out else failure.message,
            code="PROVIDER_TIMEOUT" if timed_out else failure.code,
        ) from exc
    _charge(user, day, request["model"], message)
    if message.stop_reason in ("max_tokens", "refusal"):
        raise CaptureAnswerInvalid(
            _("The model could not finish reading this file (too many rows, or it declined); share fewer pages.")
            if message.stop_reason == "max_tokens"
            else _("The model declined to read this file.")
        )
    return "".join(block.text for block in message.content if getattr(block, "type", "") == "text")
