"""A bank feed's incoming row that carries a debt's purpose code (`ZEUS<code>`, from its VietQR) pays that
debt by itself: up to what is still owed, linked to the row, and the user is told."""

import logging
import re
from decimal import Decimal

from django.db import transaction as db_transaction
from django.utils.translation import get_language, override
from django.utils.translation import gettext as _

from assets.models import Transaction
from goals.debts.models import Debt
from goals.debts.services import debt_outstanding_minor, debt_payment_apply
from zeus.errors import ZeusError
from zeus.models import Notification
from zeus.money import format_amount, from_minor
from zeus.services import notification_create
from zeus.timeutil import user_today
from zeus.wording import NotificationWords

log = logging.getLogger(__name__)

# Banking apps upper-case, strip or glue the content: "ZEUS AB12CD34", "zeusab12cd34", "CK ZEUSAB12CD34 FT..."
_CODE = re.compile(r"ZEUS\s?([A-HJ-NP-Z2-9]{8})(?![A-Z0-9])")


def purpose_codes(text: str) -> list[str]:
    return _CODE.findall((text or "").upper())


def debt_settle_from_feed(*, transaction_id: int, text: str) -> bool:
    """True when the row paid a debt. Idempotent: a row pays a debt once (the payment's unique link)."""
    codes = purpose_codes(text)
    if not codes:
        return False
    row = Transaction.objects.select_related("user").filter(pk=transaction_id).first()
    if row is None or row.direction != Transaction.Direction.INCOME:
        return False
    with db_transaction.atomic():
        debt = (
            Debt.objects.select_for_update()
            .filter(user=row.user, code__in=codes, direction=Debt.Direction.OWED_TO_ME, currency=row.currency)
            .exclude(status=Debt.Status.SETTLED)
            .first()
        )
        if debt is None or debt.payments.filter(transaction=row).exists():
            return False
        # A friend who sends more than they owe settles the debt; the rest stays plain income.
        owed = from_minor(debt_outstanding_minor(debt, today=user_today(row.user)), debt.currency)
        try:
            payment = debt_payment_apply(
                debt=debt, amount=min(row.amount, owed), paid_on=row.occurred_on, transaction=row
            )
        except ZeusError:
            return False
        _tell(debt, payment.amount, row.id)
    return True


def _tell(debt: Debt, amount, transaction_id: int) -> None:
    user = debt.user
    facts = {
        "settled": debt.status == Debt.Status.SETTLED,
        "person": debt.counterparty,
        "amount": str(amount),
        "currency": debt.currency,
    }
    with override(user.profile.language or "vi"):
        title = debt_paid_words(facts).title
    notification_create(
        user=user,
        kind=Notification.Kind.DEBT_SETTLED,
        title=title,
        facts=facts,
        cta_url=f"/debts#debt-{debt.id}",
        dedupe_key=f"debt-paid:{debt.id}:{transaction_id}",
    )


def on_synced_income(sender, *, transaction_id: int, text: str, **kwargs) -> None:
    """Runs after the delivery committed: a failure here is logged and never turns the feed's answer into a 500
    (the row is in the ledger; the user can still record the payment by hand)."""
    try:
        debt_settle_from_feed(transaction_id=transaction_id, text=text)
    except Exception:
        log.exception("settling a debt from transaction %s failed", transaction_id)


def debt_paid_words(facts: dict) -> NotificationWords:
    """A payment a feed matched to a debt, from its facts, in the active language."""
    if facts["settled"]:
        title = _("%(person)s paid back everything they owed") % {"person": facts["person"]}
    else:
        title = _("%(person)s paid %(amount)s of what they owe") % {
            "person": facts["person"],
            "amount": format_amount(Decimal(facts["amount"]), facts["currency"], locale=get_language()),
        }
    return NotificationWords(title=title, body="", cta_url="")
