"""The VietQR a friend scans to pay back what they owe: the user's bank account, what is still owed, and the
debt's purpose code, which settles the debt when a bank feed brings the transfer in (settling.py)."""

import dataclasses

from django.utils.translation import gettext as _

from assets.models import Asset
from assets.selectors import asset_get
from assets.vietqr import drawing
from assets.vietqr import payload as vietqr_payload
from goals.debts.models import Debt
from goals.debts.selectors import debt_get, debt_view
from zeus.errors import ValidationFailed, ZeusError
from zeus.timeutil import user_today


@dataclasses.dataclass(frozen=True)
class DebtQR:
    payload: str
    svg: str
    code: str
    amount: object
    account: Asset


def _account_required(message: str) -> ValidationFailed:
    return ValidationFailed(message, code="ACCOUNT_REQUIRED", fields={"account": [message]})


def debt_vietqr(*, user, debt_id, account) -> DebtQR:
    debt = debt_get(user=user, debt_id=debt_id)
    if debt.direction != Debt.Direction.OWED_TO_ME:
        raise ValidationFailed(_("A VietQR is for money owed to you."), code="NOT_OWED_TO_ME")
    if debt.currency != "VND":
        raise ValidationFailed(_("A VietQR asks for đồng only."), code="NOT_VND")
    if account in (None, ""):
        raise _account_required(_("Choose the bank account the money should go to."))
    try:
        asset = asset_get(user=user, asset_id=account)
    except ZeusError:  # not an id, or not one of the user's
        asset = None
    if asset is None or not (asset.bank_bin and asset.account_number):
        raise _account_required(_("That account has no bank BIN and account number for a VietQR."))
    outstanding = debt_view(debt, today=user_today(user)).outstanding
    if outstanding <= 0:
        raise ValidationFailed(_("Nothing is owed on this debt any more."), code="NOTHING_OWED")
    payload = vietqr_payload.encode(
        vietqr_payload.VietQR(
            bank_bin=asset.bank_bin, account=asset.account_number, amount=outstanding, purpose=debt.purpose
        )
    )
    return DebtQR(payload=payload, svg=drawing.svg(payload), code=debt.purpose, amount=outstanding, account=asset)
