"""Where synced money lands: one path for every feed (SePay) and for confirmed bank texts, so each rule
holds everywhere — the linked account found or created once, its balance moved only forward in time, one
transaction per bank id, the category from the user's rules, and the user told (inbox and open sockets)."""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError
from django.db import transaction as db_transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import get_language

from assets.ledger.pairing import transfer_pair_arrival
from assets.models import Asset, BankTextDraft, LinkedAccount, Source, Transaction
from assets.rules.services import categorize, rules_for
from assets.sql import synced_row_claim
from zeus.models import Notification
from zeus.money import format_amount
from zeus.services import NotificationDraft, notification_create_many
from zeus.wording import NotificationWords

# A confirmed bank text and the feed's delivery of the same payment: same account, direction and amount,
# at most this far apart (an SMS can arrive before or after the bank posts the transaction).
MATCH_WINDOW = dt.timedelta(hours=36)
# What a landing reads of a known account's asset and linked account (_move_balance, _tell, the draft match):
# the account's lock reads these columns only.
_LANDING_READS = (
    "id",
    "linked_account",
    "linked_account__institution",
    "linked_account__masked_number",
    "linked_account__balance_at",
)


@dataclass(frozen=True)
class LandResult:
    created: bool
    transaction_id: int
    # A confirmed draft's transaction that this delivery turned out to be (counted once, now synced).
    matched_draft: bool = False


@dataclass(frozen=True)
class SyncedRow:
    """One payment a feed delivers, on the linked account its feed key names."""

    feed_key: str
    institution: str
    account_name: str
    masked_number: str
    external_id: str
    amount: Decimal
    currency: str
    direction: str
    description: str
    match_text: str  # what the rules read (the bank's content and description)
    occurred_at: dt.datetime
    balance: Decimal | None


def synced_row_land(*, user_id: int, row: SyncedRow) -> LandResult:
    """The row once, in one transaction: the payment's id claimed (assets.sql) and looked for, then the
    account found (or created) and locked, the row inserted, the balance moved forward, the inbox told, and
    the row paired with its other side when that is in. A second delivery of the same id (SePay's retry, or
    its twin sent at the same moment) waits on the claim until the first one's transaction ends, then finds
    its row and answers with it, having locked and written nothing. Deliveries to one account are applied
    one at a time, on the account's lock. A row of the same bank id landed by another path (a statement)
    meets this insert on the unique (user, external_id): the whole transaction rolls back (nothing is
    written before that insert but, on an account's first sight, the account) and answers with that row.
    The row is dated on the bank's day: `occurred_at` in the feed's own zone, as a statement's date is the
    bank's, never moved into the user's (a morning payment in Vietnam is not the day before for a user abroad)."""
    try:
        with db_transaction.atomic():
            synced_row_claim(user_id=user_id, external_id=row.external_id)
            known = _known(user_id, row)
            if known is not None:
                return LandResult(created=False, transaction_id=known)
            rules = rules_for(user=user_id)
            account, asset = _account_lock(user_id, row)
            return _transaction_land(user_id, account, asset, row, rules)
    except IntegrityError:
        existing = _known(user_id, row)
        if existing is None:
            raise
        return LandResult(created=False, transaction_id=existing)


def _known(user_id: int, row: SyncedRow) -> int | None:
    # Unordered: the id is unique per user, so there is one row or none. Every delivery asks this, a retry and
    # a twin too.
    found = Transaction.objects.filter(user_id=user_id, external_id=row.external_id).order_by()
    return next(iter(found.values_list("id", flat=True)[:1]), None)


def _account_lock(user_id: int, row: SyncedRow) -> tuple[LinkedAccount, Asset | None]:
    """The user's linked account for this feed key, locked until the transaction ends, with the synced asset
    that mirrors it (one query when it exists). Created on first sight, with a synced bank_account asset, so
    net worth and the asset filters include it; concurrent first deliveries meet on the unique
    (user, feed_key) and share one row."""
    # Only what a landing reads of them (_LANDING_READS): every new delivery pays for this read, and the
    # rest of both rows would be built for nothing.
    asset = (
        Asset.objects.select_for_update(of=("linked_account",))
        .select_related("linked_account")
        .only(*_LANDING_READS)
        .filter(user_id=user_id, linked_account__feed_key=row.feed_key)
        .order_by("id")
        .first()
    )
    if asset is not None:
        return asset.linked_account, asset
    account = LinkedAccount.objects.get_or_create(
        user_id=user_id,
        feed_key=row.feed_key,
        defaults={
            "institution": row.institution[:100],
            "name": row.account_name[:100],
            "masked_number": row.masked_number,
            "currency": row.currency,
        },
    )[0]
    account = LinkedAccount.objects.select_for_update().get(pk=account.pk)
    asset = Asset.objects.filter(user_id=user_id, linked_account=account).order_by("id").first()
    if asset is None:
        asset = Asset.objects.create(
            user_id=user_id,
            name=f"{row.institution} {row.masked_number}"[:100],
            kind=Asset.Kind.BANK_ACCOUNT,
            currency=row.currency,
            source=Source.SYNCED,
            linked_account=account,
        )
    return account, asset


def _transaction_land(
    user_id: int, account: LinkedAccount, asset: Asset | None, row: SyncedRow, rules: list
) -> LandResult:
    matched = _confirmed_draft_match(user_id, account, row)
    if matched is not None:
        # The user already confirmed this payment from a bank text: the feed makes that row the bank's
        # (read only, with the bank's id) instead of adding it a second time.
        Transaction.objects.filter(pk=matched).update(
            source=Source.SYNCED, external_id=row.external_id, asset=asset, updated_at=timezone.now()
        )
        _move_balance(account, asset, row.balance, row.occurred_at)
        return LandResult(created=False, transaction_id=matched, matched_draft=True)
    category = categorize(rules=rules, text=row.match_text, amount=row.amount, direction=row.direction).category
    # No savepoint around it: a row of the same bank id from another path makes this insert fail, and then the
    # whole landing rolls back.
    txn = Transaction.objects.create(
        user_id=user_id,
        amount=row.amount,
        currency=row.currency,
        direction=row.direction,
        description=row.description[:200],
        category=category,
        occurred_on=row.occurred_at.date(),
        asset=asset,
        source=Source.SYNCED,
        external_id=row.external_id,
    )
    _move_balance(account, asset, row.balance, row.occurred_at)
    _tell(user_id, account, row)
    # Its other side may have landed already, from this feed or another (docs/ledger.md, "Pairing"): paired
    # in the same transaction, after the account's lock and before the commit that releases both.
    transfer_pair_arrival(user_id=user_id, row=txn)
    return LandResult(created=True, transaction_id=txn.id)


def _tell(user_id: int, account: LinkedAccount, row: SyncedRow) -> None:
    facts = {
        "sign": "+" if row.direction == Transaction.Direction.INCOME else "-",
        "amount": str(row.amount),
        "currency": row.currency,
        "account": f"{account.institution} {account.masked_number}",
    }
    # One insert, skipped by the insert itself when the inbox already holds it; pushed live after commit, to
    # an open socket only (zeus.services).
    notification_create_many(
        [
            NotificationDraft(
                user_id=user_id,
                kind=Notification.Kind.TRANSACTION_SYNCED,
                # Stored locale-neutral (the feed's request speaks no one's language); read in the reader's locale.
                title=f"{facts['sign']}{format_amount(row.amount, row.currency)} · {facts['account']}",
                facts=facts,
                body=row.description[:500],
                cta_url="/transactions",
                dedupe_key=f"synced:{row.external_id}"[:200],
            )
        ]
    )


def _move_balance(account: LinkedAccount, asset: Asset | None, balance: Decimal | None, at: dt.datetime) -> None:
    fields = {"last_synced_at": timezone.now()}
    if balance is not None and (account.balance_at is None or at >= account.balance_at):
        fields.update(balance=balance, balance_at=at)
        if asset is not None:
            Asset.objects.filter(pk=asset.pk).update(balance=balance, updated_at=timezone.now())
    LinkedAccount.objects.filter(pk=account.pk).update(**fields)


def _confirmed_draft_match(user_id: int, account: LinkedAccount, row: SyncedRow) -> int | None:
    """A transaction confirmed from a bank text, not yet matched to the bank, same amount and direction,
    on this account, within the window. The draft's own columns and their index
    narrow it first (almost always to nothing); the few candidates are then checked one by one."""
    candidates = _confirmed_drafts_near(user_id, row.occurred_at).values_list(
        "transaction_id", "linked_account_id", "account_mask"
    )
    tail = account.masked_number[-3:]
    for transaction_id, linked_account_id, mask in candidates.order_by("id")[:20]:
        if linked_account_id not in (None, account.id):
            continue
        # A text that named no account (a wallet's) is not taken for this bank's payment.
        if linked_account_id is None and not (mask and mask.endswith(tail)):
            continue
        txn = Transaction.objects.filter(
            pk=transaction_id, external_id__isnull=True, amount=row.amount, direction=row.direction
        ).first()
        if txn is None:
            continue
        return txn.id
    return None


def _confirmed_drafts_near(user_id: int, occurred_at: dt.datetime) -> QuerySet[BankTextDraft]:
    """The user's confirmed bank texts that could be this payment: within the window, with their row."""
    return BankTextDraft.objects.filter(
        user_id=user_id,
        status=BankTextDraft.Status.CONFIRMED,
        occurred_at__gte=occurred_at - MATCH_WINDOW,
        occurred_at__lte=occurred_at + MATCH_WINDOW,
        transaction__isnull=False,
    )


def synced_words(facts: dict) -> NotificationWords:
    """A synced row's notice: its amount in the reader's locale; the bank's description stays as stored."""
    amount = format_amount(Decimal(facts["amount"]), facts["currency"], locale=get_language())
    return NotificationWords(title=f"{facts['sign']}{amount} · {facts['account']}", body="", cta_url="")
