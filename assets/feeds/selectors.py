"""Reads of SePay connections, scoped to one user; and the connection a delivery names."""

import datetime as dt
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, QuerySet, Subquery

from assets.feeds.payload import SepayTransaction
from assets.landing import confirmed_drafts_near
from assets.models import CategoryRule, SepayConnection, Transaction


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
    has_rules: bool = True  # whether the user has categorization rules to read
    drafts_near: bool = True  # whether a confirmed bank text of the user's could be this payment


def sepay_delivery_context(*, token: str, delivery: SepayTransaction | None) -> DeliveryContext | None:
    """The connection behind a webhook URL's token (None when there is none) with its user and profile and,
    for a delivery that parsed, what landing it needs to know first, in the same read: its row when the id is
    already in the ledger, whether the user has rules, whether a confirmed bank text could be this payment.
    Read before the delivery is authenticated, but nothing of it is answered or written until it is."""
    found = SepayConnection.objects.select_related("user__profile")
    if delivery is not None:
        owner = OuterRef("user_id")
        found = found.annotate(
            known_id=Subquery(
                Transaction.objects.filter(user_id=owner, external_id=delivery.external_id).order_by().values("id")[:1]
            ),
            has_rules=Exists(CategoryRule.objects.filter(user_id=owner)),
            drafts_near=Exists(confirmed_drafts_near(owner, delivery.occurred_at)),
        )
    try:
        found = found.get(token=token)
    except SepayConnection.DoesNotExist:
        return None
    return DeliveryContext(
        connection_id=found.id,
        user_id=found.user_id,
        auth=found.auth,
        secret_encrypted=found.secret_encrypted,
        last_delivery_at=found.last_delivery_at,
        user=found.user,
        known_id=getattr(found, "known_id", None),
        has_rules=getattr(found, "has_rules", True),
        drafts_near=getattr(found, "drafts_near", True),
    )
