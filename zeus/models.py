import zoneinfo

from django.conf import settings
from django.db import models
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from zeus.money import CURRENCY_CHOICES, DEFAULT_CURRENCY
from zeus.wording import NotificationWords, notification_words

DEFAULT_TIMEZONE = "Asia/Ho_Chi_Minh"
# The languages Zeus speaks (settings.LANGUAGES); a profile made without a request (admin, demo, jobs) speaks
# Vietnamese, and sign-up takes the browser's choice instead (docs/i18n.md).
LANGUAGE_CHOICES = settings.LANGUAGES
DEFAULT_LANGUAGE = "vi"
# The notification kinds a user may also receive by e-mail; in-app is always on (docs/mail.md).
EMAIL_KINDS = ("plan_reminder", "insight", "weekly_digest")


def default_email_notifications() -> dict:
    return dict.fromkeys(EMAIL_KINDS, False)


class Profile(models.Model):
    """What every app needs to know about a person: their currency and their clock."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(max_length=100, blank=True)
    currency = models.CharField(max_length=3, choices=CURRENCY_CHOICES, default=DEFAULT_CURRENCY)
    # Validated against the IANA names by the service; no choices here, so a tzdata update needs no migration.
    timezone = models.CharField(max_length=64, default=DEFAULT_TIMEZONE)
    language = models.CharField(max_length=8, choices=LANGUAGE_CHOICES, default=DEFAULT_LANGUAGE)
    # Which notification kinds also go out by e-mail: {"plan_reminder", "insight", "weekly_digest"} → bool.
    email_notifications = models.JSONField(default=default_email_notifications, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self):
        return f"{self.user} ({self.currency}, {self.timezone})"

    @property
    def tz(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.timezone)


class Notification(models.Model):
    """The in-app inbox. Pushed live to the user's open sockets when created."""

    class Kind(models.TextChoices):
        PLAN_REMINDER = "plan_reminder"
        MONTH_END_SUMMARY = "month_end_summary"
        INSIGHT = "insight"
        SUGGESTION = "suggestion"
        ADMIN_REPLY = "admin_reply"
        TRANSACTION_SYNCED = "transaction_synced"
        WEEKLY_DIGEST = "weekly_digest"
        DEBT_REMINDER = "debt_reminder"
        DEBT_SETTLED = "debt_settled"
        CASH_SHORTFALL = "cash_shortfall"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=32, choices=Kind.choices)
    title = models.CharField(max_length=200)
    body = models.TextField(blank=True)
    cta_url = models.CharField(max_length=500, blank=True)
    # Producers that must notify once (a month-end summary, an insight) pass a key; the database refuses a
    # second row with it, so a re-run after a crash adds nothing.
    dedupe_key = models.CharField(max_length=200, null=True, blank=True)
    # What the words are made of, for a kind whose words follow the reader's language (zeus/wording.py).
    facts = models.JSONField(default=dict, blank=True)
    read_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "-created_at", "-id"])]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "dedupe_key"],
                condition=models.Q(dedupe_key__isnull=False),
                name="notification_unique_dedupe_key",
            )
        ]

    def __str__(self):
        return f"{self.kind}: {self.title}"

    @cached_property
    def words(self) -> NotificationWords:
        """The title, body and link as the reader reads them now, in the active language."""
        return notification_words(self)


class MailDelivery(models.Model):
    """The e-mail of one notification: one row per notification, so it is sent at most once, and the
    in-app notification stays whatever happens to the mail (docs/mail.md)."""

    class Status(models.TextChoices):
        PENDING = "pending"
        SENT = "sent"
        FAILED = "failed"  # gave up after the last retry

    notification = models.OneToOneField(Notification, on_delete=models.CASCADE, related_name="mail")
    to = models.EmailField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)
    # When the sweeper (zeus.send_pending_mail) may try it next; the first try is the task enqueued on commit.
    next_attempt_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["status", "next_attempt_at"])]

    def __str__(self):
        return f"mail of notification {self.notification_id} to {self.to} ({self.status})"


# The kinds, for the apps whose jobs hand drafts to zeus.services.notification_create_many.
NotificationKind = Notification.Kind
