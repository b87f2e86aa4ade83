"""Bearer-token authentication for /mcp, through the SDK's own verifier seam."""

from mcp.server.auth.provider import AccessToken

from chat.mcp.db import in_worker
from chat.mcp.selectors import mcp_token_authenticate
from chat.mcp.services import mcp_token_touch


class McpTokenVerifier:
    """The SDK's TokenVerifier for Zeus MCP tokens: the user and the token travel on as claims, so the tool
    handlers bind the user from the token and never from the request."""

    async def verify_token(self, token: str) -> AccessToken | None:
        found = await in_worker(_authenticate, token)
        if found is None:
            return None
        token_id, user_id = found
        return AccessToken(
            token=token,
            client_id=f"mcp-token:{token_id}",
            subject=str(user_id),
            scopes=[],
            claims={"token_id": token_id, "user_id": user_id},
        )


def _authenticate(raw: str) -> tuple[int, int] | None:
    token = mcp_token_authenticate(raw=raw)
    if token is None:
        return None
    mcp_token_touch(token=token)
    return token.id, token.user_id
