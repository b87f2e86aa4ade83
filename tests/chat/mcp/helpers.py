import asyncio
import json
from contextlib import asynccontextmanager

import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from chat.mcp.services import mcp_token_create


def token_for(user) -> str:
    return mcp_token_create(user=user).raw


def output(result) -> dict:
    """A tools/call result's JSON, read from its text content as a client without structured output would."""
    return json.loads(result.content[0].text)


class McpHarness:
    def __init__(self, base_url: str):
        self.base_url = base_url
        self.url = f"{base_url}/mcp"

    @asynccontextmanager
    async def session(self, token: str | None, *, handshake: bool = True):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=20) as http,
            streamable_http_client(self.url, http_client=http) as (read, write),
            ClientSession(read, write) as session,
        ):
            if handshake:
                await session.initialize()
            yield session

    def run(self, token: str | None, scenario):
        """Runs `scenario(session)` against the server from a sync test, whose data is already committed."""

        async def go():
            async with self.session(token) as session:
                return await scenario(session)

        return asyncio.run(go())

    def calls(self, token: str, *calls):
        """Each call is (name, arguments) or (name, arguments, idempotency_key); returns the results in order."""

        async def scenario(session):
            results = []
            for name, arguments, *key in calls:
                meta = {"idempotency_key": key[0]} if key else None
                results.append(await session.call_tool(name, arguments, meta=meta))
            return results

        return self.run(token, scenario)
