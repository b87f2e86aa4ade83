"""The model that reads a capture (a receipt, a transfer screenshot, a PDF statement), registered with
assets.captures.reader from ChatConfig.ready().

It lives here because the provider's client does (chat/provider): assets sits below chat in the import order
and must not import it, and a second client in assets would be a second copy of the keys, timeouts, retries and
error mapping. The request sends the file alone, as an image or a document block with a base64 source, plus
one instruction; the answer's shape is the structured output format (assets/captures/answer.py's schema), so
the model answers with that JSON object and nothing else, and assets checks it again before any draft exists.
The user's own key is used when they set one, as for their chat turns."""

import base64
import logging

from django.conf import settings

from assets.captures.answer import ANSWER_SCHEMA, CaptureAnswerInvalid
from assets.captures.files import IMAGE
from assets.captures.reader import CaptureReaderUnavailable
from chat.provider.client import classify, create_message
from chat.provider.wire import main_request_options
from chat.selectors import provider_for
from zeus.errors import ZeusError

log = logging.getLogger(__name__)

# The offline server's cap and a statement of some forty rows; a longer one stops at max_tokens and is refused.
MAX_TOKENS = 2048
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
            "Reading images and PDFs needs an AI provider key: add yours in Settings.", code="AI_PROVIDER_REQUIRED"
        )
    import anthropic  # here: most processes never read a capture

    try:
        message = create_message(provider, _request(kind, media_type, data), timeout=settings.ZEUS_CAPTURE_TIMEOUT)
    except anthropic.BadRequestError as exc:
        log.warning("capture: the provider refused the file: %s", exc)
        raise CaptureUnopenable(
            "The AI provider could not open this file; is it a whole, readable image or PDF?"
        ) from exc
    except anthropic.APIError as exc:
        failure = classify(exc)
        timed_out = isinstance(exc, anthropic.APITimeoutError)
        log.warning("capture: the provider failed (%s): %s", failure.code, exc)
        raise CaptureReaderUnavailable(
            "The AI provider took too long to read this file; try again." if timed_out else failure.message,
            code="PROVIDER_TIMEOUT" if timed_out else failure.code,
        ) from exc
    if message.stop_reason in ("max_tokens", "refusal"):
        raise CaptureAnswerInvalid(
            "The model could not finish reading this file (too many rows, or it declined); share fewer pages."
            if message.stop_reason == "max_tokens"
            else "The model declined to read this file."
        )
    return "".join(block.text for block in message.content if getattr(block, "type", "") == "text")
