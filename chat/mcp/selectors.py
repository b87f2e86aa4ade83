"""Reading MCP tokens."""

from chat.models import McpToken


def mcp_token_active(*, user) -> McpToken | None:
    return McpToken.objects.filter(user=user, revoked_at__isnull=True).first()


def mcp_token_authenticate(*, raw: str) -> McpToken | None:
    """The active token whose hash matches, with its (active) user; None for anything else.

    Looked up by the hash of a 256-bit secret, so there is no secret-dependent comparison to time."""
    if not raw.startswith(McpToken.PREFIX) or len(raw) > 128:
        return None
    return (
        McpToken.objects.select_related("user")
        .filter(token_hash=McpToken.hash_of(raw), revoked_at__isnull=True, user__is_active=True)
        .first()
    )
