"""Writes of the user's account: device tokens for the REST API (docs/accounts.md)."""

import datetime as dt
import secrets
from dataclasses import dataclass

from allauth.mfa.base.forms import BaseAuthenticateForm
from allauth.mfa.utils import is_mfa_enabled
from allauth.usersessions.models import UserSession
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from zeus.accounts.selectors import KEY_BYTES, key_hash
from zeus.errors import NotFound, SecondFactorRequired, TooManyAttempts, ValidationFailed
from zeus.models import DeviceToken

TOUCH_EVERY = dt.timedelta(minutes=1)
NAME_MAX = DeviceToken._meta.get_field("name").max_length


@dataclass(frozen=True)
class IssuedToken:
    token: DeviceToken
    key: str  # shown once; only its hash is stored


def device_token_create(*, user, name: str) -> IssuedToken:
    # PostgreSQL refuses NUL in text; a name from a User-Agent header is anything a client wrote.
    name = " ".join((name or "").replace("\x00", "").split())
    if not name:
        message = _("Give the device a name.")
        raise ValidationFailed(message, fields={"name": [message]})
    if len(name) > NAME_MAX:
        message = _("At most %(count)s characters.") % {"count": NAME_MAX}
        raise ValidationFailed(message, fields={"name": [message]})
    key = secrets.token_hex(KEY_BYTES)
    token = DeviceToken.objects.create(user=user, name=name, key_hash=key_hash(key), prefix=key[:8])
    return IssuedToken(token=token, key=key)


def device_token_revoke(*, user, token_id: int) -> None:
    deleted, _count = DeviceToken.objects.filter(user=user, id=token_id).delete()
    if not deleted:
        raise NotFound(_("That token does not exist."))


def device_token_touch(*, token: DeviceToken) -> None:
    """Records use, at most once a minute per token, so a busy client does not write on every request."""
    now = timezone.now()
    stale_before = now - TOUCH_EVERY
    if token.last_used_at is not None and token.last_used_at >= stale_before:
        return
    # Conditional, so concurrent requests with one token write once.
    stale = Q(last_used_at__isnull=True) | Q(last_used_at__lt=stale_before)
    DeviceToken.objects.filter(stale, id=token.id).update(last_used_at=now)
    token.last_used_at = now


def second_factor_check(*, user, code: str | None) -> None:
    """Passes when the user has no second factor, or `code` is a current code of their authenticator app or
    one of their unused recovery codes (which is then used up); raises SecondFactorRequired otherwise.

    allauth's own form checks it: a TOTP code is refused a second time, and wrong codes count against the
    user under allauth's rate limit, as on the sign-in page. Passkeys cannot answer here: they need a
    browser's ceremony.
    """
    if not is_mfa_enabled(user):
        return
    if not code:
        raise SecondFactorRequired(_("This account has a second factor: send its code as `code`."))
    form = BaseAuthenticateForm(user=user, data={"code": code})
    if not form.is_valid():
        if form.has_error("code", "too_many_login_attempts"):
            raise TooManyAttempts(_("Too many wrong codes. Try again in a few minutes."))
        raise SecondFactorRequired(_("The second factor's code is not right."))
    form.authenticator.record_usage()


def user_session_end(*, user, session_id: int) -> None:
    """Signs one of the user's sessions out (another browser, a lost phone): its session is deleted, so its
    next request is signed out."""
    session = UserSession.objects.filter(user=user, id=session_id).first()
    if session is None:
        raise NotFound(_("That session does not exist."))
    session.end()
