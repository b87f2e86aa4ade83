"""Writes of debts and their payments. Views, tools, the admin and the feed hook only call these."""

import datetime as dt
import secrets
from decimal import Decimal, InvalidOperation

from django.db import IntegrityError
from django.db import transaction as db_transaction
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from assets.models import Transaction
from goals.debts import schedule as debt_math
from goals.debts.models import Debt, DebtPayment
from goals.debts.selectors import debt_terms, debt_view
from zeus.errors import NotFound, ValidationFailed
from zeus.money import format_amount, parse_money, to_minor
from zeus.timeutil import parse_date, user_today
from zeus.validation import clean_text, record_id, write_currency

_UNSET = object()
# No 0/O or 1/I: a code read aloud or typed from a screenshot comes out the same.
_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def new_code() -> str:
    return "".join(secrets.choice(_CODE_ALPHABET) for _ in range(8))


def _choice(value, field: str, choices) -> str:
    if value not in choices:
        raise ValidationFailed(
            _("%(field)s must be one of: %(choices)s.") % {"field": field, "choices": ", ".join(choices)},
            fields={field: [_("Not valid.")]},
        )
    return value


def _rate(value) -> Decimal:
    try:
        rate = Decimal(str(value if value not in (None, "") else 0).strip().rstrip("%"))
    except InvalidOperation:
        rate = Decimal(-1)
    if not rate.is_finite() or not (0 <= rate <= debt_math.MAX_RATE):
        raise ValidationFailed(
            _("interest_rate is a yearly %% from 0 to %(max)s.") % {"max": debt_math.MAX_RATE},
            fields={"interest_rate": [_("From 0 to %(max)s.") % {"max": debt_math.MAX_RATE}]},
        )
    # "-0" is no rate below zero, and is kept (and shown) as 0.
    return abs(rate).quantize(Decimal("0.0001"))


def _optional_date(value, field: str) -> dt.date | None:
    return None if value in (None, "") else parse_date(value, field)


def _installments(value) -> int | None:
    if value in (None, ""):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValidationFailed(
            _("installments is a whole number."), fields={"installments": [_("Not valid.")]}
        ) from None


def _check_terms(debt: Debt) -> None:
    try:
        debt_math.check(debt_terms(debt))
    except debt_math.DebtMathError as error:
        message = _(error.message) % error.params
        raise ValidationFailed(message, fields={error.field: [message]}) from None


def _refresh_status(debt: Debt, today: dt.date) -> None:
    view = debt_view(debt, today=today)
    settled = view.outstanding <= 0
    debt.status = Debt.Status.SETTLED if settled else Debt.Status.OPEN
    debt.settled_on = (debt.settled_on or today) if settled else None


def debt_create(
    *,
    user,
    direction: str,
    counterparty: str,
    principal,
    currency: str | None = None,
    opened_on=None,
    interest_rate=0,
    interest_method: str = Debt.Method.FLAT,
    due_on=None,
    installments=None,
    first_due_on=None,
    note: str = "",
) -> Debt:
    currency = write_currency(user, currency)
    today = user_today(user)
    debt = Debt(
        user=user,
        direction=_choice(direction, "direction", Debt.Direction.values),
        counterparty=clean_text(counterparty, "counterparty", max_length=100, required=True),
        note=clean_text(note or "", "note", max_length=200, required=False),
        principal=parse_money(principal, currency, field="principal"),
        currency=currency,
        opened_on=_optional_date(opened_on, "opened_on") or today,
        interest_rate=_rate(interest_rate),
        interest_method=_choice(interest_method or Debt.Method.FLAT, "interest_method", Debt.Method.values),
        due_on=_optional_date(due_on, "due_on"),
        installments=_installments(installments),
        first_due_on=_optional_date(first_due_on, "first_due_on"),
    )
    _check_terms(debt)
    for _attempt in range(5):
        debt.code = new_code()
        try:
            with db_transaction.atomic():
                debt.save()
            return debt
        except IntegrityError:
            continue
    raise RuntimeError("no free debt code after five tries")


def _locked(user, debt_id) -> Debt:
    debt = Debt.objects.select_for_update().filter(user=user, id=record_id(debt_id)).first()
    if debt is None:
        raise NotFound(_("No such debt."))
    return debt


def debt_update(
    *,
    user,
    debt_id,
    counterparty=_UNSET,
    note=_UNSET,
    principal=_UNSET,
    opened_on=_UNSET,
    interest_rate=_UNSET,
    interest_method=_UNSET,
    due_on=_UNSET,
    installments=_UNSET,
    first_due_on=_UNSET,
) -> Debt:
    with db_transaction.atomic():
        debt = _locked(user, debt_id)
        if counterparty is not _UNSET:
            debt.counterparty = clean_text(counterparty, "counterparty", max_length=100, required=True)
        if note is not _UNSET:
            debt.note = clean_text(note or "", "note", max_length=200, required=False)
        if principal is not _UNSET:
            debt.principal = parse_money(principal, debt.currency, field="principal")
        if opened_on is not _UNSET:
            debt.opened_on = parse_date(opened_on, "opened_on")
        if interest_rate is not _UNSET:
            debt.interest_rate = _rate(interest_rate)
        if interest_method is not _UNSET:
            debt.interest_method = _choice(interest_method, "interest_method", Debt.Method.values)
        if due_on is not _UNSET:
            debt.due_on = _optional_date(due_on, "due_on")
        if installments is not _UNSET:
            debt.installments = _installments(installments)
        if first_due_on is not _UNSET:
            debt.first_due_on = _optional_date(first_due_on, "first_due_on")
        _check_terms(debt)
        today = user_today(user)
        view = debt_view(debt, today=today)
        if view.paid > view.total:
            raise ValidationFailed(
                _("The new terms owe less than what is already paid."), code="PAID_MORE_THAN_OWED", fields={}
            )
        _refresh_status(debt, today)
        debt.save()
    return debt


def debt_delete(*, user, debt_id) -> None:
    with db_transaction.atomic():
        _locked(user, debt_id).delete()


def debt_payment_record(*, user, debt_id, amount, paid_on=None, transaction=None) -> DebtPayment:
    """A payment against a debt, optionally linked to one of the user's ledger rows by id; more than what is
    still owed is a 400 and changes nothing."""
    with db_transaction.atomic():
        debt = _locked(user, debt_id)
        linked = None
        if transaction not in (None, ""):
            linked = Transaction.objects.filter(user=user, id=record_id(transaction)).first()
            if linked is None:
                raise NotFound(_("No such transaction."))
        paid = _optional_date(paid_on, "paid_on")
        if paid is not None and paid < debt.opened_on:
            # A feed's row is dated by the bank and applied as it is (debt_payment_apply); a typed date is checked.
            message = _("A payment cannot be dated before the debt began.")
            raise ValidationFailed(message, fields={"paid_on": [message]})
        if paid is not None and paid > user_today(user):
            # A payment is money that has moved: one dated after the user's today is a typo or a plan, and would
            # settle instalments not yet due (CONTRACT §9.2 records payments; it schedules none).
            message = _("A payment cannot be dated after today.")
            raise ValidationFailed(message, code="FUTURE_PAYMENT", fields={"paid_on": [message]})
        return debt_payment_apply(debt=debt, amount=amount, paid_on=paid, transaction=linked)


def debt_payment_apply(*, debt: Debt, amount, paid_on=None, transaction: Transaction | None = None) -> DebtPayment:
    """Must run inside the transaction that locked `debt` (select_for_update)."""
    today = user_today(debt.user)
    value = parse_money(amount, debt.currency, field="amount")
    outstanding = debt_view(debt, today=today).outstanding
    if value > outstanding:
        owed = format_amount(outstanding, debt.currency, locale=get_language())
        raise ValidationFailed(
            _("The payment is more than the %(owed)s still owed.") % {"owed": owed},
            code="OVERPAYMENT",
            fields={"amount": [_("At most %(owed)s.") % {"owed": owed}]},
        )
    try:
        with db_transaction.atomic():
            payment = DebtPayment.objects.create(
                debt=debt,
                amount=value,
                paid_on=_optional_date(paid_on, "paid_on") or today,
                transaction=transaction,
            )
    except IntegrityError:
        raise ValidationFailed(
            _("That transaction already pays this debt."),
            code="ALREADY_LINKED",
            fields={"transaction": [_("Linked.")]},
        ) from None
    _refresh_status(debt, today)
    debt.save(update_fields=["status", "settled_on", "updated_at"])
    return payment


def debt_outstanding_minor(debt: Debt, *, today: dt.date) -> int:
    return to_minor(debt_view(debt, today=today).outstanding, debt.currency)
