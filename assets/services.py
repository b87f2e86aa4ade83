"""Writes to the ledger. Synced records refuse change here, so every caller (REST, chat tools, admin
actions, MCP) inherits the rule."""

import datetime as dt

from django.db import transaction as db_transaction
from django.utils.translation import gettext as _

from assets import categories
from assets.ledger.catalog import category_resolve
from assets.ledger.pairing import transfer_pair_arrival
from assets.models import Asset, Source, Transaction
from assets.vietqr.accounts import clean_account_number, clean_bank_bin
from zeus.errors import NotFound, SyncedReadOnly, ValidationFailed
from zeus.money import parse_money, quantize
from zeus.timeutil import ledger_date, user_today
from zeus.validation import clean_text, record_id, write_currency

_UNSET = object()


def _choice(value, field: str, allowed) -> str:
    if value not in allowed:
        raise ValidationFailed(
            _("%(field)s must be one of: %(value)s.") % {"field": field, "value": ", ".join(allowed)},
            fields={field: [_("Not a valid %(field)s.") % {"field": field}]},
        )
    return value


def _own_asset(user, asset_id) -> Asset | None:
    if asset_id in (None, ""):
        return None
    try:
        return Asset.objects.get(user=user, id=int(asset_id))
    except (Asset.DoesNotExist, ValueError, TypeError):
        raise NotFound(_("No such asset."), fields={"asset": [_("No such asset.")]}) from None


def _open_asset(user, asset_id) -> Asset | None:
    """An account a new or moved row may name: the user's own, not archived."""
    asset = _own_asset(user, asset_id)
    if asset is not None and asset.archived_at is not None:
        raise ValidationFailed(
            _("This account is archived; restore it first."),
            code="ACCOUNT_ARCHIVED",
            fields={"asset": [_("Archived.")]},
        )
    return asset


def _manual_asset(user, asset_id) -> Asset:
    asset = _own_asset(user, asset_id)
    if asset is None:
        raise NotFound(_("No such asset."))
    if asset.source != Source.MANUAL:
        raise SyncedReadOnly("asset")
    return asset


# Assets


def _card_day(value, field: str) -> int | None:
    if value in (None, ""):
        return None
    try:
        day = int(value)
    except (TypeError, ValueError):
        day = 0
    if isinstance(value, bool) or not 1 <= day <= 31 or str(value).strip() != str(day):
        raise ValidationFailed(
            _("%(field)s is a day of the month, 1 to 31.") % {"field": field}, fields={field: [_("A day, 1 to 31.")]}
        )
    return day


def asset_card_cycle_clean(*, kind: str, statement_day, due_day) -> tuple[int | None, int | None]:
    """A credit card's statement and due days, both or neither; on any other kind, neither."""
    statement_day, due_day = _card_day(statement_day, "statement_day"), _card_day(due_day, "due_day")
    if statement_day is None and due_day is None:
        return None, None
    if kind != Asset.Kind.CREDIT_CARD:
        raise ValidationFailed(
            _("Only a credit card has a statement day and a due day."),
            code="NOT_A_CARD",
            fields={"statement_day": [_("Only for a credit card.")]},
        )
    if statement_day is None or due_day is None:
        missing = "statement_day" if statement_day is None else "due_day"
        raise ValidationFailed(
            _("Give both the statement day and the due day."), code="CARD_DAYS_PAIR", fields={missing: [_("Required.")]}
        )
    return statement_day, due_day


def asset_create(
    *,
    user,
    name: str,
    kind: str,
    balance=0,
    currency: str | None = None,
    bank_bin="",
    account_number="",
    statement_day=None,
    due_day=None,
) -> Asset:
    currency = write_currency(user, currency)
    kind = _choice(kind, "kind", Asset.Kind.values)
    statement_day, due_day = asset_card_cycle_clean(kind=kind, statement_day=statement_day, due_day=due_day)
    return Asset.objects.create(
        user=user,
        name=clean_text(name, "name", max_length=100, required=True),
        kind=kind,
        statement_day=statement_day,
        due_day=due_day,
        balance=parse_money(balance, currency, field="balance", allow_zero=True),
        currency=currency,
        source=Source.MANUAL,
        bank_bin=clean_bank_bin(bank_bin),
        account_number=clean_account_number(account_number),
    )


def asset_update(
    *,
    user,
    asset_id,
    name=_UNSET,
    kind=_UNSET,
    balance=_UNSET,
    bank_bin=_UNSET,
    account_number=_UNSET,
    statement_day=_UNSET,
    due_day=_UNSET,
) -> Asset:
    with db_transaction.atomic():
        asset = _manual_asset(user, asset_id)
        asset = Asset.objects.select_for_update().get(pk=asset.pk)
        if name is not _UNSET:
            asset.name = clean_text(name, "name", max_length=100, required=True)
        if kind is not _UNSET:
            asset.kind = _choice(kind, "kind", Asset.Kind.values)
        if balance is not _UNSET:
            asset.balance = parse_money(balance, asset.currency, field="balance", allow_zero=True)
        if bank_bin is not _UNSET:
            asset.bank_bin = clean_bank_bin(bank_bin)
        if account_number is not _UNSET:
            asset.account_number = clean_account_number(account_number)
        if asset.kind != Asset.Kind.CREDIT_CARD and statement_day is _UNSET and due_day is _UNSET:
            # No longer a card: its cycle goes with it.
            statement_day = due_day = None
        if statement_day is not _UNSET or due_day is not _UNSET:
            asset.statement_day, asset.due_day = asset_card_cycle_clean(
                kind=asset.kind,
                statement_day=asset.statement_day if statement_day is _UNSET else statement_day,
                due_day=asset.due_day if due_day is _UNSET else due_day,
            )
        asset.save()
    return asset


def asset_delete(*, user, asset_id) -> None:
    _manual_asset(user, asset_id).delete()


# Transactions


def transaction_create(
    *,
    user,
    amount,
    description: str = "",
    direction: str = Transaction.Direction.EXPENSE,
    category: str | None = None,
    occurred_on: dt.date | str | None = None,
    currency: str | None = None,
    asset_id=None,
) -> Transaction:
    direction = _choice(direction or Transaction.Direction.EXPENSE, "direction", Transaction.Direction.values)
    asset = _open_asset(user, asset_id)
    currency = write_currency(user, currency or (asset.currency if asset else None))
    category, own = category_resolve(
        user=user, value=category or categories.default_for(direction), direction=direction
    )
    with db_transaction.atomic():
        txn = Transaction.objects.create(
            user=user,
            amount=parse_money(amount, currency),
            currency=currency,
            direction=direction,
            description=clean_text(description, "description", max_length=200, required=False),
            category=category,
            user_category=own,
            occurred_on=ledger_date(occurred_on, user=user) if occurred_on else user_today(user),
            asset=asset,
            source=Source.MANUAL,
        )
        # A row from any source may be one side of a transfer (docs/ledger.md, "Pairing").
        if transfer_pair_arrival(user_id=user.pk, row=txn):
            txn.refresh_from_db(fields=["transfer"])
    return txn


def _check_category(category: str, direction: str) -> None:
    _choice(category, "category", categories.ALL)
    if not categories.fits(category, direction):
        raise ValidationFailed(
            _("%(category)s is not an %(direction)s category.") % {"category": category, "direction": direction},
            fields={"category": [_("Not an %(direction)s category.") % {"direction": direction}]},
        )


def transaction_update(*, user, transaction_id, **changes) -> Transaction:
    """Changes any of amount, description, direction, category, occurred_on, currency, asset_id."""
    unknown = set(changes) - {"amount", "description", "direction", "category", "occurred_on", "currency", "asset_id"}
    if unknown:
        raise ValidationFailed(_("Unknown fields: %(value)s.") % {"value": ", ".join(sorted(unknown))})
    with db_transaction.atomic():
        txn = Transaction.objects.select_for_update().filter(user=user, id=record_id(transaction_id)).first()
        if txn is None:
            raise NotFound(_("No such transaction."))
        if txn.source != Source.MANUAL:
            raise SyncedReadOnly("transaction")
        if "direction" in changes:
            txn.direction = _choice(changes["direction"], "direction", Transaction.Direction.values)
        if "currency" in changes:
            txn.currency = write_currency(user, changes["currency"])
        if "amount" in changes:
            txn.amount = parse_money(changes["amount"], txn.currency)
        else:
            # The row's own amount in the currency it now says: re-quantized (12.50 USD becomes 13 VND), as a
            # converted figure is, where an amount typed with too many decimals is refused.
            txn.amount = parse_money(quantize(txn.amount, txn.currency), txn.currency)
        if "category" in changes:
            txn.category = changes["category"] or categories.default_for(txn.direction)
        elif "direction" in changes and not categories.fits(txn.category, txn.direction):
            txn.category = categories.default_for(txn.direction)
        _check_category(txn.category, txn.direction)
        if "description" in changes:
            txn.description = clean_text(changes["description"], "description", max_length=200, required=False)
        if "occurred_on" in changes:
            txn.occurred_on = ledger_date(changes["occurred_on"], user=user)
        if "asset_id" in changes:
            txn.asset = _open_asset(user, changes["asset_id"])
        txn.save()
    return txn


def transaction_delete(*, user, transaction_id) -> None:
    txn = Transaction.objects.filter(user=user, id=record_id(transaction_id)).first()
    if txn is None:
        raise NotFound(_("No such transaction."))
    if txn.source != Source.MANUAL:
        raise SyncedReadOnly("transaction")
    txn.delete()
