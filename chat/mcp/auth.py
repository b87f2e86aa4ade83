"""Bearer-token authentication for /mcp, through the SDK's own verifier seam."""

from typing import Any

from mcp.server.auth.provider import AccessToken
from pydantic import Field

from chat.mcp.selectors import mcp_token_authenticate
from chat.mcp.server import tool_context_for
from chat.mcp.services import mcp_token_touch
from chat.off_loop import run_off_loop
from zeus.selectors import consent_given


class McpAccessToken(AccessToken):
    """The SDK's access token, carrying the ToolContext of the token's user: the tool handlers take the user
    from here, never from anything in the request."""

    context: Any = Field(default=None, exclude=True)
    # Read with the token, per request: without the user's consent to the model provider (zeus/consent.py) the
    # tool calls are refused, as a chat turn is. The MCP client hands what a tool returns to its own model.
    consent_given: bool = Field(default=False, exclude=True)


class McpTokenVerifier:
    """The SDK's TokenVerifier for Zeus MCP tokens (BearerAuthBackend answers 401 when it returns None)."""

    async def verify_token(self, token: str) -> AccessToken | None:
        return await run_off_loop(_verify, token)


def _verify(raw: str) -> McpAccessToken | None:
    token = mcp_token_authenticate(raw=raw)
    if token is None:
        return None
    mcp_token_touch(token=token)
    return McpAccessToken(
        token=raw,
        client_id=f"mcp-token:{token.id}",
        subject=str(token.user_id),
        scopes=[],
        context=tool_context_for(token.user, token_id=token.id),
        consent_given=consent_given(user_id=token.user_id),
    )
