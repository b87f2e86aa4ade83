"""Input checks every service shares: free text, record ids, the currency a write applies."""

from zeus.errors import NotFound, ValidationFailed
from zeus.money import normalize_currency
from zeus.selectors import user_currency


def clean_text(value, field: str, *, max_length: int, required: bool) -> str:
    """Whitespace folded; NUL and lone surrogates (a JSON `\\ud800`) refused, since no database stores them."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise ValidationFailed(f"{field} must be text.", fields={field: ["Must be text."]})
    if "\x00" in value or not _encodable(value):
        raise ValidationFailed(f"{field} has characters that are not allowed.", fields={field: ["Not valid text."]})
    value = " ".join(value.split())
    if required and not value:
        raise ValidationFailed(f"{field} is required.", fields={field: ["This field is required."]})
    if len(value) > max_length:
        raise ValidationFailed(
            f"{field} is at most {max_length} characters.", fields={field: [f"At most {max_length} characters."]}
        )
    return value


def _encodable(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def record_id(value) -> int:
    """An id from a URL, a form or a tool input; anything that is not one is simply not found."""
    try:
        return int(value)
    except (TypeError, ValueError):
        raise NotFound("No such record.") from None


def write_currency(user, currency) -> str:
    """The currency a write applies: the one given, else the user's; a bad one names the `currency` field."""
    try:
        return normalize_currency(currency) if currency else user_currency(user)
    except ValidationFailed as exc:
        raise ValidationFailed(exc.message, code=exc.code, fields={"currency": [exc.message]}) from None
