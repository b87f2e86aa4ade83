"""Transfers the user makes, confirms, refuses or undoes (docs/ledger.md). Each takes the user's profile
lock, as pairing on arrival does, so a tap and an arriving row never pair the same row twice."""

from django.db import IntegrityError
from django.db import transaction as db_transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from assets.ledger.models import RejectedPair, TransactionSplit, Transfer
from assets.ledger.selectors import rate_table_load
from assets.models import Transaction
from zeus.errors import Conflict, NotFound, ValidationFailed
from zeus.services import profile_lock
from zeus.validation import record_id


class RateMissing(ValidationFailed):
    code = "RATE_MISSING"


def _row(user, transaction_id, side: str) -> Transaction:
    found = Transaction.objects.filter(user=user, id=record_id(transaction_id)).first()
    if found is None:
        raise NotFound(_("No such transaction."), fields={side: [_("No such transaction.")]})
    return found


def _check_side(row: Transaction, side: str) -> None:
    wanted = Transaction.Direction.EXPENSE if side == "out" else Transaction.Direction.INCOME
    if row.direction != wanted:
        raise ValidationFailed(
            _("The %(side)s side of a transfer must be an %(wanted)s.") % {"side": side, "wanted": wanted},
            code="TRANSFER_DIRECTION",
            fields={side: [_("Not an %(wanted)s.") % {"wanted": wanted}]},
        )
    if row.transfer_id is not None:
        raise Conflict(
            _("This row is already in a transfer."), code="ALREADY_TRANSFER", fields={side: [_("In a transfer.")]}
        )
    if TransactionSplit.objects.filter(transaction=row).exists():
        raise Conflict(_("A split row cannot be a transfer; join it first."), code="SPLIT_TRANSFER")


def _drop_suggestions(user, ids) -> None:
    Transfer.objects.filter(
        Q(outgoing_id__in=ids) | Q(incoming_id__in=ids), user=user, status=Transfer.Status.SUGGESTED
    ).delete()


def _link(user, transfer: Transfer) -> None:
    ids = [i for i in (transfer.outgoing_id, transfer.incoming_id) if i is not None]
    _drop_suggestions(user, ids)
    if Transaction.objects.filter(pk__in=ids, transfer__isnull=True).update(transfer=transfer) != len(ids):
        raise Conflict(_("This row is already in a transfer."), code="ALREADY_TRANSFER")


def transfer_create(*, user, out_id=None, in_id=None) -> Transfer:
    """Marks rows as a transfer: both sides, or one side whose other account Zeus does not track. Two
    currencies need a rate on the outgoing day (else 400 RATE_MISSING)."""
    if out_id in (None, "") and in_id in (None, ""):
        raise ValidationFailed(_("Name the out side, the in side, or both."), fields={"out": [_("Required.")]})
    with db_transaction.atomic():
        profile_lock(user=user)
        out = _row(user, out_id, "out") if out_id not in (None, "") else None
        inc = _row(user, in_id, "in") if in_id not in (None, "") else None
        if out is not None:
            _check_side(out, "out")
        if inc is not None:
            _check_side(inc, "in")
        if out is not None and inc is not None:
            if out.asset_id is not None and out.asset_id == inc.asset_id:
                raise ValidationFailed(
                    _("Both sides are on the same account."),
                    code="TRANSFER_SAME_ACCOUNT",
                    fields={"in": [_("Same account.")]},
                )
            if out.currency != inc.currency:
                table = rate_table_load(user=user, currencies={out.currency, inc.currency}, until=out.occurred_on)
                if table.rate_on(out.currency, inc.currency, out.occurred_on) is None:
                    raise RateMissing(
                        _("No %(currency)s→%(currency2)s rate on or before %(occurred_on)s; add one first.")
                        % {"currency": out.currency, "currency2": inc.currency, "occurred_on": out.occurred_on},
                        fields={"in": [_("No rate for these currencies.")]},
                    )
            RejectedPair.objects.filter(user=user, outgoing=out, incoming=inc).delete()
        try:
            with db_transaction.atomic():
                transfer = Transfer.objects.filter(
                    user=user, outgoing=out, incoming=inc, status=Transfer.Status.SUGGESTED
                ).first()
                if transfer is not None:
                    transfer.status = Transfer.Status.PAIRED
                    transfer.save(update_fields=["status"])
                else:
                    transfer = Transfer.objects.create(
                        user=user, outgoing=out, incoming=inc, status=Transfer.Status.PAIRED
                    )
                _link(user, transfer)
        except IntegrityError:
            raise Conflict(_("This row is already in a transfer."), code="ALREADY_TRANSFER") from None
    return transfer


def transfer_delete(*, user, transfer_id) -> None:
    """Undoes a pair: both rows are income and spending again, and the pair is never proposed again."""
    with db_transaction.atomic():
        profile_lock(user=user)
        transfer = Transfer.objects.filter(user=user, id=record_id(transfer_id), status=Transfer.Status.PAIRED).first()
        if transfer is None:
            raise NotFound(_("No such transfer."))
        Transaction.objects.filter(transfer=transfer).update(transfer=None)
        if transfer.outgoing_id and transfer.incoming_id:
            RejectedPair.objects.get_or_create(
                user=user, outgoing_id=transfer.outgoing_id, incoming_id=transfer.incoming_id
            )
        transfer.delete()


def _suggestion(user, transfer_id) -> Transfer:
    found = (
        Transfer.objects.select_for_update()
        .filter(user=user, id=record_id(transfer_id), status=Transfer.Status.SUGGESTED)
        .first()
    )
    if found is None:
        raise NotFound(_("No such suggestion."))
    return found


def transfer_suggestion_accept(*, user, transfer_id) -> Transfer:
    with db_transaction.atomic():
        profile_lock(user=user)
        transfer = _suggestion(user, transfer_id)
        transfer.status = Transfer.Status.PAIRED
        try:
            with db_transaction.atomic():
                transfer.save(update_fields=["status"])
                _link(user, transfer)
        except IntegrityError:
            raise Conflict(_("One of these rows is already in a transfer."), code="ALREADY_TRANSFER") from None
    return transfer


def transfer_suggestion_reject(*, user, transfer_id) -> None:
    with db_transaction.atomic():
        profile_lock(user=user)
        transfer = _suggestion(user, transfer_id)
        RejectedPair.objects.get_or_create(
            user=user, outgoing_id=transfer.outgoing_id, incoming_id=transfer.incoming_id
        )
        transfer.delete()
