"""Reads of debts: the rows, and each one's standing (schedule, paid, outstanding, next due) for a given day."""

import dataclasses
import datetime as dt
from decimal import Decimal

from django.utils.translation import gettext as _

from goals.debts import schedule as debt_math
from goals.debts.models import Debt, DebtPayment
from zeus.errors import NotFound
from zeus.money import from_minor, to_minor
from zeus.queries import AnyOf
from zeus.validation import record_id


@dataclasses.dataclass(frozen=True)
class ScheduleRow:
    number: int
    due_on: dt.date
    principal: Decimal
    interest: Decimal
    amount: Decimal
    paid: Decimal
    remaining: Decimal


@dataclasses.dataclass(frozen=True)
class DebtView:
    debt: Debt
    total: Decimal  # principal and interest as scheduled
    paid: Decimal
    outstanding: Decimal
    next_due: ScheduleRow | None
    overdue: bool
    schedule: list[ScheduleRow]
    payments: list[DebtPayment]


def debt_terms(debt: Debt) -> debt_math.Terms:
    return debt_math.Terms(
        principal=to_minor(debt.principal, debt.currency),
        opened_on=debt.opened_on,
        rate=debt.interest_rate,
        method=debt.interest_method,
        due_on=debt.due_on,
        installments=debt.installments,
        first_due_on=debt.first_due_on,
    )


def debt_list(*, user, status: str | None = None, direction: str | None = None):
    qs = Debt.objects.filter(user=user)
    if status in Debt.Status.values:
        qs = qs.filter(status=status)
    if direction in Debt.Direction.values:
        qs = qs.filter(direction=direction)
    return qs


def debt_get(*, user, debt_id) -> Debt:
    debt = Debt.objects.filter(user=user, id=record_id(debt_id)).first()
    if debt is None:
        raise NotFound(_("No such debt."))
    return debt


def debt_views(debts, *, today: dt.date) -> list[DebtView]:
    """Each debt's standing, with its payments read in one query for the lot."""
    debts = list(debts)
    if not debts:
        return []  # no payments to read: not even a query built (the home of someone who owes nothing)
    payments: dict[int, list[DebtPayment]] = {debt.id: [] for debt in debts}
    for payment in DebtPayment.objects.filter(debt__in=[debt.id for debt in debts]).order_by("-paid_on", "-id"):
        payments[payment.debt_id].append(payment)
    return [_view(debt, payments[debt.id], today) for debt in debts]


def debt_view(debt: Debt, *, today: dt.date) -> DebtView:
    return debt_views([debt], today=today)[0]


def _view(debt: Debt, payments: list[DebtPayment], today: dt.date) -> DebtView:
    currency = debt.currency
    terms = debt_terms(debt)
    rows = debt_math.schedule(terms)
    paid = sum(to_minor(payment.amount, currency) for payment in payments)
    total = debt_math.total_due(terms, rows)
    money = lambda units: from_minor(units, currency)  # noqa: E731
    by_number = {row.number: row for row in rows}
    standing = [
        ScheduleRow(
            number=row.number,
            due_on=row.due_on,
            principal=money(by_number[row.number].principal),
            interest=money(by_number[row.number].interest),
            amount=money(row.amount),
            paid=money(row.paid),
            remaining=money(row.remaining),
        )
        for row in debt_math.standing(rows, paid)
    ]
    next_due = next((row for row in standing if row.remaining > 0), None)
    return DebtView(
        debt=debt,
        total=money(total),
        paid=money(paid),
        outstanding=money(max(total - paid, 0)),
        next_due=next_due,
        overdue=next_due is not None and next_due.due_on < today,
        schedule=standing,
        payments=payments,
    )


def unpaid_instalments(*, user_ids) -> dict[int, list[tuple[Debt, ScheduleRow]]]:
    """Each user's open debts' unpaid instalments (newest debt first, each in schedule order): two queries for
    any number of users (a job's batch). What remains of an instalment does not depend on the day asked."""
    found: dict[int, list[tuple[Debt, ScheduleRow]]] = {}
    user_ids = list(user_ids)
    if not user_ids:
        return found  # an empty ANY is still a query, where an empty IN was none
    debts = Debt.objects.filter(AnyOf("user_id", user_ids), status=Debt.Status.OPEN)
    for view in debt_views(debts, today=dt.date.min):
        for row in view.schedule:
            if row.remaining > 0:
                found.setdefault(view.debt.user_id, []).append((view.debt, row))
    return found
