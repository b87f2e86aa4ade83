"""Web Push for the inbox (docs/push.md): a browser subscribes, and each notification added to its user's inbox
is pushed to it once the write commits, through a Celery task, encrypted (RFC 8291, aes128gcm) with http_ece,
signed with the site's VAPID key (RFC 8292) by py_vapid and posted with the standard library. Off unless the
three ZEUS_WEBPUSH_VAPID_* settings are set. A subscription the push service no longer knows (404, 410) is
removed."""

import base64
import binascii
import http.client
import json
import logging
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext

from zeus.account_data.unlocked import of_unlocked_users
from zeus.errors import Conflict, NotFound, ValidationFailed
from zeus.mail import profile_language
from zeus.models import Notification, Profile
from zeus.push_models import PushSubscription
from zeus.selectors import notification_to_dict

log = logging.getLogger(__name__)

# How long a push service keeps a push for an offline browser: a notification is still worth a day later.
PUSH_TTL_SECONDS = 24 * 3600
PUSH_TIMEOUT_SECONDS = 10
# How long the VAPID JWT is good for (RFC 8292 allows up to a day).
VAPID_LIFETIME_SECONDS = 12 * 3600
# The push service forgot the subscription (unsubscribed, expired): it is removed, never tried again.
GONE_STATUSES = (404, 410)
MAX_SUBSCRIPTIONS_PER_USER = 20


def push_enabled() -> bool:
    return bool(
        settings.ZEUS_WEBPUSH_VAPID_PUBLIC_KEY
        and settings.ZEUS_WEBPUSH_VAPID_PRIVATE_KEY
        and settings.ZEUS_WEBPUSH_VAPID_SUBJECT
    )


def push_public_key() -> str:
    """The applicationServerKey a browser subscribes with (base64url, uncompressed P-256 point); "" when off."""
    return settings.ZEUS_WEBPUSH_VAPID_PUBLIC_KEY if push_enabled() else ""


def push_panel(request, today) -> dict | None:
    """The /settings panel's data (zeus/panels.py): left out while push is off."""
    return {"push_public_key": push_public_key()} if push_enabled() else None


def _require_enabled() -> None:
    if not push_enabled():
        raise Conflict(gettext("Web push is not turned on for this site."), code="PUSH_DISABLED")


def _b64url(value, field: str, length: int, first: int | None = None) -> str:
    text = value if isinstance(value, str) else ""
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != length or (first is not None and raw[0] != first):
        raise ValidationFailed(
            gettext("keys.%(field)s is not a browser's push key.") % {"field": field},
            fields={f"keys.{field}": [gettext("Not a push key.")]},
        )
    return text.rstrip("=")


def _endpoint(value) -> str:
    parts = urlsplit(value) if isinstance(value, str) and len(value) <= 1000 else None
    allowed = ("https", "http") if settings.ZEUS_WEBPUSH_ALLOW_HTTP else ("https",)
    if parts is None or parts.scheme not in allowed or not parts.hostname:
        raise ValidationFailed(
            gettext("endpoint must be the push service's https URL."),
            fields={"endpoint": [gettext("Not a push endpoint.")]},
        )
    return value


def push_subscription_save(*, user, endpoint, keys) -> PushSubscription:
    """Keeps a browser's subscription (PushSubscription.toJSON(): endpoint, keys.p256dh, keys.auth) for `user`;
    the same endpoint again updates it, whoever had it."""
    _require_enabled()
    keys = keys if isinstance(keys, dict) else {}
    values = {
        "user": user,
        # An uncompressed P-256 point (65 bytes, 0x04 first) and a 16-byte secret, as browsers send them.
        "p256dh": _b64url(keys.get("p256dh"), "p256dh", 65, first=4),
        "auth": _b64url(keys.get("auth"), "auth", 16),
    }
    endpoint = _endpoint(endpoint)
    owned = PushSubscription.objects.filter(user=user).exclude(endpoint=endpoint).count()
    if owned >= MAX_SUBSCRIPTIONS_PER_USER:
        raise Conflict(
            gettext("At most %(MAX_SUBSCRIPTIONS_PER_USER)s browsers receive pushes; remove one first.")
            % {"MAX_SUBSCRIPTIONS_PER_USER": MAX_SUBSCRIPTIONS_PER_USER},
            code="TOO_MANY_SUBSCRIPTIONS",
        )
    # One statement (INSERT … ON CONFLICT (endpoint) DO UPDATE): a browser that subscribes twice at once, or
    # from two accounts, leaves one row and never a unique-violation 500.
    PushSubscription.objects.bulk_create(
        [PushSubscription(endpoint=endpoint, **values)],
        update_conflicts=True,
        unique_fields=["endpoint"],
        update_fields=["user", "p256dh", "auth"],
    )
    return PushSubscription.objects.get(endpoint=endpoint)


def push_subscription_delete(*, user, endpoint) -> None:
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=str(endpoint or "")).delete()
    if not deleted:
        raise NotFound(gettext("No such push subscription."), fields={"endpoint": [gettext("Not subscribed.")]})


def push_subscription_list(*, user):
    return PushSubscription.objects.filter(user=user)


def push_message(notification: Notification) -> str:
    """What the service worker shows (docs/push.md), in the user's language."""
    profile = Profile.objects.filter(user_id=notification.user_id).first() or Profile(user_id=notification.user_id)
    with translation.override(profile_language(profile)):
        shown = notification_to_dict(notification)
    return json.dumps(
        {
            "id": shown["id"],
            "kind": shown["kind"],
            "title": shown["title"],
            "body": shown["body"],
            "url": shown["cta_url"] or "/inbox",
        },
        ensure_ascii=False,
    )


def _unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def push_send(subscription: PushSubscription, data: bytes, vapid) -> int:
    """Posts `data` to one browser's push service, the push service's HTTP status back. The body is RFC 8291's
    aes128gcm: a fresh P-256 key agreed with the browser's p256dh key, its auth secret and a random salt; the
    Authorization header is a VAPID JWT for the endpoint's origin signed by `vapid` (a py_vapid key), with the
    key as `k=`. Raises OSError (or http.client.HTTPException) when the service cannot be reached or answers
    nonsense."""
    # Imported here, in the Celery task that pushes: no other process (web, `manage.py`) needs them at start
    # (tests/test_startup.py).
    import http_ece
    from cryptography.hazmat.primitives.asymmetric import ec

    parts = urlsplit(subscription.endpoint)
    if parts.scheme not in ("https", "http"):  # saved ones are checked (_endpoint); urllib would open file: too
        raise urllib.error.URLError(f"not a push endpoint: {parts.scheme}")
    claims = {
        "sub": settings.ZEUS_WEBPUSH_VAPID_SUBJECT,
        "aud": f"{parts.scheme}://{parts.netloc}",
        "exp": int(time.time()) + VAPID_LIFETIME_SECONDS,
    }
    body = http_ece.encrypt(
        data,
        private_key=ec.generate_private_key(ec.SECP256R1()),
        dh=_unb64url(subscription.p256dh),
        auth_secret=_unb64url(subscription.auth),
        version="aes128gcm",
    )
    headers = {
        **vapid.sign(claims),
        "TTL": str(PUSH_TTL_SECONDS),
        "Content-Encoding": "aes128gcm",
        # urllib would otherwise label the body a form; RFC 8030's is opaque bytes.
        "Content-Type": "application/octet-stream",
    }
    request = urllib.request.Request(subscription.endpoint, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=PUSH_TIMEOUT_SECONDS) as response:
            return response.status
    except urllib.error.HTTPError as exc:  # a status outside 2xx is an answer, not a failure to reach
        exc.close()
        return exc.code


def push_deliver(notification_id: int) -> dict[str, int]:
    """Pushes one notification to each of its user's subscriptions: counts of `sent`, `gone` (removed) and
    `failed` (kept; the push service refused or could not be reached)."""
    # Imported here, in the Celery task that pushes (py_vapid brings cryptography).
    from py_vapid import Vapid

    counts = {"sent": 0, "gone": 0, "failed": 0}
    notification = Notification.objects.filter(id=notification_id).first()
    if notification is None or not push_enabled():
        return counts
    data = push_message(notification).encode()
    vapid = Vapid.from_string(settings.ZEUS_WEBPUSH_VAPID_PRIVATE_KEY)
    for subscription in of_unlocked_users(PushSubscription.objects.filter(user_id=notification.user_id)):
        try:
            status = push_send(subscription, data, vapid)
        except (OSError, http.client.HTTPException) as exc:  # unreachable, timed out, refused, garbled
            log.warning("web push to subscription %s failed: %s", subscription.id, exc)
            counts["failed"] += 1
            continue
        if status in GONE_STATUSES:
            subscription.delete()
            counts["gone"] += 1
        elif status > 202:  # 201 Created is a push accepted (RFC 8030); 200 and 202 too
            log.warning("web push to subscription %s failed: %s", subscription.id, status)
            counts["failed"] += 1
        else:
            PushSubscription.objects.filter(id=subscription.id).update(last_pushed_at=timezone.now())
            counts["sent"] += 1
    return counts
