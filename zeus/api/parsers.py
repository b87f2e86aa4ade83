import json

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser, get_encoding
from rest_framework.utils.json import strict_constant

from zeus.errors import ValidationFailed
from zeus.text import MAX_JSON_DEPTH, json_too_deep, unstorable_path


class InvalidText(ValidationFailed):
    code = "INVALID_TEXT"


def refuse_unstorable(data) -> None:
    """The text rule for decoded input (docs/security.md): a 400 naming where the bad text is."""
    path = unstorable_path(data)
    if path is not None:
        where = path or "body"
        raise InvalidText(
            _("%(where)s: text with a NUL character or an unpaired surrogate cannot be stored.") % {"where": where},
            fields={where: [_("Contains a NUL character or an unpaired surrogate.")]},
        )


class StrictJSONParser(JSONParser):
    """JSON the database can store, nested at most MAX_JSON_DEPTH deep.

    The depth is checked on the text before parsing: Python's parser recurses, and 2 KB of brackets would
    be a RecursionError (a 500). NUL and lone surrogates, in keys or values, are refused here once rather
    than in each service, where they would fail deep in the database driver.
    """

    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read() if stream is not None else b""
        try:
            text = raw.decode(get_encoding(parser_context or {}))
        except (UnicodeDecodeError, LookupError):
            raise ParseError(_("JSON parse error - the body is not text in its declared charset.")) from None
        if json_too_deep(text):
            raise ParseError(
                _("JSON parse error - the body nests deeper than %(MAX_JSON_DEPTH)s levels.")
                % {"MAX_JSON_DEPTH": MAX_JSON_DEPTH}
            )
        try:
            data = json.loads(text, parse_constant=strict_constant if self.strict else None)
        except ValueError as exc:
            raise ParseError(_("JSON parse error - %(exc)s") % {"exc": exc}) from None
        refuse_unstorable(data)
        return data
