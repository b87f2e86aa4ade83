"""Operations records: what each turn did and cost, the daily token counters and budgets, staff replies.

Audit rows point at users, threads and messages with SET_NULL where the target may go away, so the cost
history outlives a deleted thread. A TurnRun carries its totals (tokens, counts) denormalized, so the
usage summary aggregates one table without joining its children.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from chat.models.conversation import Message, Thread

__all__ = ["AdminReply", "DailyUsage", "ModelCall", "TokenBudget", "ToolCall", "TurnRun"]


class TurnRun(models.Model):
    class Outcome(models.TextChoices):
        OK = "ok"
        ERROR = "error"
        ABORTED = "aborted"

    class DecidedBy(models.TextChoices):
        PATTERN = "pattern"
        MODEL = "model"
        DEFAULT = "default"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_turn_runs")
    thread = models.ForeignKey(Thread, on_delete=models.SET_NULL, null=True, blank=True, related_name="runs")
    user_message = models.ForeignKey(Message, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    assistant_message = models.ForeignKey(Message, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    admin_initiated = models.BooleanField(default=False)
    # The user's local date when the turn started: the usage summary and the daily budget count by it.
    day = models.DateField()
    workflow = models.CharField(max_length=32, blank=True)
    decided_by = models.CharField(max_length=10, choices=DecidedBy.choices, blank=True)
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField()
    duration_ms = models.PositiveIntegerField(default=0)
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    error_code = models.CharField(max_length=32, blank=True)
    model_calls = models.PositiveSmallIntegerField(default=0)
    tool_calls = models.PositiveSmallIntegerField(default=0)
    tool_errors = models.PositiveSmallIntegerField(default=0)
    input_tokens = models.PositiveIntegerField(default=0)
    output_tokens = models.PositiveIntegerField(default=0)
    cache_read_tokens = models.PositiveIntegerField(default=0)
    cache_write_tokens = models.PositiveIntegerField(default=0)
    # USD, to the micro-dollar (chat/pricing.py): the sum of its model calls' costs, router calls included.
    cost_usd = models.DecimalField(max_digits=12, decimal_places=6, default=0)
    # Money figures and percentages of the reply that no tool result of the turn supports (chat/figures.py).
    unverified_figures = models.JSONField(default=list, blank=True)
    unverified_count = models.PositiveSmallIntegerField(default=0)

    class Meta:
        verbose_name = _("turn run")
        verbose_name_plural = _("turn runs")
        ordering = ["-started_at", "-id"]
        indexes = [
            models.Index(fields=["user", "-started_at"]),
            models.Index(fields=["day", "user"]),
        ]

    def __str__(self):
        return f"turn #{self.pk} ({self.outcome})"


class ModelCall(models.Model):
    class Purpose(models.TextChoices):
        MAIN = "main"
        ROUTER = "router"

    run = models.ForeignKey(TurnRun, on_delete=models.CASCADE, related_name="model_call_rows")
    seq = models.PositiveSmallIntegerField()
    purpose = models.CharField(max_length=10, choices=Purpose.choices)
    model = models.CharField(max_length=64)
    duration_ms = models.PositiveIntegerField(default=0)
    input_tokens = models.PositiveIntegerField(default=0)
    output_tokens = models.PositiveIntegerField(default=0)
    cache_read_tokens = models.PositiveIntegerField(default=0)
    cache_write_tokens = models.PositiveIntegerField(default=0)
    stop_reason = models.CharField(max_length=32, blank=True)
    error = models.CharField(max_length=32, blank=True)
    cost_usd = models.DecimalField(max_digits=12, decimal_places=6, default=0)

    class Meta:
        ordering = ["run", "seq"]

    def __str__(self):
        return f"{self.purpose} call {self.seq} of turn #{self.run_id}"


class ToolCall(models.Model):
    run = models.ForeignKey(TurnRun, on_delete=models.CASCADE, related_name="tool_call_rows")
    seq = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=64)
    call_id = models.CharField(max_length=128)
    duration_ms = models.PositiveIntegerField(default=0)
    is_error = models.BooleanField(default=False)
    error_code = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["run", "seq"]

    def __str__(self):
        return f"{self.name} ({self.call_id})"


class DailyUsage(models.Model):
    """What a user's turns spent on one local day, bumped with F() after model calls: budget tokens (input and
    output, cache reads and writes weighted by their price, chat/pricing.py) and USD."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_daily_usage")
    day = models.DateField()
    tokens = models.PositiveBigIntegerField(default=0)
    cost_usd = models.DecimalField(max_digits=14, decimal_places=6, default=0)
    reset_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("daily usage")
        verbose_name_plural = _("daily usage")
        ordering = ["-day", "user"]
        constraints = [models.UniqueConstraint(fields=["user", "day"], name="chat_daily_usage_unique_day")]

    def __str__(self):
        return f"{self.user} on {self.day}: {self.tokens}"


class TokenBudget(models.Model):
    """A per-user override of ZEUS_DAILY_TOKEN_BUDGET and/or ZEUS_DAILY_COST_BUDGET_USD; an empty field
    leaves that setting in force, 0 means unlimited for this user."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_token_budget")
    daily_tokens = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Tokens a day (cache reads and writes weighted by price); 0 means unlimited; empty: the setting.",
    )
    daily_cost_usd = models.DecimalField(
        max_digits=10,
        decimal_places=2,
        null=True,
        blank=True,
        help_text="USD a day; 0 means unlimited; empty: ZEUS_DAILY_COST_BUDGET_USD.",
    )
    note = models.CharField(max_length=200, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("token budget")
        verbose_name_plural = _("token budgets")

    def __str__(self):
        return f"budget of {self.user}: {self.daily_tokens}"


class AdminReply(models.Model):
    """One staff-generated assistant reply (docs/contract/admin.md). The prompt is kept here, for staff eyes only:
    it never becomes a message, but support must be able to see why the assistant said what it said."""

    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    thread = models.ForeignKey(Thread, on_delete=models.SET_NULL, null=True, related_name="admin_replies")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    message = models.ForeignKey(Message, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    prompt = models.TextField()
    error_code = models.CharField(max_length=32, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("admin reply")
        verbose_name_plural = _("admin replies")
        ordering = ["-created_at", "-id"]
        permissions = [("reply_as_assistant", "Can generate an assistant reply in a user's thread")]

    def __str__(self):
        return f"reply by {self.staff} at {self.created_at:%Y-%m-%d %H:%M}"
