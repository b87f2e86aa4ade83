"""The ledger's own records beside the transactions (docs/ledger.md). Imported by assets.models, so they
belong to the assets app; they name the app's other models by string, never by import."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from assets import categories
from zeus.money import DECIMAL_PLACES, MAX_DIGITS, currency_choices

TRANSACTION = "assets.Transaction"


class UserCategory(models.Model):
    """A user's own category under one of the fixed ones (its `kind`): budgets and the plan count it there.
    A transaction names it as `"c:<id>"`; the row's own `category` column keeps the kind."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="user_categories", verbose_name=_("user")
    )
    kind = models.CharField(max_length=20, choices=categories.CHOICES, verbose_name=_("kind"))
    name_vi = models.CharField(max_length=60, verbose_name=_("name vi"))
    name_en = models.CharField(max_length=60, verbose_name=_("name en"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("user category")
        verbose_name_plural = _("user categories")
        app_label = "assets"
        ordering = ["kind", "name_vi", "id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "kind", "name_vi"], name="user_category_unique_name"),
            models.CheckConstraint(condition=~Q(name_vi="") & ~Q(name_en=""), name="user_category_named"),
        ]

    def __str__(self):
        return f"{self.name_vi} ({self.kind})"

    @property
    def key(self) -> str:
        return f"c:{self.pk}"


class ImportBatch(models.Model):
    """One statement import: every row it added points here, so deleting the batch removes exactly them."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="import_batches", verbose_name=_("user")
    )
    format = models.CharField(max_length=10, verbose_name=_("format"))
    filename = models.CharField(max_length=200, blank=True, verbose_name=_("filename"))
    asset = models.ForeignKey(
        "assets.Asset", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("asset")
    )
    imported = models.PositiveIntegerField(default=0, verbose_name=_("imported"))
    skipped = models.PositiveIntegerField(default=0, verbose_name=_("skipped"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("import batch")
        verbose_name_plural = _("import batches")
        app_label = "assets"
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "-created_at", "-id"])]

    def __str__(self):
        return f"{self.format} {self.filename or ''} ({self.imported})".strip()


class Transfer(models.Model):
    """Money moving between two of the user's own accounts: `outgoing` (the expense side) and `incoming` (the
    income side), one of them null when the other account is not tracked. A `paired` transfer is confirmed:
    its rows point at it (`Transaction.transfer`) and count nowhere. A `suggested` one waits for the user;
    its rows still count, and do not point at it."""

    class Status(models.TextChoices):
        PAIRED = "paired"
        SUGGESTED = "suggested"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="transfers", verbose_name=_("user")
    )
    outgoing = models.ForeignKey(
        TRANSACTION, null=True, blank=True, on_delete=models.CASCADE, related_name="+", verbose_name=_("outgoing")
    )
    incoming = models.ForeignKey(
        TRANSACTION, null=True, blank=True, on_delete=models.CASCADE, related_name="+", verbose_name=_("incoming")
    )
    status = models.CharField(max_length=10, choices=Status.choices, verbose_name=_("status"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("transfer")
        verbose_name_plural = _("transfers")
        app_label = "assets"
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "status", "-created_at", "-id"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(outgoing__isnull=False) | Q(incoming__isnull=False), name="transfer_has_a_side"
            ),
            models.CheckConstraint(
                condition=Q(outgoing__isnull=True) | Q(incoming__isnull=True) | ~Q(outgoing=F("incoming")),
                name="transfer_two_rows",
            ),
            models.CheckConstraint(
                condition=Q(status="paired") | (Q(outgoing__isnull=False) & Q(incoming__isnull=False)),
                name="transfer_suggestion_has_two_sides",
            ),
            # A row is in one paired transfer at most: two pairings racing for it, the second fails here.
            models.UniqueConstraint(
                fields=["outgoing"], condition=Q(status="paired"), name="transfer_unique_paired_outgoing"
            ),
            models.UniqueConstraint(
                fields=["incoming"], condition=Q(status="paired"), name="transfer_unique_paired_incoming"
            ),
            models.UniqueConstraint(fields=["outgoing", "incoming"], name="transfer_unique_pair"),
        ]

    def __str__(self):
        return f"transfer {self.outgoing_id or '∅'} → {self.incoming_id or '∅'} ({self.status})"


class RejectedPair(models.Model):
    """Two rows the user said are not a transfer (a rejected suggestion, an undone pair): never proposed
    again."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    outgoing = models.ForeignKey(TRANSACTION, on_delete=models.CASCADE, related_name="+", verbose_name=_("outgoing"))
    incoming = models.ForeignKey(TRANSACTION, on_delete=models.CASCADE, related_name="+", verbose_name=_("incoming"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("rejected pair")
        verbose_name_plural = _("rejected pairs")
        app_label = "assets"
        constraints = [models.UniqueConstraint(fields=["outgoing", "incoming"], name="rejected_pair_unique")]

    def __str__(self):
        return f"not a transfer: {self.outgoing_id} → {self.incoming_id}"


class TransactionSplit(models.Model):
    """One part of a split row, with its own category. The parts of a row sum exactly to it (the service
    checks, inside the same transaction as it writes them); the row then counts as its parts."""

    transaction = models.ForeignKey(
        TRANSACTION, on_delete=models.CASCADE, related_name="splits", verbose_name=_("transaction")
    )
    amount = models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, verbose_name=_("amount"))
    category = models.CharField(max_length=20, choices=categories.CHOICES, verbose_name=_("category"))
    user_category = models.ForeignKey(
        UserCategory,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("user category"),
    )
    note = models.CharField(max_length=200, blank=True, verbose_name=_("note"))
    position = models.PositiveSmallIntegerField(default=0, verbose_name=_("position"))

    class Meta:
        verbose_name = _("transaction split")
        verbose_name_plural = _("transaction splits")
        app_label = "assets"
        ordering = ["transaction", "position", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="transaction_split_amount_positive"),
            models.UniqueConstraint(fields=["transaction", "position"], name="transaction_split_unique_position"),
        ]

    def __str__(self):
        return f"{self.amount} {self.category}"


class ExchangeRate(models.Model):
    """How many `to_currency` one `from_currency` buys on `day`. Published rates (`user` null) come from a
    source such as Vietcombank; a user's own rate for a day wins over the published one for that user."""

    class Source(models.TextChoices):
        VIETCOMBANK = "vietcombank"
        USER = "user"

    day = models.DateField(verbose_name=_("day"))
    from_currency = models.CharField(max_length=3, choices=currency_choices, verbose_name=_("from currency"))
    to_currency = models.CharField(max_length=3, choices=currency_choices, verbose_name=_("to currency"))
    rate = models.DecimalField(max_digits=24, decimal_places=10, verbose_name=_("rate"))
    source = models.CharField(max_length=20, choices=Source.choices, verbose_name=_("source"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="exchange_rates",
        verbose_name=_("user"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("exchange rate")
        verbose_name_plural = _("exchange rates")
        app_label = "assets"
        ordering = ["-day", "from_currency", "to_currency"]
        indexes = [models.Index(fields=["from_currency", "to_currency", "-day"], name="exchange_rate_pair_day")]
        constraints = [
            models.CheckConstraint(condition=Q(rate__gt=0), name="exchange_rate_positive"),
            models.CheckConstraint(condition=~Q(from_currency=F("to_currency")), name="exchange_rate_two_currencies"),
            models.CheckConstraint(
                condition=Q(user__isnull=True, source="vietcombank") | Q(user__isnull=False, source="user"),
                name="exchange_rate_user_source",
            ),
            models.UniqueConstraint(
                fields=["day", "from_currency", "to_currency", "source"],
                condition=Q(user__isnull=True),
                name="exchange_rate_unique_published",
            ),
            models.UniqueConstraint(
                fields=["user", "day", "from_currency", "to_currency"],
                condition=Q(user__isnull=False),
                name="exchange_rate_unique_user",
            ),
        ]

    def __str__(self):
        return f"{self.day} 1 {self.from_currency} = {self.rate} {self.to_currency} ({self.source})"
