from django.conf import settings
from django.db import models


class PushSubscription(models.Model):
    """A browser's Web Push subscription (the PushSubscription's endpoint and keys, RFC 8291): where the
    inbox's notifications are pushed when push is on (docs/push.md). Removed when the push service answers
    404 or 410 for it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    # A browser's endpoint is its own: the same one sent by another user moves the subscription to them.
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100, help_text="The browser's P-256 public key, base64url.")
    auth = models.CharField(max_length=50, help_text="The browser's authentication secret, base64url.")
    created_at = models.DateTimeField(auto_now_add=True)
    last_pushed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"push {self.user_id} {self.endpoint[:60]}"
