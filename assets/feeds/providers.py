"""What every bank-feed provider's payment becomes: one synced row on the linked account it names, landed
through assets.landing (the account found or created and locked, the row inserted once per external id, the
balance moved forward, the user notified). Casso's webhook and the reconciliation pulls of SePay's and
Casso's transactions APIs all land here, so a payment seen by a webhook and again by a pull lands once."""

import datetime as dt
import hashlib
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction as db_transaction

from assets.landing import LandResult, SyncedRow, synced_row_land
from assets.models import Transaction
from assets.signals import synced_income_landed
from zeus import crypto

FEED_CURRENCY = "VND"


@dataclass(frozen=True)
class FeedRow:
    provider: str  # "sepay" or "casso": the linked account's and the row's id namespace
    external_id: str
    bank: str
    account_number: str
    occurred_at: dt.datetime
    direction: str
    amount: Decimal
    balance: Decimal | None
    description: str


def feed_key(provider: str, bank: str, account_number: str) -> str:
    """The linked account's key: the provider and a hash of the bank and the number (never stored whole). SePay's
    matches assets.feeds.services.sepay_feed_key, so pulled rows land on the account webhooks made."""
    # Casso names one bank two ways (the webhook's `bankName` "ACB", the API's `bankCodeName` "acb_digi"): its
    # accounts are keyed by number alone, so a payment the pull brings lands on the account the webhook made.
    named = "" if provider == "casso" else bank.casefold()
    digest = hashlib.sha256(f"{named}|{account_number}".encode()).hexdigest()[:40]
    return f"{provider}:{digest}"


def mask(account_number: str) -> str:
    return f"•••• {account_number[-4:]}"


def income_landed_announce(*, transaction_id: int | None, direction: str, text: str) -> None:
    """Every provider's new incoming row is announced the same way, once its delivery committed: the goals app
    settles a debt whose VietQR purpose code the text carries (goals/debts/settling.py)."""
    if transaction_id is None or direction != Transaction.Direction.INCOME:
        return
    db_transaction.on_commit(lambda: synced_income_landed.send(Transaction, transaction_id=transaction_id, text=text))


def feed_row_land(*, user, row: FeedRow) -> LandResult:
    """The row once: a payment already in the ledger under its id (from a webhook, an earlier pull or a
    statement) changes nothing (assets.landing looks for it under the id's claim)."""
    result = _land(user, row)
    if result.created:
        income_landed_announce(transaction_id=result.transaction_id, direction=row.direction, text=row.description)
    return result


def _land(user, row: FeedRow) -> LandResult:
    return synced_row_land(
        user_id=user.pk,
        row=SyncedRow(
            feed_key=feed_key(row.provider, row.bank, row.account_number),
            institution=row.bank,
            account_name=row.bank,
            masked_number=mask(row.account_number),
            external_id=row.external_id,
            amount=row.amount,
            currency=FEED_CURRENCY,
            direction=row.direction,
            description=row.description or row.bank,
            match_text=row.description,
            occurred_at=row.occurred_at,
            balance=row.balance,
        ),
    )


def secret_encrypt(value: str, *, purpose: str) -> str:
    return crypto.encrypt(value, purpose=purpose) if value else ""


def secret_decrypt(value: str, *, purpose: str) -> str | None:
    return crypto.decrypt(value, purpose=purpose) if value else None
