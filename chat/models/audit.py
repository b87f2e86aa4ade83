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

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_turn_runs", verbose_name=_("user")
    )
    thread = models.ForeignKey(
        Thread, on_delete=models.SET_NULL, null=True, blank=True, related_name="runs", verbose_name=_("thread")
    )
    user_message = models.ForeignKey(
        Message, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("user message")
    )
    assistant_message = models.ForeignKey(
        Message, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("assistant message")
    )
    admin_initiated = models.BooleanField(default=False, verbose_name=_("admin initiated"))
    # The user's local date when the turn started: the usage summary and the daily budget count by it.
    day = models.DateField(verbose_name=_("day"))
    workflow = models.CharField(max_length=32, blank=True, verbose_name=_("workflow"))
    decided_by = models.CharField(max_length=10, choices=DecidedBy.choices, blank=True, verbose_name=_("decided by"))
    started_at = models.DateTimeField(verbose_name=_("started at"))
    finished_at = models.DateTimeField(verbose_name=_("finished at"))
    duration_ms = models.PositiveIntegerField(default=0, verbose_name=_("duration ms"))
    outcome = models.CharField(max_length=10, choices=Outcome.choices, verbose_name=_("outcome"))
    error_code = models.CharField(max_length=32, blank=True, verbose_name=_("error code"))
    model_calls = models.PositiveSmallIntegerField(default=0, verbose_name=_("model calls"))
    tool_calls = models.PositiveSmallIntegerField(default=0, verbose_name=_("tool calls"))
    tool_errors = models.PositiveSmallIntegerField(default=0, verbose_name=_("tool errors"))
    input_tokens = models.PositiveIntegerField(default=0, verbose_name=_("input tokens"))
    output_tokens = models.PositiveIntegerField(default=0, verbose_name=_("output tokens"))
    cache_read_tokens = models.PositiveIntegerField(default=0, verbose_name=_("cache read tokens"))
    cache_write_tokens = models.PositiveIntegerField(default=0, verbose_name=_("cache write tokens"))
    # USD, to the micro-dollar (chat/pricing.py): the sum of its model calls' costs, router calls included.
    cost_usd = models.DecimalField(max_digits=12, decimal_places=6, default=0, verbose_name=_("cost usd"))
    # Money figures and percentages of the reply that no tool result of the turn supports (chat/figures.py).
    unverified_figures = models.JSONField(default=list, blank=True, verbose_name=_("unverified figures"))
    unverified_count = models.PositiveSmallIntegerField(default=0, verbose_name=_("unverified count"))

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

    run = models.ForeignKey(TurnRun, on_delete=models.CASCADE, related_name="model_call_rows", verbose_name=_("run"))
    seq = models.PositiveSmallIntegerField(verbose_name=_("seq"))
    purpose = models.CharField(max_length=10, choices=Purpose.choices, verbose_name=_("purpose"))
    model = models.CharField(max_length=64, verbose_name=_("model"))
    duration_ms = models.PositiveIntegerField(default=0, verbose_name=_("duration ms"))
    input_tokens = models.PositiveIntegerField(default=0, verbose_name=_("input tokens"))
    output_tokens = models.PositiveIntegerField(default=0, verbose_name=_("output tokens"))
    cache_read_tokens = models.PositiveIntegerField(default=0, verbose_name=_("cache read tokens"))
    cache_write_tokens = models.PositiveIntegerField(default=0, verbose_name=_("cache write tokens"))
    stop_reason = models.CharField(max_length=32, blank=True, verbose_name=_("stop reason"))
    error = models.CharField(max_length=32, blank=True, verbose_name=_("error"))
    cost_usd = models.DecimalField(max_digits=12, decimal_places=6, default=0, verbose_name=_("cost usd"))

    class Meta:
        ordering = ["run", "seq"]

    def __str__(self):
        return f"{self.purpose} call {self.seq} of turn #{self.run_id}"


class ToolCall(models.Model):
    run = models.ForeignKey(TurnRun, on_delete=models.CASCADE, related_name="tool_call_rows", verbose_name=_("run"))
    seq = models.PositiveSmallIntegerField(verbose_name=_("seq"))
    name = models.CharField(max_length=64, verbose_name=_("name"))
    call_id = models.CharField(max_length=128, verbose_name=_("call id"))
    duration_ms = models.PositiveIntegerField(default=0, verbose_name=_("duration ms"))
    is_error = models.BooleanField(default=False, verbose_name=_("is error"))
    error_code = models.CharField(max_length=64, blank=True, verbose_name=_("error code"))

    class Meta:
        ordering = ["run", "seq"]

    def __str__(self):
        return f"{self.name} ({self.call_id})"


class DailyUsage(models.Model):
    """What a user's turns spent on one local day, bumped with F() after model calls: budget tokens (input and
    output, cache reads and writes weighted by their price, chat/pricing.py) and USD."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_daily_usage", verbose_name=_("user")
    )
    day = models.DateField(verbose_name=_("day"))
    tokens = models.PositiveBigIntegerField(default=0, verbose_name=_("tokens"))
    cost_usd = models.DecimalField(max_digits=14, decimal_places=6, default=0, verbose_name=_("cost usd"))
    reset_at = models.DateTimeField(null=True, blank=True, verbose_name=_("reset at"))

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

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_token_budget", verbose_name=_("user")
    )
    daily_tokens = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=_("Tokens a day (cache reads and writes weighted by price); 0 means unlimited; empty: the setting."),
        verbose_name=_("daily tokens"),
    )
    daily_cost_usd = models.DecimalField(
        max_digits=10,
        decimal_places=2,
        null=True,
        blank=True,
        help_text=_("USD a day; 0 means unlimited; empty: ZEUS_DAILY_COST_BUDGET_USD."),
        verbose_name=_("daily cost usd"),
    )
    note = models.CharField(max_length=200, blank=True, verbose_name=_("note"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("token budget")
        verbose_name_plural = _("token budgets")

    def __str__(self):
        return f"budget of {self.user}: {self.daily_tokens}"


class AdminReply(models.Model):
    """One staff-generated assistant reply (docs/contract/admin.md). The prompt is kept here, for staff eyes only:
    it never becomes a message, but support must be able to see why the assistant said what it said."""

    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+", verbose_name=_("staff")
    )
    thread = models.ForeignKey(
        Thread, on_delete=models.SET_NULL, null=True, related_name="admin_replies", verbose_name=_("thread")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+", verbose_name=_("user")
    )
    message = models.ForeignKey(
        Message, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("message")
    )
    prompt = models.TextField(verbose_name=_("prompt"))
    error_code = models.CharField(max_length=32, blank=True, verbose_name=_("error code"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("admin reply")
        verbose_name_plural = _("admin replies")
        ordering = ["-created_at", "-id"]
        permissions = [("reply_as_assistant", "Can generate an assistant reply in a user's thread")]

    def __str__(self):
        return f"reply by {self.staff} at {self.created_at:%Y-%m-%d %H:%M}"
