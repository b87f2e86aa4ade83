"""A JSON renderer for long lists of plain rows: DRF's JSONRenderer's bytes, encoded by orjson.

DRF's renderer is a noticeable share of a long transactions page (`python -m bench rest` measures the page);
orjson writes the same rows in C. The output is DRF's byte for byte for what such rows hold:
str (any text, control characters and U+2028/U+2029 escaped as DRF escapes them), int within 64 bits, bool,
None, a UUID, and lists and dicts with str keys. Anything else (a Decimal, a date, a lazy translation, an int
past 64 bits, a lone surrogate) makes orjson raise, and DRF's own renderer answers instead, as it does for an
`indent` asked for in the Accept header. Floats are the one type orjson writes differently (1e+16 against
1e16): rows rendered here carry money and dates as strings, and no float.
"""

import orjson
from rest_framework.renderers import JSONRenderer
from rest_framework.settings import api_settings

# orjson writes dates, times and dataclasses its own way (microseconds kept, no "Z"); passed through, they have
# no `default` to go to and raise, so DRF writes them.
_OWN_TYPES_ONLY = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
_LINE_SEPARATORS = (("\u2028".encode(), b"\\u2028"), ("\u2029".encode(), b"\\u2029"))


class RowsJSONRenderer(JSONRenderer):
    def render(self, data, accepted_media_type=None, renderer_context=None):
        plain = (
            data is not None
            and self.get_indent(accepted_media_type, renderer_context or {}) is None
            and api_settings.UNICODE_JSON
            and api_settings.COMPACT_JSON
        )
        if plain:
            try:
                out = orjson.dumps(data, option=_OWN_TYPES_ONLY)
            except TypeError:
                pass
            else:
                for raw, escaped in _LINE_SEPARATORS:  # as JSONRenderer does: JavaScript reads them as line ends
                    out = out.replace(raw, escaped)
                return out
        return super().render(data, accepted_media_type, renderer_context)
