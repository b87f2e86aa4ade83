"""The one text rule every boundary applies (docs/security.md).

PostgreSQL refuses NUL in text and JSON columns, and an unpaired surrogate (a JSON `"\\ud800"`) cannot be
encoded to UTF-8 at all: a write holding either fails deep inside a transaction. Input from a client is refused
at its boundary with that boundary's own error; output of the model, which no client can be asked to correct,
is made storable with `scrub`.

Nested JSON is bounded too: Python's parser recurses, and a few kilobytes of brackets exhaust the stack.
"""

import json
import re
from itertools import accumulate

# Deep enough for every document Zeus accepts (a card payload, a plan, a tool input), shallow enough that
# nothing downstream (the parser, the serializers, the JSON encoder) comes near the recursion limit.
MAX_JSON_DEPTH = 32
REPLACEMENT = "\ufffd"

_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
# A string runs to its closing quote or, unterminated, to the end of the text: the match can never fail once
# it has started, so no start is ever retried (a pattern that needs the closing quote retries from every
# quote of an unterminated `"\"\"\"…` and is quadratic). Possessive quantifiers never backtrack inside it.
_JSON_STRING = re.compile(r'"(?:[^"\\]++|\\.?)*+"?', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]++")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def is_storable(value: str) -> bool:
    """False for text holding a NUL or an unpaired surrogate (a paired one cannot exist in a Python str)."""
    return _UNSTORABLE.search(value) is None


def scrub(value: str) -> str:
    """The text with each NUL and unpaired surrogate replaced by U+FFFD, for output Zeus must keep."""
    return _UNSTORABLE.sub(REPLACEMENT, value)


def scrub_data(data, depth: int = 0):
    """`scrub` applied to every string (keys too) of decoded JSON."""
    if isinstance(data, str):
        return scrub(data)
    if isinstance(data, dict):
        return {scrub(str(k)): scrub_data(v, depth + 1) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [scrub_data(v, depth + 1) for v in data]
    return data


def unstorable_path(data, path: str = "", depth: int = 0) -> str | None:
    """Where in decoded JSON (`""` for the top, else `rows.3.name`) the first unstorable text is, or None."""
    if isinstance(data, str):
        return None if is_storable(data) else path
    if isinstance(data, dict):
        for key, value in data.items():
            here = f"{path}.{key}" if path else str(key)
            if isinstance(key, str) and not is_storable(key):
                return scrub(here)
            found = unstorable_path(value, here, depth + 1)
            if found is not None:
                return found
    elif isinstance(data, list | tuple):
        for index, value in enumerate(data):
            found = unstorable_path(value, f"{path}.{index}" if path else str(index), depth + 1)
            if found is not None:
                return found
    return None


def json_too_deep(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """True when JSON text nests arrays/objects deeper than `limit`; a linear scan run before parsing, so
    the parser never recurses far. Brackets inside strings do not count; malformed text is the parser's."""
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    return max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0) > limit


def parse_json(text: str, *, limit: int = MAX_JSON_DEPTH, parse_float=None):
    """JSON from a client: nested at most `limit` deep (checked before parsing), no NaN or Infinity.
    ValueError (json.JSONDecodeError is one) for anything else, never a RecursionError."""
    if json_too_deep(text, limit):
        raise ValueError(f"nested deeper than {limit} levels")
    return json.loads(text, parse_float=parse_float, parse_constant=_refuse_constant)


def braced(text: str, *, to_last: bool = False) -> str | None:
    """The first `{…}` of a model's reply: from the first `{` to the first `}` after it (`to_last`: to the last
    `}`), what `\\{.*?\\}` (`\\{.*\\}`) with DOTALL matches; None without one. Two linear searches: the patterns
    retry from every `{` of a run with no `}` after it, each scanning to the end, quadratic on such a run."""
    start = text.find("{")
    if start < 0:
        return None
    end = text.rfind("}") if to_last else text.find("}", start + 1)
    return text[start : end + 1] if end > start else None


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a number")


def data_too_deep(data, limit: int = MAX_JSON_DEPTH, depth: int = 0) -> bool:
    """The same bound for data already decoded (by a library that parsed it for us)."""
    if depth > limit:
        return True
    if isinstance(data, dict):
        return any(data_too_deep(v, limit, depth + 1) for v in data.values())
    if isinstance(data, list | tuple):
        return any(data_too_deep(v, limit, depth + 1) for v in data)
    return False
