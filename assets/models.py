from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from assets import categories
from assets.ledger.queries import TransactionQuerySet
from zeus.money import DECIMAL_PLACES, MAX_DIGITS, currency_choices


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
    currency = models.CharField(max_length=3, choices=currency_choices)
    last_synced_at = models.DateTimeField(null=True, blank=True)
    # A feed's own key for the account (SePay: the gateway and a hash of the account number, never the
    # number itself): how a delivery finds the account it belongs to. Null for accounts without a feed.
    feed_key = models.CharField(max_length=100, null=True, blank=True, editable=False)
    # When the transaction that set `balance` happened: a retried, older delivery does not roll it back.
    balance_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("linked account")
        verbose_name_plural = _("linked accounts")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "feed_key"], condition=Q(feed_key__isnull=False), name="linked_account_unique_feed_key"
            )
        ]

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
        CREDIT_CARD = "credit_card"
        LOAN = "loan"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="assets")
    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    balance = models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, default=0)
    currency = models.CharField(max_length=3, choices=currency_choices)
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.MANUAL)
    linked_account = models.ForeignKey(
        LinkedAccount, null=True, blank=True, on_delete=models.SET_NULL, related_name="assets"
    )
    # Where a VietQR for this account sends money (assets/vietqr): the bank's NAPAS BIN and the account number.
    bank_bin = models.CharField(max_length=6, blank=True, default="")
    account_number = models.CharField(max_length=19, blank=True, default="")
    # A credit card's cycle (assets/cards): the day of the month the bank bills it and the day the bill is due.
    statement_day = models.PositiveSmallIntegerField(null=True, blank=True)
    due_day = models.PositiveSmallIntegerField(null=True, blank=True)
    # Archived: kept with its rows and history, left out of the pickers and of new rows (docs/ledger.md).
    archived_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("asset")
        verbose_name_plural = _("assets")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "-created_at", "-id"])]
        constraints = [
            models.CheckConstraint(
                condition=(Q(statement_day__isnull=True) & Q(due_day__isnull=True))
                | (
                    Q(kind="credit_card", statement_day__isnull=False, due_day__isnull=False)
                    & Q(statement_day__gte=1, statement_day__lte=31)
                    & Q(due_day__gte=1, due_day__lte=31)
                ),
                name="asset_card_cycle_days",
            )
        ]

    def __str__(self):
        return self.name

    @property
    def spendable(self) -> bool:
        return self.kind in SPENDABLE_KINDS

    @property
    def owed(self) -> bool:
        """A credit card's or a loan's balance is what is owed: net worth counts it negative."""
        return self.kind in OWED_KINDS

    @property
    def signed_balance(self):
        return -self.balance if self.owed else self.balance

    @property
    def editable(self) -> bool:
        return self.source == Source.MANUAL


SPENDABLE_KINDS = (Asset.Kind.CASH, Asset.Kind.BANK_ACCOUNT, Asset.Kind.E_WALLET, Asset.Kind.CREDIT_CARD)
OWED_KINDS = (Asset.Kind.CREDIT_CARD, Asset.Kind.LOAN)


class Transaction(models.Model):
    class Direction(models.TextChoices):
        EXPENSE = "expense"
        INCOME = "income"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="transactions")
    amount = models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES)
    currency = models.CharField(max_length=3, choices=currency_choices)
    direction = models.CharField(max_length=10, choices=Direction.choices, default=Direction.EXPENSE)
    description = models.CharField(max_length=200, blank=True)
    category = models.CharField(max_length=20, choices=categories.CHOICES)
    occurred_on = models.DateField()
    asset = models.ForeignKey(Asset, null=True, blank=True, on_delete=models.SET_NULL, related_name="transactions")
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.MANUAL)
    external_id = models.CharField(max_length=100, null=True, blank=True)
    # Corrections any owner may make whatever the row's source (docs/ledger.md): a note, and `excluded`
    # (kept in the ledger, left out of every total).
    # Database defaults too: the bank feeds land rows with their own INSERT (assets.landing).
    note = models.CharField(max_length=500, blank=True, default="", db_default="")
    excluded = models.BooleanField(default=False, db_default=False)
    # Set only while the row is in a paired transfer: then it is neither income nor spending.
    transfer = models.ForeignKey(
        "assets.Transfer", null=True, blank=True, on_delete=models.SET_NULL, related_name="transactions"
    )
    import_batch = models.ForeignKey(
        "assets.ImportBatch", null=True, blank=True, on_delete=models.CASCADE, related_name="transactions"
    )
    # The user's own category, under the kind `category` holds: aggregates keep grouping by `category`.
    user_category = models.ForeignKey(
        "assets.UserCategory", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = TransactionQuerySet.as_manager()

    class Meta:
        verbose_name = _("transaction")
        verbose_name_plural = _("transactions")
        ordering = ["-occurred_on", "-id"]
        indexes = [
            models.Index(fields=["user", "-occurred_on", "-id"]),
            models.Index(fields=["user", "category", "occurred_on"]),
            # The list's `direction` and `source` filters, in the list's order: a page of a few matching rows
            # reads those rows, not the user's whole history.
            models.Index(fields=["user", "direction", "-occurred_on", "-id"], name="transaction_user_direction"),
            models.Index(fields=["user", "source", "-occurred_on", "-id"], name="transaction_user_source"),
            # Transfer pairing: an arriving row's counterparts, one indexed lookup (assets.ledger.pairing).
            models.Index(fields=["user", "currency", "amount", "occurred_on"], name="transaction_pairing"),
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


class CategoryRule(models.Model):
    """A user's categorization rule: text found in a description or merchant (case and diacritics folded),
    optionally a direction and an amount range, names the category. Applied in `position` order."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="category_rules")
    match = models.CharField(max_length=100)
    # The folded form of `match`, kept so applying rules to a feed row folds only the row's text.
    match_folded = models.CharField(max_length=100, editable=False)
    direction = models.CharField(max_length=10, choices=Transaction.Direction.choices, null=True, blank=True)
    min_amount = models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, null=True, blank=True)
    max_amount = models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, null=True, blank=True)
    category = models.CharField(max_length=20, choices=categories.CHOICES)
    position = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("category rule")
        verbose_name_plural = _("category rules")
        ordering = ["position", "id"]
        indexes = [models.Index(fields=["user", "position", "id"])]

    def __str__(self):
        return f"{self.match} → {self.category}"


class SepayConnection(models.Model):
    """A user's SePay webhook: the URL SePay posts to carries `token`; the secret authenticates each delivery
    (API key or HMAC-SHA256), stored encrypted because HMAC needs it back. Deleting it stops deliveries."""

    class Auth(models.TextChoices):
        API_KEY = "api_key"
        HMAC = "hmac"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sepay_connections")
    name = models.CharField(max_length=100)
    auth = models.CharField(max_length=10, choices=Auth.choices)
    token = models.CharField(max_length=64, unique=True, editable=False)
    secret_encrypted = models.TextField(editable=False)
    # SePay's API token (optional, encrypted): lets the daily reconciliation ask SePay what a lost webhook missed.
    api_token_encrypted = models.TextField(blank=True, default="", editable=False)
    last_delivery_at = models.DateTimeField(null=True, blank=True)
    last_pulled_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("SePay connection")
        verbose_name_plural = _("SePay connections")
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"SePay {self.name}"


class CassoConnection(models.Model):
    """A user's Casso webhook (v2): the URL Casso posts to carries `token`; `secret` is the key Casso signs each
    delivery with (HMAC-SHA512), stored encrypted. `api_key_encrypted` (optional) is the user's Casso API key,
    for the daily reconciliation pull."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="casso_connections")
    name = models.CharField(max_length=100)
    token = models.CharField(max_length=64, unique=True, editable=False)
    secret_encrypted = models.TextField(editable=False)
    api_key_encrypted = models.TextField(blank=True, default="", editable=False)
    last_delivery_at = models.DateTimeField(null=True, blank=True)
    last_pulled_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"Casso {self.name}"


class BankTextDraft(models.Model):
    """A pasted bank SMS or app notification, read into a transaction the user has not confirmed yet.
    Nothing enters the ledger until confirmation creates `transaction`."""

    class Status(models.TextChoices):
        DRAFT = "draft"
        CONFIRMED = "confirmed"
        DISCARDED = "discarded"

    class ParsedBy(models.TextChoices):
        RULE = "rule"
        MODEL = "model"
        VIETQR = "vietqr"  # a pasted VietQR payload: the transfer it asks for (assets/vietqr)

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bank_text_drafts")
    text = models.TextField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    parsed_by = models.CharField(max_length=10, choices=ParsedBy.choices)
    bank = models.CharField(max_length=40, blank=True)
    amount = models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES)
    currency = models.CharField(max_length=3, choices=currency_choices)
    direction = models.CharField(max_length=10, choices=Transaction.Direction.choices)
    occurred_at = models.DateTimeField()
    description = models.CharField(max_length=200, blank=True)
    category = models.CharField(max_length=20, choices=categories.CHOICES)
    account_mask = models.CharField(max_length=32, blank=True)
    balance_after = models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, null=True, blank=True)
    asset = models.ForeignKey(Asset, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    linked_account = models.ForeignKey(
        LinkedAccount, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    duplicate_of = models.ForeignKey(Transaction, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    transaction = models.ForeignKey(
        Transaction, null=True, blank=True, on_delete=models.SET_NULL, related_name="bank_text_drafts"
    )
    # The shared or uploaded file this draft was read from (assets/captures); empty `text` then.
    capture = models.ForeignKey(
        "assets.Capture", null=True, blank=True, on_delete=models.CASCADE, related_name="drafts"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("bank text draft")
        verbose_name_plural = _("bank text drafts")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "status", "occurred_at"])]

    def __str__(self):
        return f"{self.bank or 'bank text'} {self.direction} {self.amount} {self.currency}"


class ImportMapping(models.Model):
    """How a bank's CSV columns map to a transaction's fields, remembered per user and header, so the next
    export from the same bank imports without the mapping step."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="import_mappings")
    header_key = models.CharField(max_length=500)
    mapping = models.JSONField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "header_key"], name="import_mapping_unique_header")]

    def __str__(self):
        return self.header_key[:60]


# The ledger's own models (transfers, splits, import batches, user categories, rates) live beside it.
from assets.captures.models import Capture  # noqa: E402, F401
from assets.ledger.models import (  # noqa: E402, F401
    ExchangeRate,
    ImportBatch,
    RejectedPair,
    TransactionSplit,
    Transfer,
    UserCategory,
)
