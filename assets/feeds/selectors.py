"""Reads of SePay connections, scoped to one user; and what one delivery needs to know, in one query."""

import datetime as dt
import functools
import json
from dataclasses import dataclass
from decimal import Decimal

from django.db import connection as db
from django.db.models import QuerySet

from assets.feeds.payload import SepayTransaction
from assets.landing import MATCH_WINDOW
from assets.models import Asset, BankTextDraft, CategoryRule, LinkedAccount, SepayConnection, Transaction
from zeus.adapters import prepared_cursor
from zeus.models import Profile


def sepay_connection_list(*, user) -> QuerySet[SepayConnection]:
    return SepayConnection.objects.filter(user=user)


@dataclass(frozen=True)
class RuleRow:
    """A categorization rule as categorize() reads it: the row, without building the model."""

    id: int
    match_folded: str
    direction: str | None
    min_amount: Decimal | None
    max_amount: Decimal | None
    category: str


@dataclass(frozen=True)
class DeliveryContext:
    """Everything a delivery is checked and landed with, read before anything is locked or written."""

    connection_id: int
    user_id: int
    auth: str
    secret_encrypted: str
    last_delivery_at: dt.datetime | None
    # Only with a delivery that parsed (else None / False / empty):
    known_id: int | None = None  # the id's row, already in the ledger (a retry)
    timezone: str | None = None  # the user's profile's; None when the user has no profile yet
    account_id: int | None = None  # the linked account for (gateway, account number), when it exists
    institution: str = ""
    masked_number: str = ""
    asset_id: int | None = None  # the synced asset mirroring it
    draft_candidates: bool = False  # a confirmed bank text of the same time window might be this payment
    rules: tuple[RuleRow, ...] = ()
    # The user with their profile, when the read built it (the ORM read): the locked path needs the model.
    user: object | None = None

    @property
    def ready(self) -> bool:
        """The common case: the account and its asset exist, no bank text to match, a known clock. Such a
        delivery lands in one statement (sepay_delivery_land); the rest take the locked path."""
        return (
            self.account_id is not None
            and self.asset_id is not None
            and not self.draft_candidates
            and (self.timezone is not None)
        )


def _t(model) -> str:
    return db.ops.quote_name(model._meta.db_table)


@functools.cache
def _context_sql() -> str:
    return f"""
        SELECT c.id, c.user_id, c.auth, c.secret_encrypted, c.last_delivery_at, p.timezone,
            (SELECT t.id FROM {_t(Transaction)} t WHERE t.user_id = c.user_id AND t.external_id = %(ext)s::text
             LIMIT 1),
            la.id, la.institution, la.masked_number,
            (SELECT a.id FROM {_t(Asset)} a WHERE a.user_id = c.user_id AND a.linked_account_id = la.id
             ORDER BY a.id LIMIT 1),
            EXISTS (SELECT 1 FROM {_t(BankTextDraft)} d WHERE d.user_id = c.user_id AND d.status = %(confirmed)s
                    AND d.transaction_id IS NOT NULL
                    AND d.occurred_at BETWEEN %(low)s::timestamptz AND %(high)s::timestamptz),
            (SELECT json_agg(json_build_array(r.id, r.match_folded, r.direction, r.min_amount::text,
                                              r.max_amount::text, r.category) ORDER BY r.position, r.id)
             FROM {_t(CategoryRule)} r WHERE r.user_id = c.user_id AND %(ext)s::text IS NOT NULL)
        FROM {_t(SepayConnection)} c
        LEFT JOIN {_t(Profile)} p ON p.user_id = c.user_id
        LEFT JOIN {_t(LinkedAccount)} la ON la.user_id = c.user_id AND la.feed_key = %(key)s::text
        WHERE c.token = %(token)s::text
    """


def sepay_delivery_context(
    *, token: str, delivery: SepayTransaction | None, feed_key: str | None
) -> DeliveryContext | None:
    """The connection behind a webhook URL's token (None when there is none) and, for a delivery that
    parsed, what landing it needs: one query on PostgreSQL instead of a round trip for each (the connection,
    the retry check, the account and its asset, the bank-text candidates, the rules). Read before the
    delivery is authenticated, but nothing of it is answered or written until it is."""
    if db.vendor != "postgresql":
        return _context_orm(token=token, delivery=delivery, feed_key=feed_key)
    ext = delivery.external_id if delivery else None
    at = delivery.occurred_at if delivery else None
    sql = _context_sql()
    params = {
        "token": token,
        "ext": ext,
        "key": feed_key,
        "confirmed": BankTextDraft.Status.CONFIRMED,
        "low": at - MATCH_WINDOW if at else None,
        "high": at + MATCH_WINDOW if at else None,
    }
    with prepared_cursor(db) as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    cid, uid, auth, secret, last, tz, known, account, institution, masked, asset, drafts, rules = row
    if isinstance(rules, str):  # a driver that leaves json undecoded
        rules = json.loads(rules)
    return DeliveryContext(
        connection_id=cid,
        user_id=uid,
        auth=auth,
        secret_encrypted=secret,
        last_delivery_at=last,
        known_id=known,
        timezone=tz,
        account_id=account,
        institution=institution or "",
        masked_number=masked or "",
        asset_id=asset,
        draft_candidates=bool(drafts),
        rules=tuple(
            RuleRow(
                id=r[0],
                match_folded=r[1],
                direction=r[2],
                min_amount=None if r[3] is None else Decimal(r[3]),
                max_amount=None if r[4] is None else Decimal(r[4]),
                category=r[5],
            )
            for r in rules or ()
        ),
    )


def _context_orm(*, token: str, delivery: SepayTransaction | None, feed_key: str | None) -> DeliveryContext | None:
    """The same read for the embedded database (SQLite): the connection and the retry check only; every
    new delivery then takes the locked path."""
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
        known_id=known,
        user=found.user,
    )
