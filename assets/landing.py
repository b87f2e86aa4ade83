"""Where synced money lands: one path for every feed (SePay) and for confirmed bank texts, so each rule
holds everywhere — the linked account found or created once, its balance moved only forward in time, one
transaction per bank id, the category from the user's rules, and the user told (inbox and open sockets)."""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError
from django.db import transaction as db_transaction
from django.utils import timezone
from django.utils.translation import get_language

from assets.models import Asset, BankTextDraft, LinkedAccount, Source, Transaction
from assets.rules.services import categorize, rules_for
from zeus.models import Notification
from zeus.money import format_amount
from zeus.services import notification_create
from zeus.timeutil import user_tz
from zeus.wording import NotificationWords

# A confirmed bank text and the feed's delivery of the same payment: same account, direction and amount,
# at most this far apart (an SMS can arrive before or after the bank posts the transaction).
MATCH_WINDOW = dt.timedelta(hours=36)


@dataclass(frozen=True)
class LandResult:
    created: bool
    transaction_id: int
    # A confirmed draft's transaction that this delivery turned out to be (counted once, now synced).
    matched_draft: bool = False


def synced_account_lock(
    *, user, feed_key: str, institution: str, name: str, masked_number: str, currency: str
) -> tuple[LinkedAccount, Asset | None]:
    """The user's linked account for this feed key, locked until the transaction ends, with the synced asset
    that mirrors it (one query when it exists). Created on first sight, with a synced bank_account asset, so
    net worth and the asset filters include it; concurrent first deliveries meet on the unique
    (user, feed_key) and share one row. Must run inside a transaction."""
    if not db_transaction.get_connection().in_atomic_block:
        raise RuntimeError("synced_account_lock must run inside transaction.atomic()")
    asset = (
        Asset.objects.select_for_update(of=("linked_account",))
        .select_related("linked_account")
        .filter(user=user, linked_account__feed_key=feed_key)
        .order_by("id")
        .first()
    )
    if asset is not None:
        return asset.linked_account, asset
    account = LinkedAccount.objects.get_or_create(
        user=user,
        feed_key=feed_key,
        defaults={
            "institution": institution[:100],
            "name": name[:100],
            "masked_number": masked_number,
            "currency": currency,
        },
    )[0]
    account = LinkedAccount.objects.select_for_update().get(pk=account.pk)
    asset = Asset.objects.filter(user=user, linked_account=account).order_by("id").first()
    if asset is None:
        asset = Asset.objects.create(
            user=user,
            name=f"{institution} {masked_number}"[:100],
            kind=Asset.Kind.BANK_ACCOUNT,
            currency=currency,
            source=Source.SYNCED,
            linked_account=account,
        )
    return account, asset


def synced_transaction_land(
    *,
    user,
    account: LinkedAccount,
    asset: Asset | None,
    external_id: str,
    amount: Decimal,
    currency: str,
    direction: str,
    description: str,
    match_text: str,
    occurred_at: dt.datetime,
    balance: Decimal | None,
    tz=None,
    notify: bool = True,
) -> LandResult:
    """Must run inside the transaction that locked `account` (synced_account_lock): deliveries to one
    account are applied one at a time, so a second delivery of the same id waits for the first to commit
    and then meets its row on the unique (user, external_id), and the balance only moves forward."""
    if not db_transaction.get_connection().in_atomic_block:
        raise RuntimeError("synced_transaction_land must run inside transaction.atomic()")
    occurred_on = occurred_at.astimezone(tz or user_tz(user)).date()
    matched = _confirmed_draft_match(user, account, amount, direction, occurred_at)
    if matched is not None:
        # The user already confirmed this payment from a bank text: the feed makes that row the bank's
        # (read only, with the bank's id) instead of adding it a second time.
        Transaction.objects.filter(pk=matched).update(
            source=Source.SYNCED, external_id=external_id, asset=asset, updated_at=timezone.now()
        )
        _move_balance(account, asset, balance, occurred_at)
        return LandResult(created=False, transaction_id=matched, matched_draft=True)
    category = categorize(rules=rules_for(user=user), text=match_text, amount=amount, direction=direction).category
    try:
        with db_transaction.atomic():
            txn = Transaction.objects.create(
                user=user,
                amount=amount,
                currency=currency,
                direction=direction,
                description=description[:200],
                category=category,
                occurred_on=occurred_on,
                asset=asset,
                source=Source.SYNCED,
                external_id=external_id,
            )
    except IntegrityError:
        # The same id landed first: a delivery that waited for our lock, or a statement of the same bank id.
        existing = Transaction.objects.filter(user=user, external_id=external_id).values_list("id", flat=True).first()
        if existing is None:
            raise
        return LandResult(created=False, transaction_id=existing)
    _move_balance(account, asset, balance, occurred_at)
    if notify:
        facts = {
            "sign": "+" if direction == Transaction.Direction.INCOME else "-",
            "amount": str(amount),
            "currency": currency,
            "account": f"{account.institution} {account.masked_number}",
        }
        notification_create(
            user=user,
            kind=Notification.Kind.TRANSACTION_SYNCED,
            # Stored locale-neutral (the feed's request speaks no one's language); read in the reader's locale.
            title=f"{facts['sign']}{format_amount(amount, currency)} · {facts['account']}",
            facts=facts,
            body=description[:500],
            cta_url="/transactions",
            dedupe_key=f"synced:{external_id}"[:200],
        )
    return LandResult(created=True, transaction_id=txn.id)


def _move_balance(account: LinkedAccount, asset: Asset | None, balance: Decimal | None, at: dt.datetime) -> None:
    fields = {"last_synced_at": timezone.now()}
    if balance is not None and (account.balance_at is None or at >= account.balance_at):
        fields.update(balance=balance, balance_at=at)
        if asset is not None:
            Asset.objects.filter(pk=asset.pk).update(balance=balance, updated_at=timezone.now())
    LinkedAccount.objects.filter(pk=account.pk).update(**fields)


def _confirmed_draft_match(user, account, amount, direction, occurred_at) -> int | None:
    """A transaction confirmed from a bank text, not yet matched to the bank, same amount and direction,
    on this account, within the window. The draft's own columns and their index
    narrow it first (almost always to nothing); the few candidates are then checked one by one."""
    candidates = BankTextDraft.objects.filter(
        user=user,
        status=BankTextDraft.Status.CONFIRMED,
        occurred_at__gte=occurred_at - MATCH_WINDOW,
        occurred_at__lte=occurred_at + MATCH_WINDOW,
        transaction__isnull=False,
    ).values_list("transaction_id", "linked_account_id", "account_mask")
    tail = account.masked_number[-3:]
    for transaction_id, linked_account_id, mask in candidates.order_by("id")[:20]:
        if linked_account_id not in (None, account.id):
            continue
        # A text that named no account (a wallet's) is not taken for this bank's payment.
        if linked_account_id is None and not (mask and mask.endswith(tail)):
            continue
        txn = Transaction.objects.filter(
            pk=transaction_id, external_id__isnull=True, amount=amount, direction=direction
        ).first()
        if txn is None:
            continue
        return txn.id
    return None


def synced_words(facts: dict) -> NotificationWords:
    """A synced row's notice: its amount in the reader's locale; the bank's description stays as stored."""
    amount = format_amount(Decimal(facts["amount"]), facts["currency"], locale=get_language())
    return NotificationWords(title=f"{facts['sign']}{amount} · {facts['account']}", body="", cta_url="")
