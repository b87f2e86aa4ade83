from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class PushSubscription(models.Model):
    """A browser's Web Push subscription (the PushSubscription's endpoint and keys, RFC 8291): where the
    inbox's notifications are pushed when push is on (docs/push.md). Removed when the push service answers
    404 or 410 for it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions", verbose_name=_("user")
    )
    # A browser's endpoint is its own: the same one sent by another user moves the subscription to them.
    endpoint = models.URLField(max_length=1000, unique=True, verbose_name=_("endpoint"))
    p256dh = models.CharField(
        max_length=100, help_text=_("The browser's P-256 public key, base64url."), verbose_name=_("p256dh")
    )
    auth = models.CharField(
        max_length=50, help_text=_("The browser's authentication secret, base64url."), verbose_name=_("auth")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    last_pushed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("last pushed at"))

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"push {self.user_id} {self.endpoint[:60]}"
