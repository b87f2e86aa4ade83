"""How a SePay delivery proves where it comes from (SePay's two documented methods):

- API key: the header `Authorization: Apikey <secret>`;
- HMAC-SHA256: `X-SePay-Timestamp` (Unix seconds) and `X-SePay-Signature` (`sha256=<hex>`, the prefix
  optional), the hex HMAC-SHA256 of `<timestamp>.<raw body>` keyed by the secret; a timestamp more than
  five minutes from our clock is refused, so a captured delivery cannot be replayed later.
"""

import hashlib
import hmac
import re

MAX_SKEW_SECONDS = 300
_SECONDS = re.compile(r"[0-9]{1,12}")


class Unauthorized(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def sign(secret: str, timestamp: int | str, body: bytes) -> str:
    """The signature header's value for a body (what SePay sends; the tests sign with it)."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def check_api_key(secret: str, authorization: str) -> None:
    scheme, _, key = (authorization or "").partition(" ")
    if scheme.lower() != "apikey" or not key:
        raise Unauthorized("API_KEY_REQUIRED", "Send the header Authorization: Apikey <your key>.")
    if not hmac.compare_digest(key.strip().encode(), secret.encode()):
        raise Unauthorized("INVALID_API_KEY", "The API key is wrong.")


def check_hmac(secret: str, *, timestamp: str, signature: str, body: bytes, now: float) -> None:
    if not timestamp or not signature:
        raise Unauthorized("SIGNATURE_REQUIRED", "Send X-SePay-Timestamp and X-SePay-Signature.")
    # Whole seconds of at most 12 digits: int() of a longer one is slow, and subtracting a huge one from a
    # float clock overflows.
    if not _SECONDS.fullmatch(timestamp.strip()):
        raise Unauthorized("INVALID_TIMESTAMP", "X-SePay-Timestamp must be Unix seconds.")
    if abs(int(now) - int(timestamp.strip())) > MAX_SKEW_SECONDS:
        raise Unauthorized("TIMESTAMP_OUT_OF_RANGE", "X-SePay-Timestamp is more than 5 minutes from our clock.")
    given = signature.strip().removeprefix("sha256=").lower()
    expected = sign(secret, timestamp.strip(), body).removeprefix("sha256=")
    if not hmac.compare_digest(given.encode(), expected.encode()):
        raise Unauthorized("INVALID_SIGNATURE", "The signature does not match the body.")
