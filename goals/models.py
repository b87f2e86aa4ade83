from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from assets import categories
from goals.debts.models import Debt, DebtPayment, DebtReminder  # noqa: F401  (the goals app's models too)
from zeus.money import DECIMAL_PLACES, MAX_DIGITS, currency_choices


class Goal(models.Model):
    class Kind(models.TextChoices):
        HOUSE = "house"
        RETIREMENT = "retirement"
        SAVINGS = "savings"
        EDUCATION = "education"
        EMERGENCY_FUND = "emergency_fund"
        OTHER = "other"

    class Status(models.TextChoices):
        ACTIVE = "active"
        ACHIEVED = "achieved"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="goals", verbose_name=_("user")
    )
    name = models.CharField(max_length=100, verbose_name=_("name"))
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.SAVINGS, verbose_name=_("kind"))
    target_amount = models.DecimalField(
        max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, verbose_name=_("target amount")
    )
    current_amount = models.DecimalField(
        max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, default=0, verbose_name=_("current amount")
    )
    currency = models.CharField(max_length=3, choices=currency_choices, verbose_name=_("currency"))
    deadline = models.DateField(verbose_name=_("deadline"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE, verbose_name=_("status"))
    # The day progress is measured from, in the user's timezone: on_track compares against a straight line.
    started_on = models.DateField(verbose_name=_("started on"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("goal")
        verbose_name_plural = _("goals")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "-created_at", "-id"])]
        constraints = [
            models.CheckConstraint(condition=Q(target_amount__gt=0), name="goal_target_positive"),
            models.CheckConstraint(condition=Q(current_amount__gte=0), name="goal_current_not_negative"),
        ]

    def __str__(self):
        return self.name


class Budget(models.Model):
    """A monthly spending limit for one expense category."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="budgets", verbose_name=_("user")
    )
    category = models.CharField(max_length=20, choices=categories.EXPENSE_CHOICES, verbose_name=_("category"))
    amount = models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, verbose_name=_("amount"))
    currency = models.CharField(max_length=3, choices=currency_choices, verbose_name=_("currency"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("budget")
        verbose_name_plural = _("budgets")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "category"], name="budget_unique_category"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="budget_amount_positive"),
        ]

    def __str__(self):
        return f"{self.category}: {self.amount} {self.currency}"
