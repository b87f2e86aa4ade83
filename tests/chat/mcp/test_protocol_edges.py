"""/mcp edges: no endless GET stream, JSON-RPC errors for malformed envelopes, JSON bodies on every failure."""

import json
import time

import django.db
import httpx2
import pytest

from assets.models import Transaction
from chat.mcp.services import mcp_token_create
from tests.chat.mcp.test_auth import CREATE_CALL, post_raw

pytestmark = pytest.mark.django_db(transaction=True)


def _error(answer, status, code):
    assert answer.status_code == status, answer.text[:300]
    assert answer.headers["content-type"].startswith("application/json")
    body = answer.json()
    assert body["jsonrpc"] == "2.0"
    assert body["error"]["code"] == code, body
    return body


def test_get_is_405_at_once_not_an_endless_stream(mcp, alice):
    started = time.monotonic()
    answer = httpx2.get(
        mcp.url,
        headers={"Accept": "text/event-stream", "Authorization": f"Bearer {mcp_token_create(user=alice).raw}"},
        timeout=5,
    )
    assert time.monotonic() - started < 3
    _error(answer, 405, -32600)
    assert "POST" in answer.headers["allow"]


@pytest.mark.parametrize(
    "message",
    [
        {**CREATE_CALL, "id": {"an": "object"}},
        {**CREATE_CALL, "id": [1]},
        {**CREATE_CALL, "id": True},
        {**CREATE_CALL, "id": 1.5},
        {**CREATE_CALL, "jsonrpc": "1.0"},
        {k: v for k, v in CREATE_CALL.items() if k != "jsonrpc"},
        {**CREATE_CALL, "method": 7},
        {**CREATE_CALL, "params": [1, 2]},
        [CREATE_CALL],
        "tools/call",
        42,
    ],
)
def test_a_malformed_envelope_is_invalid_request_and_runs_nothing(mcp, alice, message):
    body = _error(post_raw(mcp, mcp_token_create(user=alice).raw, body=json.dumps(message)), 400, -32600)
    assert body["id"] is None
    assert not Transaction.objects.exists()


NAN_CALL = (
    b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "add_transaction", '
    b'"arguments": {"amount": NaN, "direction": "expense", "category": "dining"}}}'
)


@pytest.mark.parametrize("raw", [b"{", b"\xff\xfe", b"{'a': 1}", NAN_CALL, NAN_CALL.replace(b"NaN", b"-Infinity")])
def test_a_body_that_is_not_json_is_a_parse_error(mcp, alice, raw):
    _error(post_raw(mcp, mcp_token_create(user=alice).raw, body=raw), 400, -32700)


def test_deep_nesting_is_refused_before_parsing(mcp, alice):
    raw = '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": ' + "[" * 2000 + "]" * 2000 + "}"
    _error(post_raw(mcp, mcp_token_create(user=alice).raw, body=raw), 400, -32600)


@pytest.mark.parametrize("bad", ["\\u0000", "\\ud800"])
def test_unstorable_text_in_arguments_is_invalid_params_with_the_id(mcp, alice, bad):
    call = json.dumps(CREATE_CALL).replace('"KFC"', f'"K{bad}FC"')
    body = _error(post_raw(mcp, mcp_token_create(user=alice).raw, body=call), 400, -32602)
    assert body["id"] == 1
    assert "arguments.description" in body["error"]["message"]
    assert not Transaction.objects.exists()


def test_a_dead_database_is_a_json_503_with_retry_after(mcp, alice, monkeypatch):
    token = mcp_token_create(user=alice).raw

    def down(**kwargs):
        raise django.db.OperationalError("connection refused")

    monkeypatch.setattr("chat.mcp.auth.mcp_token_authenticate", down)
    answer = post_raw(mcp, token)
    _error(answer, 503, -32000)
    assert answer.headers["retry-after"] == "5"


def test_a_bug_underneath_is_a_json_500(mcp, alice, monkeypatch):
    token = mcp_token_create(user=alice).raw

    def bug(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("chat.mcp.auth.mcp_token_authenticate", bug)
    _error(post_raw(mcp, token), 500, -32603)


def test_a_well_formed_call_still_works(mcp, alice):
    answer = post_raw(mcp, mcp_token_create(user=alice).raw)
    assert answer.status_code == 200
    assert answer.json()["result"]["isError"] is False
    assert Transaction.objects.count() == 1


def test_without_a_token_even_a_malformed_body_is_401_first(mcp):
    answer = post_raw(mcp, None, body=json.dumps({**CREATE_CALL, "id": {"an": "object"}}))
    assert answer.status_code == 401
