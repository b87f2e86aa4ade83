"""The bank feeds' connections: a user's SePay and Casso webhooks (assets/feeds)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class SepayConnection(models.Model):
    """A user's SePay webhook: the URL SePay posts to carries `token`; the secret authenticates each delivery
    (API key or HMAC-SHA256), stored encrypted because HMAC needs it back. Deleting it stops deliveries."""

    class Auth(models.TextChoices):
        API_KEY = "api_key"
        HMAC = "hmac"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sepay_connections", verbose_name=_("user")
    )
    name = models.CharField(max_length=100, verbose_name=_("name"))
    auth = models.CharField(max_length=10, choices=Auth.choices, verbose_name=_("auth"))
    token = models.CharField(max_length=64, unique=True, editable=False, verbose_name=_("token"))
    secret_encrypted = models.TextField(editable=False, verbose_name=_("secret encrypted"))
    # SePay's API token (optional, encrypted): lets the daily reconciliation ask SePay what a lost webhook missed.
    api_token_encrypted = models.TextField(
        blank=True, default="", editable=False, verbose_name=_("api token encrypted")
    )
    last_delivery_at = models.DateTimeField(null=True, blank=True, verbose_name=_("last delivery at"))
    last_pulled_at = models.DateTimeField(null=True, blank=True, verbose_name=_("last pulled at"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("SePay connection")
        verbose_name_plural = _("SePay connections")
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"SePay {self.name}"


class CassoConnection(models.Model):
    """A user's Casso webhook (v2): the URL Casso posts to carries `token`; `secret` is the key Casso signs each
    delivery with (HMAC-SHA512), stored encrypted. `api_key_encrypted` (optional) is the user's Casso API key,
    for the daily reconciliation pull."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="casso_connections", verbose_name=_("user")
    )
    name = models.CharField(max_length=100, verbose_name=_("name"))
    token = models.CharField(max_length=64, unique=True, editable=False, verbose_name=_("token"))
    secret_encrypted = models.TextField(editable=False, verbose_name=_("secret encrypted"))
    api_key_encrypted = models.TextField(blank=True, default="", editable=False, verbose_name=_("api key encrypted"))
    last_delivery_at = models.DateTimeField(null=True, blank=True, verbose_name=_("last delivery at"))
    last_pulled_at = models.DateTimeField(null=True, blank=True, verbose_name=_("last pulled at"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"Casso {self.name}"
