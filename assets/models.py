from django.conf import settings
from django.db import models
from django.db.models import Q

from assets import categories
from zeus.money import CURRENCY_CHOICES, DECIMAL_PLACES, MAX_DIGITS


class Source(models.TextChoices):
    MANUAL = "manual"
    SYNCED = "synced"


class LinkedAccount(models.Model):
    """An account at a bank or wallet that syncs into Zeus. Read only to the user."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="linked_accounts")
    institution = models.CharField(max_length=100)
    name = models.CharField(max_length=100)
    masked_number = models.CharField(max_length=32)
    balance = models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, default=0)
    currency = models.CharField(max_length=3, choices=CURRENCY_CHOICES)
    last_synced_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.institution} {self.name} {self.masked_number}"


class Asset(models.Model):
    class Kind(models.TextChoices):
        CASH = "cash"
        BANK_ACCOUNT = "bank_account"
        E_WALLET = "e_wallet"
        SAVINGS = "savings"
        INVESTMENT = "investment"
        PROPERTY = "property"
        VEHICLE = "vehicle"
        OTHER = "other"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="assets")
    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    balance = models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, default=0)
    currency = models.CharField(max_length=3, choices=CURRENCY_CHOICES)
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.MANUAL)
    linked_account = models.ForeignKey(
        LinkedAccount, null=True, blank=True, on_delete=models.SET_NULL, related_name="assets"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "-created_at", "-id"])]

    def __str__(self):
        return self.name

    @property
    def editable(self) -> bool:
        return self.source == Source.MANUAL


class Transaction(models.Model):
    class Direction(models.TextChoices):
        EXPENSE = "expense"
        INCOME = "income"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="transactions")
    amount = models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES)
    currency = models.CharField(max_length=3, choices=CURRENCY_CHOICES)
    direction = models.CharField(max_length=10, choices=Direction.choices, default=Direction.EXPENSE)
    description = models.CharField(max_length=200, blank=True)
    category = models.CharField(max_length=20, choices=categories.CHOICES)
    occurred_on = models.DateField()
    asset = models.ForeignKey(Asset, null=True, blank=True, on_delete=models.SET_NULL, related_name="transactions")
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.MANUAL)
    external_id = models.CharField(max_length=100, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-occurred_on", "-id"]
        indexes = [
            models.Index(fields=["user", "-occurred_on", "-id"]),
            models.Index(fields=["user", "category", "occurred_on"]),
            # The list's `direction` and `source` filters, in the list's order: a page of a few matching rows
            # reads those rows, not the user's whole history.
            models.Index(fields=["user", "direction", "-occurred_on", "-id"], name="transaction_user_direction"),
            models.Index(fields=["user", "source", "-occurred_on", "-id"], name="transaction_user_source"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="transaction_amount_positive"),
            models.UniqueConstraint(
                fields=["user", "external_id"],
                condition=Q(external_id__isnull=False),
                name="transaction_unique_external_id",
            ),
        ]

    def __str__(self):
        return f"{self.occurred_on} {self.direction} {self.amount} {self.currency} {self.description}"

    @property
    def editable(self) -> bool:
        return self.source == Source.MANUAL
