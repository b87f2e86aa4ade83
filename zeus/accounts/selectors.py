"""Reads of the user's account: device tokens, second factors."""

import hashlib

from allauth.mfa.models import Authenticator
from allauth.usersessions.models import UserSession
from django.db.models import QuerySet

from zeus.models import DeviceToken

KEY_BYTES = 20  # 40 hexadecimal characters, the shape DRF's tokens had, so clients that check it still pass


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def device_token_list(*, user) -> QuerySet[DeviceToken]:
    return DeviceToken.objects.filter(user=user)


def device_token_authenticate(*, key: str) -> DeviceToken | None:
    """The token a presented key belongs to, with its user and profile; None for any other key. A key no
    token can have (the wrong length, a NUL) is refused without asking the database."""
    if len(key) != 2 * KEY_BYTES or "\x00" in key:
        return None
    return DeviceToken.objects.select_related("user__profile").filter(key_hash=key_hash(key)).first()


def authenticator_list(*, user) -> list[Authenticator]:
    return list(Authenticator.objects.filter(user=user).order_by("type", "created_at"))


def user_session_list(*, user) -> list[UserSession]:
    """The user's signed-in sessions, newest first (ended or expired ones are dropped on the way)."""
    return sorted(UserSession.objects.purge_and_list(user), key=lambda s: s.created_at, reverse=True)
