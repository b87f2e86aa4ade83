import uuid
import zoneinfo

from django.conf import settings
from django.db import models
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from zeus.accounts.models import SecondFactor, SignedInSession  # noqa: F401  (zeus's proxies)
from zeus.money import DEFAULT_CURRENCY, currency_choices
from zeus.push_models import PushSubscription  # noqa: F401  (zeus's model too)
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

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile", verbose_name=_("user")
    )
    display_name = models.CharField(max_length=100, blank=True, verbose_name=_("display name"))
    currency = models.CharField(
        max_length=3, choices=currency_choices, default=DEFAULT_CURRENCY, verbose_name=_("currency")
    )
    # Validated against the IANA names by the service; no choices here, so a tzdata update needs no migration.
    timezone = models.CharField(max_length=64, default=DEFAULT_TIMEZONE, verbose_name=_("timezone"))
    language = models.CharField(
        max_length=8, choices=LANGUAGE_CHOICES, default=DEFAULT_LANGUAGE, verbose_name=_("language")
    )
    # Which notification kinds also go out by e-mail: {"plan_reminder", "insight", "weekly_digest"} → bool.
    email_notifications = models.JSONField(
        default=default_email_notifications, blank=True, verbose_name=_("email notifications")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

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
        ACCOUNT_EXPORT_READY = "account_export_ready"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications", verbose_name=_("user")
    )
    kind = models.CharField(max_length=32, choices=Kind.choices, verbose_name=_("kind"))
    title = models.CharField(max_length=200, verbose_name=_("title"))
    body = models.TextField(blank=True, verbose_name=_("body"))
    cta_url = models.CharField(max_length=500, blank=True, verbose_name=_("cta url"))
    # Producers that must notify once (a month-end summary, an insight) pass a key; the database refuses a
    # second row with it, so a re-run after a crash adds nothing.
    dedupe_key = models.CharField(max_length=200, null=True, blank=True, verbose_name=_("dedupe key"))
    # What the words are made of, for a kind whose words follow the reader's language (zeus/wording.py).
    facts = models.JSONField(default=dict, blank=True, verbose_name=_("facts"))
    read_at = models.DateTimeField(null=True, blank=True, verbose_name=_("read at"))
    created_at = models.DateTimeField(auto_now_add=True, db_index=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["user", "-created_at", "-id"]),
            # Every page's navigation counts the unread: only those, however many a user has read over the years.
            models.Index(fields=["user"], condition=models.Q(read_at__isnull=True), name="notification_user_unread"),
        ]
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

    notification = models.OneToOneField(
        Notification, on_delete=models.CASCADE, related_name="mail", verbose_name=_("notification")
    )
    to = models.EmailField(verbose_name=_("to"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, verbose_name=_("status"))
    attempts = models.PositiveIntegerField(default=0, verbose_name=_("attempts"))
    last_error = models.TextField(blank=True, verbose_name=_("last error"))
    # When the sweeper (zeus.send_pending_mail) may try it next; the first try is the task enqueued on commit.
    next_attempt_at = models.DateTimeField(verbose_name=_("next attempt at"))
    sent_at = models.DateTimeField(null=True, blank=True, verbose_name=_("sent at"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        indexes = [models.Index(fields=["status", "next_attempt_at"])]

    def __str__(self):
        return f"mail of notification {self.notification_id} to {self.to} ({self.status})"


class AccountExport(models.Model):
    """One export of everything a user owns: a ZIP built by a job (zeus/account_data/export.py), downloadable by
    its owner until `expires_at`, then deleted with its file."""

    class Status(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        READY = "ready"
        FAILED = "failed"

    # A random id: the download URL names no count of anyone's exports.
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("id"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="account_exports", verbose_name=_("user")
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, verbose_name=_("status"))
    file = models.FileField(upload_to="account-exports/", blank=True, verbose_name=_("file"))
    size = models.PositiveBigIntegerField(default=0, verbose_name=_("size"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))
    expires_at = models.DateTimeField(null=True, blank=True, verbose_name=_("expires at"))

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"export {self.id} ({self.status})"


class ErasureRequest(models.Model):
    """A user asked to be erased: the account is locked from now on and erased at `erase_after` unless the user
    signs in and cancels first (zeus/account_data/erasure.py). Deleted with the user; what remains is an
    `ErasureRecord`."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="erasure_request", verbose_name=_("user")
    )
    requested_at = models.DateTimeField(verbose_name=_("requested at"))
    erase_after = models.DateTimeField(db_index=True, verbose_name=_("erase after"))

    def __str__(self):
        return f"erasure of {self.user_id} after {self.erase_after:%Y-%m-%d}"


class ErasureRecord(models.Model):
    """That an erasure happened, and nothing about whom: a random id and two times."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("id"))
    requested_at = models.DateTimeField(verbose_name=_("requested at"))
    erased_at = models.DateTimeField(verbose_name=_("erased at"))

    class Meta:
        ordering = ["-erased_at"]

    def __str__(self):
        return f"erasure {self.id} on {self.erased_at:%Y-%m-%d}"


class RetiredWebhook(models.Model):
    """The SHA-256 of a webhook token whose owner was erased: a provider still posting to that URL is told
    410 GONE (stop sending), not 401 (check your key). The digest names no one."""

    digest = models.CharField(max_length=64, primary_key=True, verbose_name=_("digest"))
    retired_at = models.DateTimeField(verbose_name=_("retired at"))

    def __str__(self):
        return f"retired webhook {self.digest[:12]}…"


# The kinds, for the apps whose jobs hand drafts to zeus.services.notification_create_many.
NotificationKind = Notification.Kind


class ModelConsent(models.Model):
    """One decision about sending ledger data to the model provider (zeus/consent.py): a grant or a withdrawal,
    under the consent text's version of that moment. Rows are only ever added: the newest says what holds now,
    all of them together say who agreed to what, and when."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="model_consents", verbose_name=_("user")
    )
    version = models.PositiveIntegerField(verbose_name=_("version"))
    granted = models.BooleanField(verbose_name=_("granted"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("consent to the model provider")
        verbose_name_plural = _("consents to the model provider")
        ordering = ["-id"]
        indexes = [models.Index(fields=["user", "-id"])]

    def __str__(self):
        return f"{'grant' if self.granted else 'withdrawal'} v{self.version} by {self.user_id}"


class DeviceToken(models.Model):
    """The REST API key of one device (docs/accounts.md): named by its owner, revocable on its own from
    /settings/security. Only a SHA-256 of the key is kept: the key is shown once, when it is made, and a copy
    of this table opens nothing."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="device_tokens", verbose_name=_("user")
    )
    name = models.CharField(max_length=100, verbose_name=_("name"))
    key_hash = models.CharField(max_length=64, unique=True, verbose_name=_("key hash"))
    # The key's first characters, so its owner can tell which key a device holds.
    prefix = models.CharField(max_length=8, verbose_name=_("prefix"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    last_used_at = models.DateTimeField(null=True, blank=True, verbose_name=_("last used at"))

    class Meta:
        verbose_name = _("device token")
        verbose_name_plural = _("device tokens")
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.name} ({self.prefix}…) of {self.user}"
