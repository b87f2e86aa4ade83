"""Creating and revoking a user's MCP token."""

import datetime as dt
import secrets
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from chat.models import McpToken
from zeus.services import profile_lock

TOUCH_EVERY = dt.timedelta(minutes=1)


@dataclass(frozen=True)
class IssuedToken:
    token: McpToken
    raw: str  # shown to the user once; only its hash is stored


def mcp_token_create(*, user) -> IssuedToken:
    """A new token for the user; their previous one (if any) stops working at once."""
    raw = McpToken.PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        # Two concurrent creations for one user take turns here instead of racing for the one active slot.
        profile_lock(user=user)
        McpToken.objects.filter(user=user, revoked_at__isnull=True).update(revoked_at=timezone.now())
        prefix = raw[: len(McpToken.PREFIX) + 6]
        token = McpToken.objects.create(user=user, token_hash=McpToken.hash_of(raw), prefix=prefix)
    return IssuedToken(token=token, raw=raw)


def mcp_token_revoke(*, user) -> int:
    """Revokes the user's active token; returns how many were revoked (0 or 1)."""
    return McpToken.objects.filter(user=user, revoked_at__isnull=True).update(revoked_at=timezone.now())


def mcp_token_touch(*, token: McpToken) -> None:
    """Records use, at most once a minute per token, so a busy client does not write on every call."""
    now = timezone.now()
    stale_before = now - TOUCH_EVERY
    if token.last_used_at is not None and token.last_used_at >= stale_before:
        return
    # Conditional, so concurrent requests of one token write once.
    stale = Q(last_used_at__isnull=True) | Q(last_used_at__lt=stale_before)
    McpToken.objects.filter(stale, id=token.id).update(last_used_at=now)
