"""Reads of SePay connections, scoped to one user; and the connection a delivery names."""

import datetime as dt
from dataclasses import dataclass

from django.db.models import QuerySet

from assets.feeds.payload import SepayTransaction
from assets.models import SepayConnection, Transaction


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
    known_id: int | None = None  # a delivery that parsed whose id is already in the ledger (a retry): its row


def sepay_delivery_context(*, token: str, delivery: SepayTransaction | None) -> DeliveryContext | None:
    """The connection behind a webhook URL's token (None when there is none) and, for a delivery that
    parsed, its row when the id is already in the ledger. Read before the delivery is authenticated, but
    nothing of it is answered or written until it is."""
    found = SepayConnection.objects.select_related("user__profile").filter(token=token).first()
    if found is None:
        return None
    known = None
    if delivery is not None:
        known = (
            Transaction.objects.filter(user_id=found.user_id, external_id=delivery.external_id)
            .values_list("id", flat=True)
            .first()
        )
    return DeliveryContext(
        connection_id=found.id,
        user_id=found.user_id,
        auth=found.auth,
        secret_encrypted=found.secret_encrypted,
        last_delivery_at=found.last_delivery_at,
        user=found.user,
        known_id=known,
    )
