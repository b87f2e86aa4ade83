"""What plans know of the user's recurring money. The series live in `suggestions`, above plans, which
cannot import it (docs/architecture.md): plans asks through the `recurring_charges` signal and suggestions answers
(suggestions/receivers.py). docs/plans.md, "Recurring bills"."""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.dispatch import Signal

from assets import categories
from plans import math as pm
from zeus.money import quantize

# kwargs: user, due_since, due_until (dates, or None for every active series); each receiver returns a list
# of RecurringCharge.
recurring_charges = Signal()


@dataclass(frozen=True)
class RecurringCharge:
    name: str
    kind: str  # subscription, bill
    amount: Decimal  # one charge
    monthly_amount: Decimal  # what it costs a month on average
    currency: str
    category: str
    due_on: dt.date


def charges_for(*, user, due_since: dt.date | None = None, due_until: dt.date | None = None) -> list[RecurringCharge]:
    found: list[RecurringCharge] = []
    for _receiver, charges in recurring_charges.send(sender=None, user=user, due_since=due_since, due_until=due_until):
        found.extend(charges or [])
    return sorted(found, key=lambda c: (c.due_on, c.name))


def suggested_fixed_expenses(*, user, currency: str) -> list[dict]:
    """The plan's fixed-expense lines the user's active recurring bills suggest, in the plan's currency:
    one line per bill (essential series; subscriptions are discretionary, not fixed), at its monthly cost."""
    lines = []
    for charge in charges_for(user=user):
        if charge.kind != "bill" or charge.currency != currency or charge.category not in categories.EXPENSE:
            continue
        lines.append(
            {
                "name": charge.name[:100],
                "amount": str(quantize(charge.monthly_amount, currency)),
                "category": charge.category,
            }
        )
    return lines


def merge_fixed_lines(given: list[dict], suggested: list[dict]) -> list[dict]:
    """The user's own lines first; a suggested line joins unless a given line already has its name or its
    category (the user already planned for it)."""
    names = {line["name"].strip().casefold() for line in given}
    taken = {line["category"] for line in given}
    return given + [s for s in suggested if s["name"].casefold() not in names and s["category"] not in taken]


def bills_still_due(*, user, currency: str, today: dt.date, month_last: dt.date) -> list[RecurringCharge]:
    """Recurring charges expected from today through the month's last day, in the plan's currency."""
    if today > month_last:
        return []
    return bills_in_currency(charges_for(user=user, due_since=today, due_until=month_last), currency)


def bills_in_currency(charges: list[RecurringCharge], currency: str) -> list[RecurringCharge]:
    """The charges in `currency`, in the order charges_for gives them."""
    return sorted((c for c in charges if c.currency == currency), key=lambda c: (c.due_on, c.name))


def bills_by_plan(*, user, plans, today: dt.date) -> dict[int, list[RecurringCharge]]:
    """bills_still_due for each of a user's plans with one read of the series (a page of the plan list)."""
    lasts = {p.id: pm.month_last(p.month) for p in plans}
    open_until = max((last for last in lasts.values() if last >= today), default=None)
    charges = charges_for(user=user, due_since=today, due_until=open_until) if open_until else []
    return {p.id: [c for c in charges if c.currency == p.currency and today <= c.due_on <= lasts[p.id]] for p in plans}
