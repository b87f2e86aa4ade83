import datetime as dt

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from assets import categories
from plans.forecast_models import ForecastWatch  # noqa: F401  (the plans app's model too)
from zeus.money import DECIMAL_PLACES, MAX_DIGITS, currency_choices


def _money(**kwargs):
    return models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, **kwargs)


class MonthlyPlan(models.Model):
    """One month's split of expected income into fixed, essential, goal and safe-to-spend money.

    The allocation columns are the figures in force: computed from the inputs (plans/math.py) on create,
    update and activation, then moved between goal and safe-to-spend by accepted rebalances.
    """

    class Status(models.TextChoices):
        DRAFT = "draft"
        ACTIVE = "active"
        COMPLETED = "completed"

    class Mode(models.TextChoices):
        SAVER = "saver"
        BALANCED = "balanced"
        RELAXED = "relaxed"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="monthly_plans", verbose_name=_("user")
    )
    month = models.DateField(help_text=_("The first day of the month."), verbose_name=_("month"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT, verbose_name=_("status"))
    currency = models.CharField(max_length=3, choices=currency_choices, verbose_name=_("currency"))
    lifestyle_mode = models.CharField(
        max_length=10, choices=Mode.choices, default=Mode.BALANCED, verbose_name=_("lifestyle mode")
    )
    expected_income = _money(verbose_name=_("expected income"))
    essential_spending = _money(
        null=True, blank=True, help_text=_("Override of the essential share."), verbose_name=_("essential spending")
    )
    primary_goal = models.ForeignKey(
        "goals.Goal",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="monthly_plans",
        verbose_name=_("primary goal"),
    )
    reminders_enabled = models.BooleanField(default=True, verbose_name=_("reminders enabled"))
    reminder_time = models.TimeField(
        default=dt.time(20, 0), help_text=_("Local time in the user's timezone."), verbose_name=_("reminder time")
    )
    activated_on = models.DateField(null=True, blank=True, verbose_name=_("activated on"))
    alloc_fixed = _money(default=0, verbose_name=_("alloc fixed"))
    alloc_essential = _money(default=0, verbose_name=_("alloc essential"))
    alloc_goal = _money(default=0, verbose_name=_("alloc goal"))
    alloc_safe = _money(default=0, verbose_name=_("alloc safe"))
    # The warning state the user dismissed; hidden while the state stays the same.
    dismissed_warning = models.CharField(max_length=20, blank=True, verbose_name=_("dismissed warning"))
    summary = models.JSONField(null=True, blank=True, encoder=DjangoJSONEncoder, verbose_name=_("summary"))
    completed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("completed at"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("monthly plan")
        verbose_name_plural = _("monthly plans")
        ordering = ["-month", "-id"]
        indexes = [
            models.Index(fields=["user", "-month", "-id"]),
            # The reminder and month-end jobs select active plans by month (and reminder time).
            models.Index(
                fields=["month", "reminder_time"],
                condition=Q(status="active", reminders_enabled=True),
                name="plan_reminder_due_idx",
            ),
            models.Index(fields=["month"], condition=Q(status="active"), name="plan_active_month_idx"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "month"], condition=Q(status="active"), name="plan_one_active_per_user_month"
            ),
            models.CheckConstraint(condition=Q(expected_income__gte=0), name="plan_income_not_negative"),
        ]

    def __str__(self):
        return f"{self.user} {self.month:%Y-%m} ({self.status})"


class FixedExpense(models.Model):
    plan = models.ForeignKey(
        MonthlyPlan, on_delete=models.CASCADE, related_name="fixed_expenses", verbose_name=_("plan")
    )
    name = models.CharField(max_length=100, verbose_name=_("name"))
    amount = _money(verbose_name=_("amount"))
    category = models.CharField(max_length=20, choices=categories.EXPENSE_CHOICES, verbose_name=_("category"))
    position = models.PositiveSmallIntegerField(default=0, verbose_name=_("position"))

    class Meta:
        ordering = ["position", "id"]
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="fixed_expense_amount_positive")]

    def __str__(self):
        return f"{self.name}: {self.amount}"


class EntryKind(models.TextChoices):
    """What a plan's progress entry is (POST /plans/{id}/entries): spending becomes a row of the ledger
    (assets.Transaction), a goal contribution a PlanEntry."""

    DISCRETIONARY = "discretionary"
    GOAL = "goal"


class PlanEntry(models.Model):
    """A contribution to the primary goal logged against a plan. No spending: that is a ledger row."""

    plan = models.ForeignKey(MonthlyPlan, on_delete=models.CASCADE, related_name="entries", verbose_name=_("plan"))
    amount = _money(verbose_name=_("amount"))
    note = models.CharField(max_length=200, blank=True, verbose_name=_("note"))
    logged_on = models.DateField(help_text=_("The user's local date when logged."), verbose_name=_("logged on"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("plan entry")
        verbose_name_plural = _("plan entries")
        ordering = ["-created_at", "-id"]
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="plan_entry_amount_positive")]

    def __str__(self):
        return f"goal {self.amount} on {self.logged_on}"


class Rebalance(models.Model):
    """An accepted rebalance: what moved, the allocations before and after, and the warning it answered."""

    plan = models.ForeignKey(MonthlyPlan, on_delete=models.CASCADE, related_name="rebalances", verbose_name=_("plan"))
    kind = models.CharField(max_length=20, verbose_name=_("kind"))
    warning_state = models.CharField(max_length=20, verbose_name=_("warning state"))
    amount = _money(verbose_name=_("amount"))
    before = models.JSONField(encoder=DjangoJSONEncoder, verbose_name=_("before"))
    after = models.JSONField(encoder=DjangoJSONEncoder, verbose_name=_("after"))
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("accepted by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("rebalance")
        verbose_name_plural = _("rebalances")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["plan", "warning_state"], name="rebalance_once_per_warning_state")
        ]

    def __str__(self):
        return f"{self.kind} {self.amount} ({self.warning_state})"


class PlanRevision(models.Model):
    """An edit of a plan in force: its inputs and allocations before and after (plans.services.plan_update),
    so a month's plan that changed mid-month still says what it was."""

    plan = models.ForeignKey(MonthlyPlan, on_delete=models.CASCADE, related_name="revisions", verbose_name=_("plan"))
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("changed by"),
    )
    before = models.JSONField(encoder=DjangoJSONEncoder, verbose_name=_("before"))
    after = models.JSONField(encoder=DjangoJSONEncoder, verbose_name=_("after"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("plan revision")
        verbose_name_plural = _("plan revisions")
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"revision {self.plan_id} {self.created_at:%Y-%m-%d %H:%M}"


class ReminderLog(models.Model):
    """One row per reminder sent: the unique (plan, local_date) is the claim that makes the job idempotent."""

    plan = models.ForeignKey(
        MonthlyPlan, on_delete=models.CASCADE, related_name="reminder_logs", verbose_name=_("plan")
    )
    local_date = models.DateField(verbose_name=_("local date"))
    # The run that inserted the row, so a run notifies only for the rows it claimed.
    run_id = models.UUIDField(db_index=True, verbose_name=_("run id"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("reminder log")
        verbose_name_plural = _("reminder logs")
        ordering = ["-local_date", "-id"]
        constraints = [models.UniqueConstraint(fields=["plan", "local_date"], name="reminder_once_per_local_date")]

    def __str__(self):
        return f"reminder {self.plan_id} {self.local_date}"


class IdempotencyRecord(models.Model):
    """The first response to a POST carrying an Idempotency-Key, replayed for the same key and body."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    key = models.CharField(max_length=255, verbose_name=_("key"))
    fingerprint = models.CharField(
        max_length=64, help_text=_("sha256 of method, path and body."), verbose_name=_("fingerprint")
    )
    status_code = models.PositiveSmallIntegerField(verbose_name=_("status code"))
    body = models.JSONField(null=True, encoder=DjangoJSONEncoder, verbose_name=_("body"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("idempotency record")
        verbose_name_plural = _("idempotency records")
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_unique_per_user")]

    def __str__(self):
        return f"{self.user_id}:{self.key}"
