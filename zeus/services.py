import datetime as dt
import json
import logging
from dataclasses import dataclass, field
from typing import NamedTuple

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from zeus import consent
from zeus.errors import NotFound, ValidationFailed
from zeus.live import push_many, push_to_user
from zeus.mail import deliveries_record
from zeus.models import EMAIL_KINDS, LANGUAGE_CHOICES, ModelConsent, Notification, Profile
from zeus.money import normalize_currency
from zeus.push import push_enabled
from zeus.push_models import PushSubscription
from zeus.queries import AnyOf
from zeus.selectors import notification_pushed, profile_remember
from zeus.timeutil import validate_timezone

log = logging.getLogger(__name__)


def profile_ensure(*, user) -> Profile:
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


def profile_lock(*, user) -> Profile:
    """Locks the user's profile row until the transaction commits, serializing one user's bulk writes (a CSV
    import) across processes. Call inside `transaction.atomic()`."""
    profile_ensure(user=user)
    return Profile.objects.select_for_update().get(user=user)


def _email_notifications(current: dict, changes) -> dict:
    """`changes` merged into the stored preferences: only the known kinds, each true or false."""
    if not isinstance(changes, dict):
        raise ValidationFailed(
            gettext("email_notifications must be an object of kind → true/false."),
            fields={"email_notifications": [gettext("Expected an object.")]},
        )
    unknown = sorted(set(changes) - set(EMAIL_KINDS))
    if unknown:
        raise ValidationFailed(
            gettext("Unknown e-mail notification kind(s): %(value)s; use %(value2)s.")
            % {"value": ", ".join(map(str, unknown)), "value2": ", ".join(EMAIL_KINDS)},
            code="UNKNOWN_NOTIFICATION_KIND",
            fields={"email_notifications": {k: [gettext("Unknown kind.")] for k in map(str, unknown)}},
        )
    bad = sorted(k for k, v in changes.items() if not isinstance(v, bool))
    if bad:
        raise ValidationFailed(
            gettext("Each e-mail notification setting is true or false."),
            fields={"email_notifications": {k: [gettext("Must be true or false.")] for k in bad}},
        )
    merged = {k: bool((current or {}).get(k, False)) for k in EMAIL_KINDS}
    merged.update(changes)
    return merged


def profile_update(
    *,
    user,
    currency: str | None = None,
    timezone_name: str | None = None,
    display_name: str | None = None,
    language: str | None = None,
    email_notifications: dict | None = None,
) -> Profile:
    profile = profile_ensure(user=user)
    if language is not None:
        if language not in dict(LANGUAGE_CHOICES):
            message = _("Choose one of: %(choices)s.") % {"choices": ", ".join(dict(LANGUAGE_CHOICES))}
            raise ValidationFailed(message, code="INVALID_LANGUAGE", fields={"language": [message]})
        profile.language = language
    if currency is not None:
        try:
            profile.currency = normalize_currency(currency)
        except ValidationFailed as exc:
            raise ValidationFailed(exc.message, code=exc.code, fields={"currency": [exc.message]}) from None
    if timezone_name is not None:
        profile.timezone = validate_timezone(timezone_name)
    if display_name is not None:
        if len(display_name) > 100:
            raise ValidationFailed(
                gettext("display_name is at most 100 characters."), fields={"display_name": [gettext("Too long.")]}
            )
        profile.display_name = display_name.strip()
    if email_notifications is not None:
        profile.email_notifications = _email_notifications(profile.email_notifications, email_notifications)
    profile.save()
    profile_remember(user=user, profile=profile)
    return profile


def notification_create(
    *,
    user,
    kind: str,
    title: str,
    body: str = "",
    cta_url: str = "",
    dedupe_key: str | None = None,
    facts: dict | None = None,
) -> Notification | None:
    """Adds to the inbox and pushes it live once the write commits; where the user opted in to the kind,
    its e-mail is recorded in the same transaction and sent after commit (zeus/mail.py).

    With a `dedupe_key` a second call adds nothing and returns None, so jobs can re-run safely. Jobs that
    write many use notification_create_many (one statement, and one query for the batch's mail preferences).
    """
    try:
        with transaction.atomic():
            notification = Notification.objects.create(
                user=user,
                kind=kind,
                title=title[:200],
                body=body,
                cta_url=cta_url,
                dedupe_key=dedupe_key,
                facts=facts or {},
            )
    except IntegrityError:
        if dedupe_key is None:
            raise
        return None
    payload = {"type": "notification.push", "notification": notification_pushed([notification])(notification)}
    transaction.on_commit(lambda: push_to_user(user.id, payload))
    notifications_mail([notification])
    notifications_push([notification])
    return notification


def notifications_mail(notifications: list[Notification] | list["InboxRow"]) -> None:
    """Records the e-mail of these notifications for the users who opted in to their kind, and enqueues it
    once the transaction commits (robust: a broker that is down is logged; the sweeper sends it later)."""
    ids = deliveries_record([n for n in notifications if n is not None])
    if ids:
        transaction.on_commit(lambda: _enqueue_mail(ids), robust=True)


def _enqueue_mail(notification_ids: list[int]) -> None:
    # The tasks (and the Celery app under them) load with the first task sent, not at start (zeus/celery.py).
    from zeus.tasks import send_notification_mail

    for notification_id in notification_ids:
        try:
            send_notification_mail.delay(notification_id)
        except Exception:
            # The notification is already in the inbox; zeus.send_pending_mail sends the mail later.
            log.exception("enqueueing the mail of notification %s failed", notification_id)


def notifications_push(notifications: list[Notification] | list["InboxRow"]) -> None:
    """Enqueues the push of these notifications once the transaction commits, for the users who subscribed
    (one query for the batch). Robust: a broker that is down loses the push, never the inbox row."""
    if not push_enabled() or not notifications:
        return
    subscribed = set(
        PushSubscription.objects.filter(AnyOf("user_id", {n.user_id for n in notifications})).values_list(
            "user_id", flat=True
        )
    )
    ids = [n.id for n in notifications if n.user_id in subscribed]
    if ids:
        transaction.on_commit(lambda: _enqueue_push(ids), robust=True)


def _enqueue_push(notification_ids: list[int]) -> None:
    from zeus.tasks import send_notification_push  # with the first task sent, as in _enqueue_mail

    for notification_id in notification_ids:
        send_notification_push.delay(notification_id)


@dataclass(frozen=True)
class NotificationDraft:
    """One inbox row a job wants written: the jobs hand these to notification_create_many, which alone
    writes the inbox table."""

    user_id: int
    kind: str
    title: str
    body: str = ""
    cta_url: str = ""
    dedupe_key: str | None = None
    facts: dict = field(default_factory=dict)  # for a kind whose words are made when read (zeus/wording.py)


_INBOX_COLUMNS = ("user_id", "kind", "title", "body", "cta_url", "dedupe_key", "facts", "created_at")
_PG_TYPES = ("bigint", "text", "text", "text", "text", "text", "jsonb")
_RETURNED = ("id", "user_id", "kind", "title", "body", "cta_url", "dedupe_key", "facts")
_LOADED = (*_RETURNED, "read_at", "created_at")


class InboxRow(NamedTuple):
    """A row a batch insert added, as the statement returned it: all the mail and push records read (id, user,
    kind). A Notification is made of it only for a caller that wants the models, or for a reader online."""

    id: int
    user_id: int
    kind: str
    title: str
    body: str
    cta_url: str
    dedupe_key: str | None
    facts: object  # as the statement returned it (JSON text): decoded only when a Notification is made


def _inbox_insert(drafts: list[NotificationDraft]) -> tuple[list[InboxRow], dt.datetime]:
    """The drafts in one statement, skipping those the inbox already holds; the rows it inserted, and their
    creation time."""
    created_at = timezone.now()
    table = connection.ops.quote_name(Notification._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(c) for c in _INBOX_COLUMNS)
    values = [(d.user_id, d.kind, d.title[:200], d.body, d.cta_url, d.dedupe_key, d.facts) for d in drafts]
    stamp = connection.ops.adapt_datetimefield_value(created_at)
    # One JSON document of the rows for the whole batch, not six parameters per row (binding thousands costs
    # more than the insert), nor six arrays (psycopg quotes an array's texts one by one in Python; json.dumps is
    # one C call). The facts are in it as JSON themselves, taken as they are (e->n), not encoded once per row.
    fields = ", ".join(f"e->{n}" if kind == "jsonb" else f"(e->>{n})::{kind}" for n, kind in enumerate(_PG_TYPES))
    sql = f"INSERT INTO {table} ({columns}) SELECT {fields}, %s FROM jsonb_array_elements(%s::jsonb) AS e"
    params = [stamp, json.dumps(values)]
    sql += f" ON CONFLICT DO NOTHING RETURNING {', '.join(_RETURNED)}"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return list(map(InboxRow._make, cursor.fetchall())), created_at


def _notification(row: InboxRow, created_at: dt.datetime) -> Notification:
    # Model.from_db, as a queryset builds its rows: positional, not a keyword per field and row; every field
    # given (in the model's order), so none is deferred and read later by a query of its own.
    facts = json.loads(row.facts) if isinstance(row.facts, str) else row.facts
    return Notification.from_db(connection.alias, _LOADED, (*row[:7], facts, None, created_at))


def notification_create_many(drafts: list[NotificationDraft]) -> list[Notification]:
    """Adds a batch to the inbox in one statement and pushes what it added live once the write commits (the
    jobs: a statement per batch, never per user). Conflict-safe: a draft whose (user, dedupe key) is already
    in the inbox is skipped by the insert itself (ON CONFLICT DO NOTHING), so a re-run, a redelivered batch
    or a second worker adds nothing twice. Returns the rows this call inserted."""
    if not drafts:
        return []
    rows, created_at = _inbox_insert(drafts)
    created = [_notification(row, created_at) for row in rows]
    transaction.on_commit(lambda: push_many([(n.user_id, n) for n in created], notification_pushed))
    notifications_mail(created)
    notifications_push(created)
    return created


def notifications_add_many(drafts: list[NotificationDraft], *, languages: dict[int, str] | None = None) -> int:
    """notification_create_many for a job that needs only how many it added: the same statement, mail and
    pushes, but a Notification is made only of a row whose reader is online (the live push renders it), not
    of each of a batch's thousands of rows. With the readers' `languages` (user id: code; a job that read them
    with its batch), the push reads none: the batch's queries are then the same whoever is online."""
    if not drafts:
        return 0
    rows, created_at = _inbox_insert(drafts)

    def pushed(online: list[InboxRow]):
        models = {row.id: _notification(row, created_at) for row in online}
        render = notification_pushed(list(models.values()), languages=languages)
        return lambda row: render(models[row.id])

    transaction.on_commit(lambda: push_many([(row.user_id, row) for row in rows], pushed))
    notifications_mail(rows)
    notifications_push(rows)
    return len(rows)


def notification_mark_read(*, user, notification_id: int) -> Notification:
    notification = Notification.objects.filter(user=user, id=notification_id).first()
    if notification is None:
        raise NotFound(gettext("No such notification."))
    if notification.read_at is None:
        notification.read_at = timezone.now()
        notification.save(update_fields=["read_at"])
    return notification


def notification_mark_all_read(*, user) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).update(read_at=timezone.now())


def consent_record(*, user, granted: bool) -> ModelConsent:
    """A grant or a withdrawal of consent to send ledger data to the model provider, for the consent text in
    force (zeus/consent.py). Every decision is a row of its own, so the history says who agreed to what, when."""
    if not isinstance(granted, bool):
        raise ValidationFailed(
            gettext("model_provider is true (agree) or false (decline)."),
            fields={"model_provider": [gettext("Must be true or false.")]},
        )
    return ModelConsent.objects.create(user=user, version=consent.CONSENT_VERSION, granted=granted)
