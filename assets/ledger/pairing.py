"""Transfers found on arrival (docs/ledger.md, "Pairing"). Every source that lands rows calls
`transfer_pair_arrivals` once they are written: manual entry, the chat and confirmed bank texts (through
transaction_create), a SePay or Casso delivery, a statement import.

Race safety: pairing locks the user's profile row (as zeus.services.profile_lock does) before it looks, so two
deliveries of the two sides landing at once are paired one after the other: the second sees the first's
committed row and pairs them. The partial unique constraints on Transfer stop a row from entering two pairs
whatever path wrote them.
"""

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import IntegrityError
from django.db import transaction as db_transaction
from django.db.models import DateField, Exists, OuterRef, Q
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import override

from assets.ledger.models import RejectedPair, TransactionSplit, Transfer
from assets.models import Transaction
from zeus.models import Notification, Profile
from zeus.services import notification_create
from zeus.wording import NotificationWords

WINDOW = dt.timedelta(days=3)
_EXPENSE = Transaction.Direction.EXPENSE


@dataclass(frozen=True)
class _Row:
    id: int
    direction: str
    day: dt.date
    asset_id: int


def transfer_pair_arrivals(*, user_id: int, transaction_ids: Iterable[int]) -> list[Transfer]:
    """Pairs or suggests a counterpart for each newly landed row; returns the transfers made (paired or
    suggested). Idempotent: a row already paired, or a pair already suggested or rejected, is left alone.
    Inside the caller's transaction when there is one (a feed's landing, an import), without a savepoint."""
    ids = set(transaction_ids)
    if not ids:
        return []
    return _pair_locked(user_id, lambda: _with_candidates(user_id, ids))


def transfer_pair_arrival(*, user_id: int, row: Transaction) -> list[Transfer]:
    """transfer_pair_arrivals for the one row the caller has just written and still holds (a feed's delivery,
    a manual entry): whether it may have a counterpart is asked with the row's own values, a plain indexed
    read, instead of the correlated read a batch needs, which costs a one-row landing several times the
    CPU to build."""
    return _pair_locked(user_id, lambda: [row.id] if _may_pair(user_id, row) else [])


def _pair_locked(user_id: int, candidates) -> list[Transfer]:
    """`candidates()` is read after the profile's lock is held, so it sees every row committed before it."""
    made: list[Transfer] = []
    with db_transaction.atomic(savepoint=False):
        # The lock reads the profile's id only: every landed row takes it, and the profile itself is wanted
        # only for a suggestion's notice, which is rare.
        if not Profile.objects.select_for_update().filter(user_id=user_id).values_list("pk", flat=True):
            Profile.objects.select_for_update().get_or_create(user_id=user_id)  # a user made without one
        for transaction_id in candidates():
            made.extend(_pair_one(user_id, transaction_id))
        if any(t.status == Transfer.Status.SUGGESTED for t in made):
            _tell_suggestions(Profile.objects.select_related("user").get(user_id=user_id))
    return made


# Rows looked at for candidates in one read (an import can land a hundred thousand).
_CHECK_BATCH = 5_000


def _with_candidates(user_id: int, ids: set[int]) -> list[int]:
    """The rows among `ids` that may have a counterpart: an unpaired row of the opposite direction, the same
    amount and currency, within the window. Read a batch at a time, and loosely (the account, exclusions,
    splits and rejections are for _pair_one, on the few rows found): most rows have none, and each of those
    then costs no read of its own."""
    day = OuterRef("occurred_on")
    counterpart = _loose_counterparts(
        user_id,
        currency=OuterRef("currency"),
        amount=OuterRef("amount"),
        since=Cast(day - WINDOW, DateField()),
        until=Cast(day + WINDOW, DateField()),
        direction=OuterRef("direction"),
    )
    ordered = sorted(ids)
    found: list[int] = []
    for start in range(0, len(ordered), _CHECK_BATCH):
        batch = Transaction.objects.filter(pk__in=ordered[start : start + _CHECK_BATCH], user_id=user_id)
        found += batch.filter(Exists(counterpart)).order_by("id").values_list("id", flat=True)
    return found


def _may_pair(user_id: int, row: Transaction) -> bool:
    """_with_candidates for one row whose values are in hand: the same loose test."""
    day = row.occurred_on
    return _loose_counterparts(
        user_id,
        currency=row.currency,
        amount=row.amount,
        since=day - WINDOW,
        until=day + WINDOW,
        direction=row.direction,
    ).exists()


def _loose_counterparts(user_id: int, *, currency, amount, since, until, direction):
    """The loose test, once: unpaired rows of the other direction, the same amount and currency, in the window.
    Its values are a row's own or, for a batch, references to the outer row."""
    return Transaction.objects.filter(
        user_id=user_id,
        currency=currency,
        amount=amount,
        occurred_on__gte=since,
        occurred_on__lte=until,
        transfer__isnull=True,
    ).exclude(direction=direction)


def _tell_suggestions(profile: Profile) -> None:
    """One notice in the inbox for the suggestions that wait for the user, however many arrive: at most one
    a day (the user's day), so a statement import of a hundred rows is one notice, not a flood."""
    today = timezone.now().astimezone(profile.tz).date()
    with override(profile.language or "vi"):
        words = transfer_suggestions_words({})
    notification_create(
        user=profile.user,
        kind=Notification.Kind.SUGGESTION,
        title=words.title,
        body=words.body,
        facts={"words": "transfer_suggestions"},
        cta_url="/inbox#transfer-suggestions-title",
        dedupe_key=f"transfer-suggestions:{today.isoformat()}",
    )


def _split(outer: str = "pk"):
    return Exists(TransactionSplit.objects.filter(transaction_id=OuterRef(outer)))


def _pair_one(user_id: int, transaction_id: int) -> list[Transfer]:
    arriving = (
        Transaction.objects.filter(
            pk=transaction_id, user_id=user_id, transfer__isnull=True, excluded=False, asset__isnull=False
        )
        .annotate(split=_split())
        .values("id", "direction", "occurred_on", "asset_id", "amount", "currency", "split")
        .first()
    )
    if arriving is None or arriving["split"]:
        return []
    row = _Row(arriving["id"], arriving["direction"], arriving["occurred_on"], arriving["asset_id"])
    # The one indexed lookup (transaction_pairing): every unpaired row of the same amount and currency
    # within twice the window, so both the row's candidates and their own competitors are in hand.
    nearby = [
        _Row(r["id"], r["direction"], r["occurred_on"], r["asset_id"])
        for r in Transaction.objects.filter(
            user_id=user_id,
            currency=arriving["currency"],
            amount=arriving["amount"],
            occurred_on__gte=row.day - 2 * WINDOW,
            occurred_on__lte=row.day + 2 * WINDOW,
            transfer__isnull=True,
            excluded=False,
            asset__isnull=False,
        )
        .exclude(pk=row.id)
        .annotate(split=_split())
        .filter(split=False)
        .values("id", "direction", "occurred_on", "asset_id")
    ]
    candidates = [r for r in nearby if _fits(row, r)]
    if not candidates:
        return []
    rejected = _rejected_pairs(user_id, [row.id, *(r.id for r in nearby)])
    candidates = [c for c in candidates if _key(row, c) not in rejected]
    if not candidates:
        return []
    if len(candidates) == 1:
        (only,) = candidates
        rivals = [r for r in nearby if r.id != only.id and _fits(only, r) and _key(only, r) not in rejected]
        if not rivals:
            paired = _pair(user_id, row, only)
            if paired is not None:
                return [paired]
        # The candidate could be the rival's side as well: the user sees every pair it could make.
        pairs = [(row, only), *((rival, only) for rival in rivals)]
    else:
        pairs = [(row, c) for c in candidates]
    return [s for s in (_suggest(user_id, a, b) for a, b in pairs) if s is not None]


def _fits(row: _Row, other: _Row) -> bool:
    """`other` could be `row`'s counterpart: the opposite direction, on another account, within the window."""
    return other.direction != row.direction and other.asset_id != row.asset_id and abs(other.day - row.day) <= WINDOW


def _key(a: _Row, b: _Row) -> tuple[int, int]:
    return (a.id, b.id) if a.direction == _EXPENSE else (b.id, a.id)


def _rejected_pairs(user_id: int, ids: list[int]) -> set[tuple[int, int]]:
    return set(
        RejectedPair.objects.filter(Q(outgoing_id__in=ids) | Q(incoming_id__in=ids), user_id=user_id).values_list(
            "outgoing_id", "incoming_id"
        )
    )


def _pair(user_id: int, a: _Row, b: _Row) -> Transfer | None:
    outgoing, incoming = _key(a, b)
    try:
        with db_transaction.atomic():
            Transfer.objects.filter(
                Q(outgoing_id__in=(outgoing, incoming)) | Q(incoming_id__in=(outgoing, incoming)),
                user_id=user_id,
                status=Transfer.Status.SUGGESTED,
            ).delete()
            transfer = Transfer.objects.create(
                user_id=user_id, outgoing_id=outgoing, incoming_id=incoming, status=Transfer.Status.PAIRED
            )
            linked = Transaction.objects.filter(
                pk__in=(outgoing, incoming), user_id=user_id, transfer__isnull=True
            ).update(transfer=transfer)
            if linked != 2:
                raise IntegrityError("a side was paired meanwhile")
    except IntegrityError:
        return None
    return transfer


def _suggest(user_id: int, a: _Row, b: _Row) -> Transfer | None:
    outgoing, incoming = _key(a, b)
    transfer, created = Transfer.objects.get_or_create(
        user_id=user_id, outgoing_id=outgoing, incoming_id=incoming, defaults={"status": Transfer.Status.SUGGESTED}
    )
    return transfer if created else None


def transfer_suggestions_words(facts: dict) -> NotificationWords:
    """The notice of transfers waiting for the user, in the active language."""
    return NotificationWords(
        title=_("Transfers between your accounts are waiting for you"),
        body=_(
            "Zeus found money leaving one of your accounts and the same amount arriving on another, but could "
            "not be sure which rows belong together. Confirm or refuse each pair in the inbox: until then both "
            "rows count as spending and income."
        ),
        cta_url="",
    )
