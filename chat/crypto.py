"""Encryption at rest for personal provider keys: Fernet with a key derived (HKDF-SHA256) from
ZEUS_FIELD_ENCRYPTION_KEY, or SECRET_KEY when that is unset."""

import base64
import functools

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings


@functools.cache
def _fernet(secret: str) -> Fernet:
    raw = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"zeus.chat.provider-key").derive(secret.encode())
    return Fernet(base64.urlsafe_b64encode(raw))


def _current() -> Fernet:
    return _fernet(settings.ZEUS_FIELD_ENCRYPTION_KEY or settings.SECRET_KEY)


def encrypt(plaintext: str) -> str:
    return _current().encrypt(plaintext.encode()).decode()


def decrypt(ciphertext: str) -> str | None:
    """None when the secret changed since the value was stored: the key is then unusable, not an error."""
    try:
        return _current().decrypt(ciphertext.encode()).decode()
    except InvalidToken:
        return None
