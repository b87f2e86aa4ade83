"""SePay connections and the landing of each delivery. The webhook view and the REST views only call these."""

import datetime as dt
import functools
import hashlib
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext

from assets.feeds.payload import SEPAY_CURRENCY, SepayTransaction
from assets.feeds.providers import income_landed_announce
from assets.feeds.selectors import DeliveryContext
from assets.landing import SyncedRow, synced_row_land
from assets.models import SepayConnection
from zeus import crypto
from zeus.errors import NotFound, ValidationFailed
from zeus.validation import clean_text, record_id

_PURPOSE = "assets.sepay-secret"
MAX_CONNECTIONS = 20


@dataclass(frozen=True)
class NewConnection:
    connection: SepayConnection
    secret: str


def sepay_connection_create(*, user, auth: str, name: str | None = None) -> NewConnection:
    """A connection with a fresh URL token and secret; the secret is returned here only."""
    if auth not in SepayConnection.Auth.values:
        raise ValidationFailed(
            gettext("auth must be api_key or hmac."), fields={"auth": [gettext("Must be api_key or hmac.")]}
        )
    name = clean_text(name, "name", max_length=100, required=False) or "SePay"
    if SepayConnection.objects.filter(user=user).count() >= MAX_CONNECTIONS:
        raise ValidationFailed(
            gettext("At most %(MAX_CONNECTIONS)s SePay connections.") % {"MAX_CONNECTIONS": MAX_CONNECTIONS},
            code="TOO_MANY_CONNECTIONS",
        )
    secret = secrets.token_urlsafe(32)
    connection = SepayConnection.objects.create(
        user=user,
        name=name,
        auth=auth,
        token=secrets.token_urlsafe(24),
        secret_encrypted=crypto.encrypt(secret, purpose=_PURPOSE),
    )
    return NewConnection(connection=connection, secret=secret)


def sepay_connection_delete(*, user, connection_id) -> None:
    """Ends the connection: its URL answers 401 from now on. What it imported stays in the ledger."""
    deleted, _ = SepayConnection.objects.filter(user=user, id=record_id(connection_id)).delete()
    if not deleted:
        raise NotFound(gettext("No such SePay connection."))


def sepay_connection_secret(secret_encrypted: str) -> str | None:
    """A connection's secret from its stored ciphertext; None when it no longer decrypts (the server's key
    changed). Kept per ciphertext and key: every delivery needs it, and a deleted connection is refused
    before its secret is asked for."""
    return _decrypted(secret_encrypted, settings.ZEUS_FIELD_ENCRYPTION_KEY or settings.SECRET_KEY)


@functools.lru_cache(maxsize=4096)
def _decrypted(secret_encrypted: str, key: str) -> str | None:
    return crypto.decrypt(secret_encrypted, purpose=_PURPOSE)


def sepay_feed_key(gateway: str, account_number: str) -> str:
    """The linked account's key: the bank and a hash of the number, so the full number is never stored."""
    digest = hashlib.sha256(f"{gateway.casefold()}|{account_number}".encode()).hexdigest()[:40]
    return f"sepay:{digest}"


def mask(account_number: str) -> str:
    return f"•••• {account_number[-4:]}"


@dataclass(frozen=True)
class Landed:
    created: bool
    transaction_id: int


# last_delivery_at is for people (the settings page): written at most this often, not on every delivery.
_DELIVERY_STAMP_EVERY = dt.timedelta(minutes=1)


def sepay_delivery_land(*, context: DeliveryContext, delivery: SepayTransaction) -> Landed:
    """One authenticated delivery into the ledger, once: a retried or concurrent delivery of the same SePay
    id finds the row the first one wrote and changes nothing. `context` is what sepay_delivery_context read
    for it. The row lands through assets.landing (its id claimed, so a twin waits for the first one and then
    answers with its row; the account found or created and locked, the row inserted, matching a confirmed
    bank text of the same payment when there is one, pairing it with its other side); once committed, a new
    row is announced."""
    text = " ".join(part for part in (delivery.content, delivery.description or "") if part)
    result = synced_row_land(
        user_id=context.user_id,
        row=SyncedRow(
            feed_key=sepay_feed_key(delivery.gateway, delivery.account_number),
            institution=delivery.gateway,
            account_name=(delivery.sub_account and f"{delivery.gateway} {mask(delivery.sub_account)}")
            or delivery.gateway,
            masked_number=mask(delivery.account_number),
            external_id=delivery.external_id,
            amount=delivery.amount,
            currency=SEPAY_CURRENCY,
            direction=delivery.direction,
            description=delivery.content or delivery.description or delivery.gateway,
            match_text=text,
            occurred_at=delivery.occurred_at,
            balance=delivery.accumulated,
        ),
    )
    if result.created:
        income_landed_announce(transaction_id=result.transaction_id, direction=delivery.direction, text=text)
        now = timezone.now()
        if context.last_delivery_at is None or now - context.last_delivery_at > _DELIVERY_STAMP_EVERY:
            SepayConnection.objects.filter(pk=context.connection_id).update(last_delivery_at=now)
    return Landed(created=result.created, transaction_id=result.transaction_id)
