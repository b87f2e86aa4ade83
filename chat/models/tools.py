"""Tool-call records: delete approvals and replay protection.

Both carry the thread as a bare UUID: the thread model belongs to the chat loop's half of the app, and a
record must outlive nothing it points at (a thread deleted with its approvals pending simply leaves them to
expire unused).
"""

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

__all__ = ["Approval", "ToolExecution"]


class ToolExecution(models.Model):
    """One mutation tool call, recorded with its outcome in the same transaction as its effect.

    The unique (user, call_id) row is the replay guard: a second run of the same call finds it and returns the
    stored outcome; two racing runs collide on the constraint and the loser's writes roll back.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tool_executions", verbose_name=_("user")
    )
    thread_id = models.UUIDField(null=True, blank=True, verbose_name=_("thread id"))
    call_id = models.CharField(max_length=128, verbose_name=_("call id"))
    tool = models.CharField(max_length=64, verbose_name=_("tool"))
    tool_input = models.JSONField(default=dict, verbose_name=_("tool input"))
    output = models.JSONField(default=dict, verbose_name=_("output"))
    is_error = models.BooleanField(default=False, verbose_name=_("is error"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["user", "call_id"], name="tool_execution_unique_call")]

    def __str__(self):
        return f"{self.tool} {self.call_id}"


class Approval(models.Model):
    """A delete waiting for the user's click: bound to user, thread, call id, tool and the exact arguments.

    Claimed with a conditional UPDATE (pending and unexpired → decided), so it runs at most once however
    many clicks race for it.
    """

    class Status(models.TextChoices):
        PENDING = "pending"
        APPROVED = "approved"
        REJECTED = "rejected"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("id"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tool_approvals", verbose_name=_("user")
    )
    thread_id = models.UUIDField(verbose_name=_("thread id"))
    call_id = models.CharField(max_length=128, verbose_name=_("call id"))
    tool = models.CharField(max_length=64, verbose_name=_("tool"))
    arguments = models.JSONField(default=dict, verbose_name=_("arguments"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, verbose_name=_("status"))
    expires_at = models.DateTimeField(verbose_name=_("expires at"))
    decided_at = models.DateTimeField(null=True, blank=True, verbose_name=_("decided at"))
    result = models.JSONField(null=True, blank=True, verbose_name=_("result"))
    result_is_error = models.BooleanField(default=False, verbose_name=_("result is error"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["user", "call_id"], name="tool_approval_unique_call")]

    def __str__(self):
        return f"{self.tool} {self.status} ({self.call_id})"
