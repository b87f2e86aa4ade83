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

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="monthly_plans")
    month = models.DateField(help_text="The first day of the month.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    currency = models.CharField(max_length=3, choices=currency_choices)
    lifestyle_mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.BALANCED)
    expected_income = _money()
    essential_spending = _money(null=True, blank=True, help_text="Override of the essential share.")
    primary_goal = models.ForeignKey(
        "goals.Goal", null=True, blank=True, on_delete=models.SET_NULL, related_name="monthly_plans"
    )
    reminders_enabled = models.BooleanField(default=True)
    reminder_time = models.TimeField(default=dt.time(20, 0), help_text="Local time in the user's timezone.")
    activated_on = models.DateField(null=True, blank=True)
    alloc_fixed = _money(default=0)
    alloc_essential = _money(default=0)
    alloc_goal = _money(default=0)
    alloc_safe = _money(default=0)
    # The warning state the user dismissed; hidden while the state stays the same.
    dismissed_warning = models.CharField(max_length=20, blank=True)
    summary = models.JSONField(null=True, blank=True, encoder=DjangoJSONEncoder)
    completed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

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
    plan = models.ForeignKey(MonthlyPlan, on_delete=models.CASCADE, related_name="fixed_expenses")
    name = models.CharField(max_length=100)
    amount = _money()
    category = models.CharField(max_length=20, choices=categories.EXPENSE_CHOICES)
    position = models.PositiveSmallIntegerField(default=0)

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

    plan = models.ForeignKey(MonthlyPlan, on_delete=models.CASCADE, related_name="entries")
    amount = _money()
    note = models.CharField(max_length=200, blank=True)
    logged_on = models.DateField(help_text="The user's local date when logged.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("plan entry")
        verbose_name_plural = _("plan entries")
        ordering = ["-created_at", "-id"]
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="plan_entry_amount_positive")]

    def __str__(self):
        return f"goal {self.amount} on {self.logged_on}"


class Rebalance(models.Model):
    """An accepted rebalance: what moved, the allocations before and after, and the warning it answered."""

    plan = models.ForeignKey(MonthlyPlan, on_delete=models.CASCADE, related_name="rebalances")
    kind = models.CharField(max_length=20)
    warning_state = models.CharField(max_length=20)
    amount = _money()
    before = models.JSONField(encoder=DjangoJSONEncoder)
    after = models.JSONField(encoder=DjangoJSONEncoder)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

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

    plan = models.ForeignKey(MonthlyPlan, on_delete=models.CASCADE, related_name="revisions")
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    before = models.JSONField(encoder=DjangoJSONEncoder)
    after = models.JSONField(encoder=DjangoJSONEncoder)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("plan revision")
        verbose_name_plural = _("plan revisions")
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"revision {self.plan_id} {self.created_at:%Y-%m-%d %H:%M}"


class ReminderLog(models.Model):
    """One row per reminder sent: the unique (plan, local_date) is the claim that makes the job idempotent."""

    plan = models.ForeignKey(MonthlyPlan, on_delete=models.CASCADE, related_name="reminder_logs")
    local_date = models.DateField()
    # The run that inserted the row, so a run notifies only for the rows it claimed.
    run_id = models.UUIDField(db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("reminder log")
        verbose_name_plural = _("reminder logs")
        ordering = ["-local_date", "-id"]
        constraints = [models.UniqueConstraint(fields=["plan", "local_date"], name="reminder_once_per_local_date")]

    def __str__(self):
        return f"reminder {self.plan_id} {self.local_date}"


class IdempotencyRecord(models.Model):
    """The first response to a POST carrying an Idempotency-Key, replayed for the same key and body."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64, help_text="sha256 of method, path and body.")
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField(null=True, encoder=DjangoJSONEncoder)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("idempotency record")
        verbose_name_plural = _("idempotency records")
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_unique_per_user")]

    def __str__(self):
        return f"{self.user_id}:{self.key}"
