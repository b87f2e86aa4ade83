"""Threads, their messages, and a user's personal provider key."""

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

__all__ = ["Message", "ProviderKey", "SentToModel", "Thread"]


class Thread(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("id"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_threads", verbose_name=_("user")
    )
    title = models.CharField(max_length=120, null=True, blank=True, verbose_name=_("title"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    last_activity_at = models.DateTimeField(auto_now_add=True, db_index=True, verbose_name=_("last activity at"))

    class Meta:
        verbose_name = _("chat thread")
        verbose_name_plural = _("chat threads")
        ordering = ["-last_activity_at", "-created_at"]
        indexes = [models.Index(fields=["user", "-last_activity_at"])]

    def __str__(self):
        return self.title or f"Thread {self.id}"


class Message(models.Model):
    """One user or assistant message. The auto-increment id is the order within a thread: turns in a
    thread are serialized by the turn lock, so ids never interleave inside one thread."""

    class Role(models.TextChoices):
        USER = "user"
        ASSISTANT = "assistant"

    thread = models.ForeignKey(Thread, on_delete=models.CASCADE, related_name="messages", verbose_name=_("thread"))
    role = models.CharField(max_length=10, choices=Role.choices, verbose_name=_("role"))
    parts = models.JSONField(default=list, verbose_name=_("parts"))
    metadata = models.JSONField(default=dict, blank=True, verbose_name=_("metadata"))
    # The client's `user_message` / `ui_event` id: the idempotency key of a turn.
    client_id = models.CharField(max_length=64, null=True, blank=True, verbose_name=_("client id"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["thread", "-id"])]
        constraints = [
            models.UniqueConstraint(
                fields=["thread", "client_id"],
                condition=models.Q(client_id__isnull=False),
                name="chat_message_unique_client_id",
            )
        ]

    def __str__(self):
        return f"{self.role} #{self.pk}"


class ProviderKey(models.Model):
    """A user's own Anthropic API key, Fernet-encrypted (chat.crypto). Never leaves the server."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_provider_key", verbose_name=_("user")
    )
    ciphertext = models.TextField(verbose_name=_("ciphertext"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    def __str__(self):
        return f"provider key of {self.user_id}"


class SentToModel(models.Model):
    """What one turn sent to the model provider, kept with the reply it produced so the user can read it under
    that reply (CONTRACT §10; the shape is chat/turn/sent.py's). Written in the transaction that stores the
    reply; gone with it."""

    message = models.OneToOneField(
        Message, on_delete=models.CASCADE, primary_key=True, related_name="sent_to_model", verbose_name=_("message")
    )
    content = models.JSONField(verbose_name=_("content"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    def __str__(self):
        return f"sent for message {self.message_id}"
