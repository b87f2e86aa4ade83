"""Per-user MCP tokens: the credential an MCP client sends as `Authorization: Bearer <token>` to /mcp.

Only the SHA-256 of the token is stored; the token itself is shown once, when it is created. A user has at
most one active token: creating a new one revokes the old.
"""

import hashlib

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

__all__ = ["McpToken"]


class McpToken(models.Model):
    PREFIX = "zmcp_"  # tells an MCP token apart from the REST API's token at a glance

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mcp_tokens", verbose_name=_("user")
    )
    token_hash = models.CharField(max_length=64, unique=True, verbose_name=_("token hash"))
    # The first characters of the token, so the user can tell which one is active without seeing it.
    prefix = models.CharField(max_length=16, verbose_name=_("prefix"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    last_used_at = models.DateTimeField(null=True, blank=True, verbose_name=_("last used at"))
    revoked_at = models.DateTimeField(null=True, blank=True, verbose_name=_("revoked at"))

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=models.Q(revoked_at__isnull=True), name="mcp_token_one_active_per_user"
            )
        ]

    def __str__(self):
        return f"{self.prefix}… ({'revoked' if self.revoked_at else 'active'})"

    @staticmethod
    def hash_of(raw: str) -> str:
        return hashlib.sha256(raw.encode()).hexdigest()
