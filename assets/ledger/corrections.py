"""Corrections any owner may make to any row, whatever its source (docs/ledger.md, "Corrections"): the
category, description, a note, `excluded`; splits; reconciling an account; archiving one; undoing an
import. A synced or imported row keeps the facts its bank or file gave: amount, date, external id (and the
direction, currency and account those came with)."""

from decimal import Decimal

from django.db import transaction as db_transaction
from django.utils import timezone
from django.utils.translation import get_language, gettext

from assets import categories
from assets.ledger.catalog import category_resolve
from assets.ledger.models import ImportBatch, TransactionSplit
from assets.models import Asset, Source, Transaction
from assets.services import transaction_update
from zeus.errors import Conflict, NotFound, SyncedReadOnly, ValidationFailed
from zeus.money import format_amount, parse_money
from zeus.timeutil import user_today
from zeus.validation import clean_text, record_id

FACTS = ("amount", "occurred_on", "external_id", "direction", "currency", "asset_id")
CORRECTIONS = ("category", "description", "note", "excluded")


class SplitMismatch(ValidationFailed):
    code = "SPLIT_MISMATCH"


def _locked_row(user, transaction_id) -> Transaction:
    found = Transaction.objects.select_for_update().filter(user=user, id=record_id(transaction_id)).first()
    if found is None:
        raise NotFound(gettext("No such transaction."))
    return found


def transaction_correct(*, user, transaction_id, **changes) -> Transaction:
    """Any of `category` (a fixed one or `"c:<id>"`), `description`, `note`, `excluded` on any row; on a
    manual row also the facts (amount, occurred_on, direction, currency, asset_id). A synced or imported row
    answers 409 SYNCED_READ_ONLY when a fact is sent, and nothing changes."""
    unknown = set(changes) - set(FACTS) - set(CORRECTIONS)
    if unknown:
        raise ValidationFailed(gettext("Unknown fields: %(value)s.") % {"value": ", ".join(sorted(unknown))})
    with db_transaction.atomic():
        txn = _locked_row(user, transaction_id)
        facts = {k: v for k, v in changes.items() if k in FACTS}
        if facts and txn.source != Source.MANUAL:
            raise SyncedReadOnly(
                gettext("This transaction's %(facts)s came from its bank and cannot be changed here.")
                % {"facts": ", ".join(sorted(facts))},
                fields={name: [gettext("Read only.")] for name in sorted(facts)},
            )
        if facts and txn.transfer_id and {"amount", "currency", "direction"} & set(facts):
            raise Conflict(gettext("Undo the transfer before changing its amount."), code="IN_TRANSFER")
        if facts and {"amount", "currency"} & set(facts) and txn.splits.exists():
            raise Conflict(gettext("Join the split before changing its amount."), code="TRANSACTION_SPLIT")
        category = changes.pop("category", None) if "category" in changes else None
        if facts:
            txn = transaction_update(user=user, transaction_id=txn.pk, **facts)
        if category is not None or ("direction" in facts and txn.user_category_id):
            value = category or categories.default_for(txn.direction)
            txn.category, own = category_resolve(user=user, value=value, direction=txn.direction)
            txn.user_category = own
        if "description" in changes:
            txn.description = clean_text(changes["description"], "description", max_length=200, required=False)
        if "note" in changes:
            txn.note = clean_text(changes["note"], "note", max_length=500, required=False)
        if "excluded" in changes:
            if not isinstance(changes["excluded"], bool):
                raise ValidationFailed(
                    gettext("excluded must be true or false."), fields={"excluded": [gettext("Not a boolean.")]}
                )
            txn.excluded = changes["excluded"]
        txn.save()
    return txn


def transaction_split(*, user, transaction_id, parts: list[dict]) -> list[TransactionSplit]:
    """Replaces the row's parts. At least two, each `amount` > 0 with its `category` (fitting the row's
    direction) and an optional `note`; together exactly the row's amount, else 400 SPLIT_MISMATCH."""
    if not isinstance(parts, list) or len(parts) < 2:
        raise SplitMismatch(
            gettext("A split has at least two parts."), fields={"parts": [gettext("At least two parts.")]}
        )
    with db_transaction.atomic():
        txn = _locked_row(user, transaction_id)
        if txn.transfer_id:
            raise Conflict(gettext("A row in a transfer cannot be split."), code="IN_TRANSFER")
        made = []
        for position, part in enumerate(parts):
            if not isinstance(part, dict):
                raise ValidationFailed(
                    gettext("Each part is an object."),
                    fields={"parts": [gettext("Part %(value)s.") % {"value": position + 1}]},
                )
            kind, own = category_resolve(user=user, value=part.get("category"), direction=txn.direction)
            made.append(
                TransactionSplit(
                    transaction=txn,
                    amount=parse_money(part.get("amount"), txn.currency, field=f"parts[{position}].amount"),
                    category=kind,
                    user_category=own,
                    note=clean_text(part.get("note", ""), "note", max_length=200, required=False),
                    position=position,
                )
            )
        total = sum((p.amount for p in made), Decimal(0))
        if total != txn.amount:
            raise SplitMismatch(
                gettext("The parts add up to %(total)s, the row is %(amount)s.")
                % {"total": total, "amount": txn.amount},
                fields={"parts": [gettext("Sum %(total)s ≠ %(amount)s.") % {"total": total, "amount": txn.amount}]},
            )
        TransactionSplit.objects.filter(transaction=txn).delete()
        TransactionSplit.objects.bulk_create(made)
    return made


def transaction_unsplit(*, user, transaction_id) -> None:
    with db_transaction.atomic():
        txn = _locked_row(user, transaction_id)
        TransactionSplit.objects.filter(transaction=txn).delete()


def import_batch_delete(*, user, batch_id) -> int:
    """Removes the rows the import added and nothing else; returns how many."""
    with db_transaction.atomic():
        batch = ImportBatch.objects.select_for_update().filter(user=user, id=record_id(batch_id)).first()
        if batch is None:
            raise NotFound(gettext("No such import."))
        _, removed = Transaction.objects.filter(user=user, import_batch=batch).delete()
        batch.delete()
    return removed.get(Transaction._meta.label, 0)


def _manual_account(user, asset_id) -> Asset:
    asset = Asset.objects.select_for_update().filter(user=user, id=record_id(asset_id)).first()
    if asset is None:
        raise NotFound(gettext("No such account."))
    if asset.source != Source.MANUAL:
        raise SyncedReadOnly("account")
    return asset


def asset_reconcile(*, user, asset_id, balance) -> Transaction | None:
    """ "The bank says X": the account's balance becomes X and the difference one adjustment row on it,
    left out of the totals (`excluded`) until the user says what it was. No difference, no row."""
    with db_transaction.atomic():
        asset = _manual_account(user, asset_id)
        stated = parse_money(balance, asset.currency, field="balance", allow_zero=True)
        difference = stated - asset.balance
        if asset.owed:
            difference = -difference  # more owed on a card is money gone
        asset.balance = stated
        asset.save(update_fields=["balance", "updated_at"])
        if difference == 0:
            return None
        direction = Transaction.Direction.INCOME if difference > 0 else Transaction.Direction.EXPENSE
        return Transaction.objects.create(
            user=user,
            amount=abs(difference),
            currency=asset.currency,
            direction=direction,
            category=categories.default_for(direction),
            # Stored words, like a bank's description: in the owner's language when the row is made.
            description=gettext("Balance adjustment: %(name)s") % {"name": asset.name},
            note=gettext("Reconciled to %(balance)s")
            % {"balance": format_amount(stated, asset.currency, locale=get_language())},
            occurred_on=user_today(user),
            asset=asset,
            excluded=True,
        )


def asset_archive(*, user, asset_id, archived: bool = True) -> Asset:
    """Archived: the account keeps its rows and history, leaves the payment pickers and takes no new row."""
    with db_transaction.atomic():
        asset = _manual_account(user, asset_id)
        asset.archived_at = timezone.now() if archived else None
        asset.save(update_fields=["archived_at", "updated_at"])
    return asset
