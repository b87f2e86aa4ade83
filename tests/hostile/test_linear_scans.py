"""Scans run on untrusted text before any parser sees it are linear: the worst shapes at a size where a
quadratic scan (the old string pattern's) would never finish in a test's time finish with the test."""

import json

from hypothesis import given
from hypothesis import strategies as st

from zeus.text import MAX_JSON_DEPTH, json_too_deep

# Four megabytes: 128 times the 32 KB at which a quadratic scan was already slow, so 16 384 times its work.
SIZE = 4 * 1024 * 1024

WORST = {
    "escaped quotes after an open quote": '"' + '\\"' * (SIZE // 2),
    "open quote, backslash, quote": '"\\"' * (SIZE // 3),
    "unterminated strings in an array": '["' * (SIZE // 2),
    "quote-backslash pairs": '"\\' * (SIZE // 2),
    "brackets in an unterminated string": '["' + "[" * SIZE,
    "balanced flat brackets": "[]" * (SIZE // 2),
}


def test_the_worst_shapes_are_scanned_in_one_pass():
    for name, text in WORST.items():
        assert json_too_deep(text) in (True, False), name


def test_depth_is_still_counted_outside_strings_only():
    assert json_too_deep("[" * (MAX_JSON_DEPTH + 1))
    assert not json_too_deep("[" * MAX_JSON_DEPTH)
    assert not json_too_deep('["' + "[" * 100 + '"]')
    assert not json_too_deep('["\\"' + "[" * 100 + '"]')
    assert not json_too_deep('["\\\\"]' + "]" * 100)
    assert json_too_deep('["\\\\",' + "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH + "]")
    assert json_too_deep('{"a":' * (MAX_JSON_DEPTH + 1))
    assert not json_too_deep("")


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab\n'),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(alphabet='[]{}"\\a'), inner, max_size=3),
    max_leaves=60,
)


def _nesting(value) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_nesting, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_nesting, value), default=0)
    return 0


@given(_json, st.integers(min_value=0, max_value=6))
def test_the_text_scan_agrees_with_the_decoded_depth(value, limit):
    assert json_too_deep(json.dumps(value), limit) == (_nesting(value) > limit)
