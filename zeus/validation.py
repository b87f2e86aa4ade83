"""Input checks every service shares: free text, record ids, the currency a write applies."""

from django.utils.translation import gettext as _

from zeus.errors import NotFound, ValidationFailed
from zeus.money import normalize_currency
from zeus.selectors import user_currency


def clean_text(value, field: str, *, max_length: int, required: bool) -> str:
    """Whitespace folded; NUL and lone surrogates (a JSON `\\ud800`) refused, since no database stores them."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise ValidationFailed(_("%(field)s must be text.") % {"field": field}, fields={field: [_("Must be text.")]})
    if "\x00" in value or not _encodable(value):
        raise ValidationFailed(
            _("%(field)s has characters that are not allowed.") % {"field": field},
            fields={field: [_("Not valid text.")]},
        )
    value = " ".join(value.split())
    if required and not value:
        raise ValidationFailed(
            _("%(field)s is required.") % {"field": field}, fields={field: [_("This field is required.")]}
        )
    if len(value) > max_length:
        raise ValidationFailed(
            _("%(field)s is at most %(max_length)s characters.") % {"field": field, "max_length": max_length},
            fields={field: [_("At most %(max_length)s characters.") % {"max_length": max_length}]},
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
        raise NotFound(_("No such record.")) from None


def write_currency(user, currency) -> str:
    """The currency a write applies: the one given, else the user's; a bad one names the `currency` field."""
    try:
        return normalize_currency(currency) if currency else user_currency(user)
    except ValidationFailed as exc:
        raise ValidationFailed(exc.message, code=exc.code, fields={"currency": [exc.message]}) from None
