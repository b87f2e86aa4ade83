"""Encryption at rest for secrets the server must read back (a webhook's HMAC secret): Fernet with a key
derived (HKDF-SHA256) from ZEUS_FIELD_ENCRYPTION_KEY, or SECRET_KEY when that is unset; one derived key per
purpose, so a value stored for one purpose never decrypts as another."""

import base64
import functools

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings


@functools.cache
def _fernet(secret: str, purpose: str) -> Fernet:
    raw = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=f"zeus.{purpose}".encode()).derive(secret.encode())
    return Fernet(base64.urlsafe_b64encode(raw))


def _current(purpose: str) -> Fernet:
    return _fernet(settings.ZEUS_FIELD_ENCRYPTION_KEY or settings.SECRET_KEY, purpose)


def encrypt(plaintext: str, *, purpose: str) -> str:
    return _current(purpose).encrypt(plaintext.encode()).decode()


def decrypt(ciphertext: str, *, purpose: str) -> str | None:
    """None when the server's secret changed since the value was stored: the value is then unusable."""
    try:
        return _current(purpose).decrypt(ciphertext.encode()).decode()
    except InvalidToken:
        return None
