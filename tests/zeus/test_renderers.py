"""RowsJSONRenderer writes DRF's JSONRenderer's bytes (zeus/api/renderers.py)."""

import dataclasses
import datetime as dt
import uuid
from decimal import Decimal

import pytest
from django.utils.translation import gettext_lazy
from rest_framework.renderers import JSONRenderer

from zeus.api.renderers import RowsJSONRenderer

# Every character below U+0100 (control characters, DEL, Latin-1), the line separators JavaScript breaks on,
# the edges of the BMP, an emoji, quotes and backslashes, Vietnamese.
TEXT = "".join(map(chr, range(0x100))) + '\u2028\u2029\ud7ff\ue000\uffff😀 Cà phê "sữa" \\ / đồng'
PLAIN = [
    {"results": [{"id": 1, "description": TEXT, "asset": None, "editable": True}], "next": None},
    [0, -1, 2**63 - 1, -(2**63), True, False, None, "", [], {}, uuid.UUID("0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9")],
    {"error": {"code": "VALIDATION_FAILED", "message": TEXT, "fields": {"since": ["Bad date."]}}},
]
OTHERS = [
    {"amount": Decimal("150000.00")},  # DRF's encoder writes Decimal as a string
    {"on": dt.date(2026, 12, 1), "at": dt.datetime(2026, 12, 1, 8, 30, 0, 123456, tzinfo=dt.UTC)},
    {"label": gettext_lazy("Food")},
    {"id": 2**64},  # past 64 bits
    {1: "a non-str key"},
    {"at": dt.time(8, 30, 0, 123456)},
]


@pytest.mark.parametrize("data", PLAIN + OTHERS)
def test_the_bytes_are_drfs(data):
    assert RowsJSONRenderer().render(data) == JSONRenderer().render(data)


def test_an_indent_asked_for_and_no_data_are_drfs_too():
    data = PLAIN[0]
    indented = RowsJSONRenderer().render(data, "application/json; indent=2", {})
    assert indented == JSONRenderer().render(data, "application/json; indent=2", {}) and b"\n  " in indented
    assert RowsJSONRenderer().render(None) == b""


def test_what_drf_cannot_write_fails_as_it_does():
    row = dataclasses.make_dataclass("Row", ["id"])(1)
    with pytest.raises(TypeError, match="not JSON serializable"):
        RowsJSONRenderer().render([row])
