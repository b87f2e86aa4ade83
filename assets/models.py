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

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="linked_accounts", verbose_name=_("user")
    )
    institution = models.CharField(max_length=100, verbose_name=_("institution"))
    name = models.CharField(max_length=100, verbose_name=_("name"))
    masked_number = models.CharField(max_length=32, verbose_name=_("masked number"))
    balance = models.DecimalField(
        max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, default=0, verbose_name=_("balance")
    )
    currency = models.CharField(max_length=3, choices=currency_choices, verbose_name=_("currency"))
    last_synced_at = models.DateTimeField(null=True, blank=True, verbose_name=_("last synced at"))
    # A feed's own key for the account (SePay: the gateway and a hash of the account number, never the
    # number itself): how a delivery finds the account it belongs to. Null for accounts without a feed.
    feed_key = models.CharField(max_length=100, null=True, blank=True, editable=False, verbose_name=_("feed key"))
    # When the transaction that set `balance` happened: a retried, older delivery does not roll it back.
    balance_at = models.DateTimeField(null=True, blank=True, verbose_name=_("balance at"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

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

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="assets", verbose_name=_("user")
    )
    name = models.CharField(max_length=100, verbose_name=_("name"))
    kind = models.CharField(max_length=20, choices=Kind.choices, verbose_name=_("kind"))
    balance = models.DecimalField(
        max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, default=0, verbose_name=_("balance")
    )
    currency = models.CharField(max_length=3, choices=currency_choices, verbose_name=_("currency"))
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.MANUAL, verbose_name=_("source"))
    linked_account = models.ForeignKey(
        LinkedAccount,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="assets",
        verbose_name=_("linked account"),
    )
    # Where a VietQR for this account sends money (assets/vietqr): the bank's NAPAS BIN and the account number.
    bank_bin = models.CharField(max_length=6, blank=True, default="", verbose_name=_("bank bin"))
    account_number = models.CharField(max_length=19, blank=True, default="", verbose_name=_("account number"))
    # A credit card's cycle (assets/cards): the day of the month the bank bills it and the day the bill is due.
    statement_day = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("statement day"))
    due_day = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("due day"))
    # Archived: kept with its rows and history, left out of the pickers and of new rows (docs/ledger.md).
    archived_at = models.DateTimeField(null=True, blank=True, verbose_name=_("archived at"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

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

    # No index of its own (docs/adr/0012): every lookup by user is served by the composite indexes below, which
    # all begin with the user; beside them the planner chose the narrow one and then filtered the user's rows.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="transactions",
        db_index=False,
        verbose_name=_("user"),
    )
    amount = models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, verbose_name=_("amount"))
    currency = models.CharField(max_length=3, choices=currency_choices, verbose_name=_("currency"))
    direction = models.CharField(
        max_length=10, choices=Direction.choices, default=Direction.EXPENSE, verbose_name=_("direction")
    )
    description = models.CharField(max_length=200, blank=True, verbose_name=_("description"))
    category = models.CharField(max_length=20, choices=categories.CHOICES, verbose_name=_("category"))
    occurred_on = models.DateField(verbose_name=_("occurred on"))
    asset = models.ForeignKey(
        Asset, null=True, blank=True, on_delete=models.SET_NULL, related_name="transactions", verbose_name=_("asset")
    )
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.MANUAL, verbose_name=_("source"))
    external_id = models.CharField(max_length=100, null=True, blank=True, verbose_name=_("external id"))
    # Corrections any owner may make whatever the row's source (docs/ledger.md): a note, and `excluded`
    # (kept in the ledger, left out of every total).
    # Database defaults too: the bank feeds land rows with their own INSERT (assets.landing).
    note = models.CharField(max_length=500, blank=True, default="", db_default="", verbose_name=_("note"))
    excluded = models.BooleanField(default=False, db_default=False, verbose_name=_("excluded"))
    # Set only while the row is in a paired transfer: then it is neither income nor spending.
    transfer = models.ForeignKey(
        "assets.Transfer",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="transactions",
        verbose_name=_("transfer"),
    )
    import_batch = models.ForeignKey(
        "assets.ImportBatch",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="transactions",
        verbose_name=_("import batch"),
    )
    # The user's own category, under the kind `category` holds: aggregates keep grouping by `category`.
    user_category = models.ForeignKey(
        "assets.UserCategory",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("user category"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    objects = TransactionQuerySet.as_manager()

    class Meta:
        verbose_name = _("transaction")
        verbose_name_plural = _("transactions")
        ordering = ["-occurred_on", "-id"]
        indexes = [
            # The ledger's order, carrying every column a read of the money that counts needs (counted(): the
            # rows, their amount, category, direction and currency, and whether they count): a month's spending
            # is read from the index alone, not from a heap page per row wherever the month's rows lie.
            models.Index(
                fields=["user", "-occurred_on", "-id"],
                include=["direction", "category", "currency", "amount", "excluded", "transfer"],
                name="transaction_user_day",
            ),
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

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="category_rules", verbose_name=_("user")
    )
    match = models.CharField(max_length=100, verbose_name=_("match"))
    # The folded form of `match`, kept so applying rules to a feed row folds only the row's text.
    match_folded = models.CharField(max_length=100, editable=False, verbose_name=_("match folded"))
    direction = models.CharField(
        max_length=10, choices=Transaction.Direction.choices, null=True, blank=True, verbose_name=_("direction")
    )
    min_amount = models.DecimalField(
        max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, null=True, blank=True, verbose_name=_("min amount")
    )
    max_amount = models.DecimalField(
        max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, null=True, blank=True, verbose_name=_("max amount")
    )
    category = models.CharField(max_length=20, choices=categories.CHOICES, verbose_name=_("category"))
    position = models.PositiveIntegerField(default=0, verbose_name=_("position"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("category rule")
        verbose_name_plural = _("category rules")
        ordering = ["position", "id"]
        indexes = [models.Index(fields=["user", "position", "id"])]

    def __str__(self):
        return f"{self.match} → {self.category}"


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

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bank_text_drafts", verbose_name=_("user")
    )
    text = models.TextField(verbose_name=_("text"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT, verbose_name=_("status"))
    parsed_by = models.CharField(max_length=10, choices=ParsedBy.choices, verbose_name=_("parsed by"))
    bank = models.CharField(max_length=40, blank=True, verbose_name=_("bank"))
    amount = models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, verbose_name=_("amount"))
    currency = models.CharField(max_length=3, choices=currency_choices, verbose_name=_("currency"))
    direction = models.CharField(max_length=10, choices=Transaction.Direction.choices, verbose_name=_("direction"))
    occurred_at = models.DateTimeField(verbose_name=_("occurred at"))
    description = models.CharField(max_length=200, blank=True, verbose_name=_("description"))
    category = models.CharField(max_length=20, choices=categories.CHOICES, verbose_name=_("category"))
    account_mask = models.CharField(max_length=32, blank=True, verbose_name=_("account mask"))
    balance_after = models.DecimalField(
        max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, null=True, blank=True, verbose_name=_("balance after")
    )
    asset = models.ForeignKey(
        Asset, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("asset")
    )
    linked_account = models.ForeignKey(
        LinkedAccount,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("linked account"),
    )
    duplicate_of = models.ForeignKey(
        Transaction, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("duplicate of")
    )
    transaction = models.ForeignKey(
        Transaction,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="bank_text_drafts",
        verbose_name=_("transaction"),
    )
    # The shared or uploaded file this draft was read from (assets/captures); empty `text` then.
    capture = models.ForeignKey(
        "assets.Capture",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="drafts",
        verbose_name=_("capture"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

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

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="import_mappings", verbose_name=_("user")
    )
    header_key = models.CharField(max_length=500, verbose_name=_("header key"))
    mapping = models.JSONField(verbose_name=_("mapping"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "header_key"], name="import_mapping_unique_header")]

    def __str__(self):
        return self.header_key[:60]


# The ledger's own models (transfers, splits, import batches, user categories, rates) live beside it.
from assets.captures.models import Capture  # noqa: E402, F401
from assets.feeds.models import CassoConnection, SepayConnection  # noqa: E402, F401
from assets.ledger.models import (  # noqa: E402, F401
    ExchangeRate,
    ImportBatch,
    RejectedPair,
    TransactionSplit,
    Transfer,
    UserCategory,
)
