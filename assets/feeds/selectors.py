"""Reads of SePay connections, scoped to one user; and the connection a delivery names."""

import datetime as dt
from dataclasses import dataclass

from django.db.models import QuerySet

from assets.models import SepayConnection


def sepay_connection_list(*, user) -> QuerySet[SepayConnection]:
    return SepayConnection.objects.filter(user=user)


@dataclass(frozen=True)
class DeliveryContext:
    """The connection a delivery names, read before anything is locked or written."""

    connection_id: int
    user_id: int
    auth: str
    secret_encrypted: str
    last_delivery_at: dt.datetime | None


def sepay_delivery_context(*, token: str) -> DeliveryContext | None:
    """The connection behind a webhook URL's token (None when there is none) Whether
    the delivery's id is already in the ledger is asked by its landing, under the id's claim, where a retry
    and a twin sent at the same moment are answered alike (assets.landing).

    Only the columns a delivery uses, as values: every delivery (a retry and a twin too) pays for this read,
    and neither the user's row (their password hash included) nor their profile is needed as a model."""
    found = (
        SepayConnection.objects.filter(token=token)
        .values_list("id", "user_id", "auth", "secret_encrypted", "last_delivery_at")
        .first()
    )
    if found is None:
        return None
    connection_id, user_id, auth, secret_encrypted, last_delivery_at = found
    return DeliveryContext(
        connection_id=connection_id,
        user_id=user_id,
        auth=auth,
        secret_encrypted=secret_encrypted,
        last_delivery_at=last_delivery_at,
    )
