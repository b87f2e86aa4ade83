"""Casso connections and the landing of each webhook delivery (§6.4). The webhook view and the REST views
only call these."""

import secrets

from django.utils import timezone
from django.utils.translation import gettext

from assets.feeds.casso import CassoTransaction
from assets.feeds.providers import FeedRow, feed_row_land, secret_decrypt, secret_encrypt
from assets.landing import LandResult
from assets.models import CassoConnection
from zeus.errors import NotFound, ValidationFailed
from zeus.validation import clean_text, record_id

SECRET_PURPOSE = "assets.casso-secret"
API_KEY_PURPOSE = "assets.casso-api-key"
MAX_CONNECTIONS = 20


def casso_connection_create(
    *, user, name: str | None = None, api_key: str | None = None
) -> tuple[CassoConnection, str]:
    """A connection with a fresh URL token and signing secret (returned here only, to paste into Casso's
    webhook settings as its secure key); `api_key`, Casso's API key, lets the daily reconciliation pull."""
    name = clean_text(name, "name", max_length=100, required=False) or "Casso"
    api_key = clean_text(api_key, "api_key", max_length=500, required=False) or ""
    if CassoConnection.objects.filter(user=user).count() >= MAX_CONNECTIONS:
        raise ValidationFailed(
            gettext("At most %(MAX_CONNECTIONS)s Casso connections.") % {"MAX_CONNECTIONS": MAX_CONNECTIONS},
            code="TOO_MANY_CONNECTIONS",
        )
    secret = secrets.token_urlsafe(32)
    connection = CassoConnection.objects.create(
        user=user,
        name=name,
        token=secrets.token_urlsafe(24),
        secret_encrypted=secret_encrypt(secret, purpose=SECRET_PURPOSE),
        api_key_encrypted=secret_encrypt(api_key, purpose=API_KEY_PURPOSE),
    )
    return connection, secret


def casso_connection_list(*, user):
    return CassoConnection.objects.filter(user=user).order_by("-created_at", "-id")


def casso_connection_delete(*, user, connection_id) -> None:
    """Ends the connection: its URL answers 401 from now on. What it imported stays in the ledger."""
    deleted, _ = CassoConnection.objects.filter(user=user, id=record_id(connection_id)).delete()
    if not deleted:
        raise NotFound(gettext("No such Casso connection."))


def casso_connection_by_token(token: str) -> CassoConnection | None:
    if not token or len(token) > 64:
        return None
    return CassoConnection.objects.select_related("user__profile").filter(token=token).first()


def casso_connection_secret(connection: CassoConnection) -> str | None:
    return secret_decrypt(connection.secret_encrypted, purpose=SECRET_PURPOSE)


def casso_connection_api_key(connection: CassoConnection) -> str | None:
    return secret_decrypt(connection.api_key_encrypted, purpose=API_KEY_PURPOSE)


def casso_row(payment: CassoTransaction) -> FeedRow:
    return FeedRow(
        provider="casso",
        external_id=payment.external_id,
        bank=payment.bank,
        account_number=payment.account_number,
        occurred_at=payment.occurred_at,
        direction=payment.direction,
        amount=payment.amount,
        balance=payment.balance,
        description=payment.description,
    )


def casso_delivery_land(*, connection: CassoConnection, payment: CassoTransaction) -> LandResult:
    """One authenticated delivery into the ledger, once: a retry of the same Casso id changes nothing."""
    result = feed_row_land(user=connection.user, row=casso_row(payment))
    if result.created:
        CassoConnection.objects.filter(pk=connection.pk).update(last_delivery_at=timezone.now())
    return result


def casso_pull_stamp(*, connection_id: int) -> None:
    CassoConnection.objects.filter(pk=connection_id).update(last_pulled_at=timezone.now())
