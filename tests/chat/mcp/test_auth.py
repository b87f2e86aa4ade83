"""The token: issued once through the REST route, stored hashed, required (401) before anything runs on /mcp."""

import json

import httpx2
import pytest
from mcp.shared.exceptions import MCPError

from assets.models import Transaction
from chat.mcp.services import mcp_token_create, mcp_token_revoke
from chat.models import McpToken
from tests.chat.mcp.helpers import output

pytestmark = pytest.mark.django_db(transaction=True)

CREATE_CALL = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "tools/call",
    "params": {"name": "create_manual_transaction", "arguments": {"amount": "150k", "description": "KFC"}},
}


def post_raw(mcp, token=None, *, host=None, body=None):
    headers = {
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        "MCP-Protocol-Version": "2025-11-25",
    }
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    if host is not None:
        headers["Host"] = host
    return httpx2.post(mcp.url, content=body or json.dumps(CREATE_CALL), headers=headers, timeout=10)


def test_a_call_without_a_valid_token_is_401_and_runs_nothing(mcp, alice):
    revoked = mcp_token_create(user=alice).raw
    mcp_token_revoke(user=alice)

    answers = [post_raw(mcp, token) for token in (None, "zmcp_wrong", "not-even-ours", revoked)]

    assert [a.status_code for a in answers] == [401] * 4
    assert all(a.headers["www-authenticate"].startswith("Bearer") for a in answers)
    assert not Transaction.objects.exists()


def test_a_deactivated_users_token_is_401(mcp, alice):
    token = mcp_token_create(user=alice).raw
    alice.is_active = False
    alice.save()

    assert post_raw(mcp, token).status_code == 401


def test_an_oversized_request_is_refused(mcp, alice):
    call = {**CREATE_CALL, "params": {**CREATE_CALL["params"], "arguments": {"description": "x" * 70_000}}}

    answer = post_raw(mcp, mcp_token_create(user=alice).raw, body=json.dumps(call))

    assert answer.status_code == 413
    assert not Transaction.objects.exists()


def test_the_sdk_client_is_refused_without_a_token(mcp, alice):
    async def scenario(session):
        return await session.list_tools()

    with pytest.raises(ExceptionGroup) as refused:
        mcp.run(None, scenario)

    assert refused.group_contains(MCPError)


def test_a_raw_call_with_the_token_binds_the_tokens_user(mcp, alice):
    answer = post_raw(mcp, mcp_token_create(user=alice).raw)

    assert answer.status_code == 200
    result = answer.json()["result"]
    assert result["isError"] is False
    assert Transaction.objects.get(id=result["structuredContent"]["transaction"]["id"]).user == alice


def test_a_host_outside_allowed_hosts_is_refused(mcp, alice):
    answer = post_raw(mcp, mcp_token_create(user=alice).raw, host="evil.example")

    assert answer.status_code == 400
    assert not Transaction.objects.exists()


def test_a_new_token_replaces_the_old_one(mcp, alice):
    old = mcp_token_create(user=alice).raw
    new = mcp_token_create(user=alice).raw

    assert post_raw(mcp, old).status_code == 401
    (result,) = mcp.calls(new, ("list_assets", {}))
    assert output(result) == {"assets": []}


def test_the_rest_route_shows_the_token_once_and_keeps_only_its_hash(alice_api, alice):
    created = alice_api.post("/api/v1/chat/mcp-token")
    shown = alice_api.get("/api/v1/chat/mcp-token")

    assert created.status_code == 201
    raw = created.json()["token"]
    assert raw.startswith("zmcp_") and raw.startswith(created.json()["prefix"])
    assert shown.status_code == 200 and "token" not in shown.json()
    assert shown.json()["prefix"] == created.json()["prefix"]
    stored = McpToken.objects.get(user=alice)
    assert stored.token_hash == McpToken.hash_of(raw) and raw not in stored.token_hash


def test_the_rest_route_revokes(alice_api, alice):
    alice_api.post("/api/v1/chat/mcp-token")

    deleted = alice_api.delete("/api/v1/chat/mcp-token")

    assert deleted.status_code == 204
    assert alice_api.get("/api/v1/chat/mcp-token").json()["error"]["code"] == "NOT_FOUND"
    assert McpToken.objects.get(user=alice).revoked_at is not None


def test_the_rest_route_needs_a_login(anon_api):
    assert anon_api.post("/api/v1/chat/mcp-token").status_code == 401


def test_use_is_recorded_at_most_once_a_minute(mcp, alice):
    token = mcp_token_create(user=alice).raw
    mcp.calls(token, ("list_assets", {}))
    first_use = McpToken.objects.get(user=alice).last_used_at

    mcp.calls(token, ("list_assets", {}))

    assert first_use is not None
    assert McpToken.objects.get(user=alice).last_used_at == first_use
