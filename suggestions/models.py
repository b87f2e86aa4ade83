from django.conf import settings
from django.db import models
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from suggestions.insights.wording import Words, insight_words
from zeus.money import DECIMAL_PLACES, MAX_DIGITS, currency_choices


class Suggestion(models.Model):
    """Something Zeus noticed for one user, with a call to action.

    Rule-based kinds are kept in step with the user's data by the nightly refresh; insight kinds are events
    found by the nightly insights job and land once per period. `dedupe_key` names the rule and its period,
    so a re-run can never stack a second copy.
    """

    class Kind(models.TextChoices):
        SPENDING_WATCH = "spending_watch"
        BUDGET_GUARDRAIL = "budget_guardrail"
        GOAL_NUDGE = "goal_nudge"
        NEXT_BEST_ACTION = "next_best_action"
        CATEGORY_SPIKE = "category_spike"
        DUPLICATE_CHARGE = "duplicate_charge"
        BUDGET_THRESHOLD = "budget_threshold"
        PRICE_CHANGE = "price_change"
        BILL_DUE = "bill_due"

    class Status(models.TextChoices):
        ACTIVE = "active"
        DISMISSED = "dismissed"
        COMPLETED = "completed"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="suggestions", verbose_name=_("user")
    )
    kind = models.CharField(max_length=32, choices=Kind.choices, verbose_name=_("kind"))
    title = models.CharField(max_length=200, verbose_name=_("title"))
    body = models.TextField(blank=True, verbose_name=_("body"))
    cta_url = models.CharField(max_length=500, blank=True, verbose_name=_("cta url"))
    prompt = models.TextField(blank=True, verbose_name=_("prompt"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE, verbose_name=_("status"))
    dedupe_key = models.CharField(max_length=200, verbose_name=_("dedupe key"))
    payload = models.JSONField(default=dict, blank=True, verbose_name=_("payload"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("suggestion")
        verbose_name_plural = _("suggestions")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "status", "-created_at", "-id"])]
        constraints = [models.UniqueConstraint(fields=["user", "dedupe_key"], name="suggestion_unique_dedupe_key")]

    def __str__(self):
        return f"{self.kind}: {self.title}"

    @cached_property
    def words(self) -> Words:
        """What the reader reads, in the active language: an insight's sentences are made from its facts now;
        the stored text is read where its facts cannot make them (docs/i18n.md)."""
        written = insight_words(self.kind, self.payload)
        return written or Words(title=self.title, body=self.body, prompt=self.prompt, cta_url=self.cta_url)


RULE_KINDS = (
    Suggestion.Kind.SPENDING_WATCH,
    Suggestion.Kind.BUDGET_GUARDRAIL,
    Suggestion.Kind.GOAL_NUDGE,
    Suggestion.Kind.NEXT_BEST_ACTION,
)
INSIGHT_KINDS = (
    Suggestion.Kind.CATEGORY_SPIKE,
    Suggestion.Kind.DUPLICATE_CHARGE,
    Suggestion.Kind.BUDGET_THRESHOLD,
    Suggestion.Kind.PRICE_CHANGE,
    Suggestion.Kind.BILL_DUE,
)


class RecurringSeries(models.Model):
    """Money that comes or goes on a schedule, detected nightly from the user's history
    (suggestions/recurring/detection.py; docs/recurring.md). One row per counterparty, direction and currency; the
    nightly detection updates it in place, so its id is stable for the user's dismiss and for insights."""

    class Kind(models.TextChoices):
        SUBSCRIPTION = "subscription"  # discretionary: the user could cancel it
        BILL = "bill"  # essential
        INCOME = "income"
        TRANSFER = "transfer"  # between the user's own accounts (a savings deposit): never spending

    class Interval(models.TextChoices):
        WEEKLY = "weekly"
        MONTHLY = "monthly"
        YEARLY = "yearly"

    class Status(models.TextChoices):
        ACTIVE = "active"
        ENDED = "ended"
        DISMISSED = "dismissed"

    # No index of its own: the unique series constraint and the (user, status, next_on) index both lead with the
    # user, so either serves every read by user (and the cascade from a deleted user), while a third index on the
    # column would only be one more to write for each series the nightly detection inserts.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="recurring_series",
        verbose_name=_("user"),
        db_index=False,
    )
    key = models.CharField(
        max_length=200, verbose_name=_("key")
    )  # the normalised counterparty (suggestions.merchants.counterparty)
    direction = models.CharField(max_length=10, verbose_name=_("direction"))
    merchant = models.CharField(max_length=200, verbose_name=_("merchant"))  # as the latest charge names it
    kind = models.CharField(max_length=12, choices=Kind.choices, verbose_name=_("kind"))
    # Typical, or the new price after a change.
    amount = models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, verbose_name=_("amount"))
    previous_amount = models.DecimalField(
        max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, null=True, blank=True, verbose_name=_("previous amount")
    )
    currency = models.CharField(max_length=3, choices=currency_choices, verbose_name=_("currency"))
    interval = models.CharField(max_length=8, choices=Interval.choices, verbose_name=_("interval"))
    last_on = models.DateField(verbose_name=_("last on"))
    next_on = models.DateField(verbose_name=_("next on"))
    category = models.CharField(max_length=20, verbose_name=_("category"))
    occurrences = models.PositiveIntegerField(verbose_name=_("occurrences"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE, verbose_name=_("status"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("recurring series")
        verbose_name_plural = _("recurring series")
        ordering = ["next_on", "id"]
        indexes = [models.Index(fields=["user", "status", "next_on"])]
        constraints = [
            models.UniqueConstraint(fields=["user", "direction", "currency", "key"], name="recurring_unique_series")
        ]

    def __str__(self):
        return f"{self.merchant} ({self.interval}, {self.status})"


class WeeklyDigest(models.Model):
    """The weekly review of one user and ISO week, as sent (docs/digest.md). The row is the claim: unique
    per user and week, inserted with ON CONFLICT DO NOTHING and tagged with the run that inserted it, so a
    re-run or a second worker sends nothing twice."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="weekly_digests", verbose_name=_("user")
    )
    iso_week = models.CharField(max_length=8, verbose_name=_("iso week"))  # "2026-W48"
    week_start = models.DateField(verbose_name=_("week start"))  # its Monday
    payload = models.JSONField(default=dict, verbose_name=_("payload"))
    run_id = models.UUIDField(verbose_name=_("run id"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        ordering = ["-week_start", "-id"]
        constraints = [models.UniqueConstraint(fields=["user", "iso_week"], name="weekly_digest_once_per_week")]

    def __str__(self):
        return f"{self.user} {self.iso_week}"
