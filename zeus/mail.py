"""E-mail of notifications, for the users who asked for it (docs/mail.md).

One path: `zeus.services.notification_create` (and `notification_create_many`) records a `MailDelivery`
for an opted-in user in the same transaction and enqueues `zeus.send_notification_mail` on commit. The
delivery row is the claim: it is sent under a row lock and marked sent in the same transaction, so a retry,
a second worker or the sweeper never sends it twice, and a mail server that is down never touches the
in-app notification.
"""

import datetime as dt
from smtplib import SMTPException
from urllib.parse import urljoin

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from zeus.account_data.unlocked import of_unlocked_users
from zeus.models import EMAIL_KINDS, MailDelivery, Notification, Profile, default_email_notifications
from zeus.queries import AnyOf
from zeus.wording import notification_words

MAX_ATTEMPTS = 10
FIRST_SWEEP_AFTER = dt.timedelta(minutes=2)
_SALT = "zeus.mail.unsubscribe"
# What each e-mail kind is called in a sentence ("you turned on e-mails for …").
KIND_LABELS = {
    "plan_reminder": gettext_lazy("plan reminders"),
    "insight": gettext_lazy("insights"),
    "weekly_digest": gettext_lazy("the weekly review"),
}
MAIL_ERRORS = (SMTPException, OSError)


def email_preferences(profile: Profile) -> dict[str, bool]:
    """All three kinds, each true only where the user turned it on."""
    stored = profile.email_notifications or {}
    return {k: bool(stored.get(k, v)) for k, v in default_email_notifications().items()}


def profile_language(profile: Profile) -> str:
    """The user's language for mail: the profile's `language` (vi or en), else Vietnamese, the default of
    a new user."""
    return language_code(getattr(profile, "language", ""))


def language_code(language: str | None) -> str:
    """A profile's stored language as one Zeus speaks (vi or en), Vietnamese for none or another."""
    return language if language in ("vi", "en") else "vi"


def site_url(path: str) -> str:
    return urljoin(settings.ZEUS_SITE_URL.rstrip("/") + "/", path.lstrip("/"))


# Unsubscribe links: signed, no login, one per user and kind.


def unsubscribe_token(*, user_id: int, kind: str) -> str:
    return signing.dumps({"u": user_id, "k": kind}, salt=_SALT, compress=True)


class BadUnsubscribeLink(ValueError):
    pass


def read_unsubscribe_token(*, user_id: int, token: str) -> str:
    """The kind a link unsubscribes from; BadUnsubscribeLink when it was tampered with or was signed for
    another user than the one in its path."""
    try:
        payload = signing.loads(token, salt=_SALT)
    except signing.BadSignature:
        raise BadUnsubscribeLink("This unsubscribe link is not valid.") from None
    if not isinstance(payload, dict) or payload.get("u") != user_id or payload.get("k") not in EMAIL_KINDS:
        raise BadUnsubscribeLink("This unsubscribe link is not valid.")
    return payload["k"]


def unsubscribe_path(*, user_id: int, kind: str) -> str:
    return f"/unsubscribe/{user_id}/{unsubscribe_token(user_id=user_id, kind=kind)}"


# Queueing (called by zeus.services inside the notification's transaction).


def deliveries_record(notifications: list[Notification]) -> list[int]:
    """Records the mail of every notification whose user opted in to its kind and has an address (one
    query for the profiles, one insert); returns their notification ids, for the caller to enqueue on
    commit (zeus.services)."""
    wanted = [n for n in notifications if n.kind in EMAIL_KINDS]
    if not wanted:
        return []
    # Only the profiles that opted in to one of these kinds and have an address: most users did not, and a
    # job's batch would otherwise read and decode every user's preferences to find the few.
    opted_in = Q()
    for kind in {n.kind for n in wanted}:
        # One array of ids, not a parameter per user for the driver to bind (a job's batch has thousands).
        opted_in |= Q(
            AnyOf("user_id", {n.user_id for n in wanted if n.kind == kind}), email_notifications__contains={kind: True}
        )
    profiles = {
        uid: (prefs or {}, email)
        for uid, prefs, email in Profile.objects.filter(opted_in)
        .exclude(user__email="")
        .values_list("user_id", "email_notifications", "user__email")
    }
    due = timezone.now() + FIRST_SWEEP_AFTER
    rows = []
    for n in wanted:
        prefs, email = profiles.get(n.user_id, ({}, ""))
        if prefs.get(n.kind) and email:
            rows.append(MailDelivery(notification_id=n.id, to=email, next_attempt_at=due))
    if not rows:
        return []
    MailDelivery.objects.bulk_create(rows, ignore_conflicts=True)
    return [r.notification_id for r in rows]


# Sending.


def build_message(notification: Notification, *, to: str) -> EmailMultiAlternatives:
    """The HTML and plain-text mail of a notification, in its user's language, with the unsubscribe link
    in the footer and the RFC 8058 one-click headers."""
    profile = Profile.objects.filter(user_id=notification.user_id).first() or Profile(user_id=notification.user_id)
    unsubscribe = site_url(unsubscribe_path(user_id=notification.user_id, kind=notification.kind))
    with translation.override(profile_language(profile)):
        words = notification_words(notification)
        context = {
            "notification": notification,
            "words": words,
            "cta_url": site_url(words.cta_url) if words.cta_url else site_url("/inbox"),
            "unsubscribe_url": unsubscribe,
            "settings_url": site_url("/settings/notifications"),
            "kind_label": str(KIND_LABELS[notification.kind]),
            "lang": profile_language(profile),
        }
        text = render_to_string("zeus/mail/notification.txt", context)
        html = render_to_string("zeus/mail/notification.html", context)
        subject = f"{words.title} · Zeus" if words.title else _("A note from Zeus")
    message = EmailMultiAlternatives(
        subject=subject,
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[to],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "X-Zeus-Notification": str(notification.id),
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def mail_deliver(notification_id: int, *, now: dt.datetime | None = None) -> str:
    """Sends one notification's mail if it is still pending: "sent", "skipped" (already sent, given up,
    or being sent by another worker right now), or raises the mail error after recording the attempt."""
    now = now or timezone.now()
    failure = None
    with transaction.atomic():
        # A user locked for erasure is sent nothing: the mail stays pending, sent if the erasure is cancelled.
        delivery = (
            of_unlocked_users(
                MailDelivery.objects.filter(notification_id=notification_id, status=MailDelivery.Status.PENDING),
                user_field="notification__user",
            )
            .select_for_update(skip_locked=True)
            .select_related("notification")
            .first()
        )
        if delivery is None:
            return "skipped"
        delivery.attempts += 1
        try:
            build_message(delivery.notification, to=delivery.to).send()
        except MAIL_ERRORS as exc:
            failure = exc
            delivery.last_error = f"{type(exc).__name__}: {exc}"[:2000]
            if delivery.attempts >= MAX_ATTEMPTS:
                delivery.status = MailDelivery.Status.FAILED
            delivery.next_attempt_at = now + min(dt.timedelta(hours=1), dt.timedelta(minutes=1) * 2**delivery.attempts)
        else:
            delivery.status = MailDelivery.Status.SENT
            delivery.sent_at = now
            delivery.last_error = ""
        delivery.save()
    if failure is not None:
        raise failure
    return "sent"


def pending_deliveries(*, now: dt.datetime, limit: int = 200) -> list[int]:
    """Notification ids of pending mail whose next try has come, oldest first (the sweeper's batch)."""
    return list(
        of_unlocked_users(
            MailDelivery.objects.filter(status=MailDelivery.Status.PENDING, next_attempt_at__lte=now),
            user_field="notification__user",
        )
        .order_by("next_attempt_at", "id")
        .values_list("notification_id", flat=True)[:limit]
    )


def mail_sweep(*, now: dt.datetime | None = None, limit: int = 200) -> dict[str, int]:
    """Tries every pending mail that is due, in one bounded batch; a server still down leaves them pending
    with a later try (at most MAX_ATTEMPTS in all)."""
    now = now or timezone.now()
    counts = {"sent": 0, "skipped": 0, "failed": 0}
    for notification_id in pending_deliveries(now=now, limit=limit):
        try:
            counts[mail_deliver(notification_id, now=now)] += 1
        except MAIL_ERRORS:
            counts["failed"] += 1
    return counts
