"""Tool-call records: delete approvals and replay protection.

Both carry the thread as a bare UUID: the thread model belongs to the chat loop's half of the app, and a
record must outlive nothing it points at (a thread deleted with its approvals pending simply leaves them to
expire unused).
"""

import uuid

from django.conf import settings
from django.db import models

__all__ = ["Approval", "ToolExecution"]


class ToolExecution(models.Model):
    """One mutation tool call, recorded with its outcome in the same transaction as its effect.

    The unique (user, call_id) row is the replay guard: a second run of the same call finds it and returns the
    stored outcome; two racing runs collide on the constraint and the loser's writes roll back.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tool_executions")
    thread_id = models.UUIDField(null=True, blank=True)
    call_id = models.CharField(max_length=128)
    tool = models.CharField(max_length=64)
    tool_input = models.JSONField(default=dict)
    output = models.JSONField(default=dict)
    is_error = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

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

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tool_approvals")
    thread_id = models.UUIDField()
    call_id = models.CharField(max_length=128)
    tool = models.CharField(max_length=64)
    arguments = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    expires_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    result_is_error = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["user", "call_id"], name="tool_approval_unique_call")]

    def __str__(self):
        return f"{self.tool} {self.status} ({self.call_id})"
