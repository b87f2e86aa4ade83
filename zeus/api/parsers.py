import json

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class StrictJSONParser(JSONParser):
    """JSON whose strings the database can store: a lone surrogate (`"\\ud800"`) is valid JSON but not
    UTF-8, and would fail deep in the database driver as a 500."""

    def parse(self, stream, media_type=None, parser_context=None):
        data = super().parse(stream, media_type, parser_context)
        try:
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise ParseError("JSON parse error - the body has text that is not valid Unicode.") from None
        return data
