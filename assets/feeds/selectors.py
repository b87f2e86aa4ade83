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
    user: object  # the user with their profile: landing needs the clock and the rules' owner


def sepay_delivery_context(*, token: str) -> DeliveryContext | None:
    """The connection behind a webhook URL's token (None when there is none) with its user and profile. Whether
    the delivery's id is already in the ledger is asked by its landing, under the id's claim, where a retry
    and a twin sent at the same moment are answered alike (assets.landing)."""
    try:
        found = SepayConnection.objects.select_related("user__profile").get(token=token)
    except SepayConnection.DoesNotExist:
        return None
    return DeliveryContext(
        connection_id=found.id,
        user_id=found.user_id,
        auth=found.auth,
        secret_encrypted=found.secret_encrypted,
        last_delivery_at=found.last_delivery_at,
        user=found.user,
    )
