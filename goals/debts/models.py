"""What is owed, between the user and one person or lender, and the payments against it."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from zeus.money import DECIMAL_PLACES, MAX_DIGITS, currency_choices


class Debt(models.Model):
    class Direction(models.TextChoices):
        I_OWE = "i_owe"
        OWED_TO_ME = "owed_to_me"

    class Method(models.TextChoices):
        FLAT = "flat"
        REDUCING = "reducing"

    class Status(models.TextChoices):
        OPEN = "open"
        SETTLED = "settled"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="debts", verbose_name=_("user")
    )
    direction = models.CharField(max_length=12, choices=Direction.choices, verbose_name=_("direction"))
    counterparty = models.CharField(max_length=100, verbose_name=_("counterparty"))
    note = models.CharField(max_length=200, blank=True, verbose_name=_("note"))
    principal = models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, verbose_name=_("principal"))
    currency = models.CharField(max_length=3, choices=currency_choices, verbose_name=_("currency"))
    opened_on = models.DateField(verbose_name=_("opened on"))
    interest_rate = models.DecimalField(
        max_digits=7, decimal_places=4, default=0, verbose_name=_("interest rate")
    )  # yearly %
    interest_method = models.CharField(
        max_length=10, choices=Method.choices, default=Method.FLAT, verbose_name=_("interest method")
    )
    due_on = models.DateField(null=True, blank=True, verbose_name=_("due on"))
    installments = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("installments"))
    first_due_on = models.DateField(null=True, blank=True, verbose_name=_("first due on"))
    # The transfer purpose `ZEUS<code>` a VietQR carries: a feed delivery naming it is a payment of this debt.
    code = models.CharField(max_length=8, unique=True, editable=False, verbose_name=_("code"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, verbose_name=_("status"))
    settled_on = models.DateField(null=True, blank=True, verbose_name=_("settled on"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("debt")
        verbose_name_plural = _("debts")
        app_label = "goals"
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "-created_at", "-id"]), models.Index(fields=["status", "user"])]
        constraints = [
            models.CheckConstraint(condition=Q(principal__gt=0), name="debt_principal_positive"),
            models.CheckConstraint(
                condition=Q(interest_rate__gte=0, interest_rate__lte=100), name="debt_interest_rate_range"
            ),
            models.CheckConstraint(
                condition=Q(due_on__isnull=True) | Q(installments__isnull=True), name="debt_due_or_installments"
            ),
        ]

    def __str__(self):
        return f"{self.counterparty} ({self.direction}): {self.principal} {self.currency}"

    @property
    def purpose(self) -> str:
        return f"ZEUS{self.code}"


class DebtPayment(models.Model):
    debt = models.ForeignKey(Debt, on_delete=models.CASCADE, related_name="payments", verbose_name=_("debt"))
    amount = models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, verbose_name=_("amount"))
    paid_on = models.DateField(verbose_name=_("paid on"))
    transaction = models.ForeignKey(
        "assets.Transaction",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="debt_payments",
        verbose_name=_("transaction"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        app_label = "goals"
        ordering = ["-paid_on", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="debt_payment_amount_positive"),
            # One ledger row pays a debt once: a re-delivered feed row, or the same row linked twice, adds nothing.
            models.UniqueConstraint(
                fields=["debt", "transaction"], condition=Q(transaction__isnull=False), name="debt_payment_once"
            ),
        ]

    def __str__(self):
        return f"{self.paid_on} {self.amount}"


class DebtReminder(models.Model):
    """A reminder sent for one instalment: the unique row is the claim, so a re-run sends nothing twice."""

    debt = models.ForeignKey(Debt, on_delete=models.CASCADE, related_name="reminders", verbose_name=_("debt"))
    due_on = models.DateField(verbose_name=_("due on"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        app_label = "goals"
        constraints = [models.UniqueConstraint(fields=["debt", "due_on"], name="debt_reminder_once")]

    def __str__(self):
        return f"{self.debt_id} {self.due_on}"
