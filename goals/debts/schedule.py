"""The arithmetic of a debt, pure: no ORM, no clock.

Amounts are whole minor units (đồng, cents); callers convert at the edges with zeus.money.to_minor /
from_minor. Rates are yearly percentages as Decimal. Every split is exact: the parts add up to the whole.

- A single repayment (`due_on`): principal plus simple interest for the days from `opened_on` to `due_on`
  over a 365-day year, rounded half up once.
- Monthly instalments, flat: interest each month on the original principal (rate / 12); the principal
  in equal parts, the leftover units to the earliest instalments; the total interest likewise.
- Monthly instalments, reducing balance (an annuity): a fixed payment P·i / (1 - (1 + i)^-n) rounded half up,
  each month's interest on the balance still owed rounded half up, the last instalment clearing the rest.
- Payments settle the instalments in date order.
"""

import calendar
import dataclasses
import datetime as dt
from collections.abc import Sequence
from decimal import Decimal

# Only marks the messages for the catalog (it returns its text): the services translate them, this stays pure.
from django.utils.translation import gettext_noop

FLAT, REDUCING = "flat", "reducing"
MAX_RATE = Decimal(100)
MAX_INSTALLMENTS = 600


class DebtMathError(ValueError):
    """`message` is a msgid taking `params` (%-style); str() of the error is its English text."""

    def __init__(self, message: str, *, field: str, **params):
        super().__init__(message % params)
        self.message, self.params, self.field = message, params, field


@dataclasses.dataclass(frozen=True)
class Terms:
    principal: int
    opened_on: dt.date
    rate: Decimal = Decimal(0)  # yearly %
    method: str = FLAT
    due_on: dt.date | None = None
    installments: int | None = None
    first_due_on: dt.date | None = None


@dataclasses.dataclass(frozen=True)
class Instalment:
    number: int
    due_on: dt.date
    principal: int
    interest: int

    @property
    def amount(self) -> int:
        return self.principal + self.interest


@dataclasses.dataclass(frozen=True)
class Standing:
    number: int
    due_on: dt.date
    amount: int
    paid: int

    @property
    def remaining(self) -> int:
        return self.amount - self.paid


def add_months(start: dt.date, months: int) -> dt.date:
    """The same day of the month `months` later, on the month's last day where it has fewer days."""
    index = start.month - 1 + months
    year, month = start.year + index // 12, index % 12 + 1
    return dt.date(year, month, min(start.day, calendar.monthrange(year, month)[1]))


def _months_to_year_end(start: dt.date) -> int:
    """How many months after `start` a date can still be (through December of the last year a date holds)."""
    return (dt.MAXYEAR - start.year) * 12 + 12 - start.month


def check(terms: Terms) -> None:
    if terms.principal <= 0:
        raise DebtMathError(gettext_noop("The principal must be more than zero."), field="principal")
    if not (0 <= terms.rate <= MAX_RATE):
        raise DebtMathError(
            gettext_noop("The interest rate is a yearly %% from 0 to %(max)s."), field="interest_rate", max=MAX_RATE
        )
    if terms.method not in (FLAT, REDUCING):
        raise DebtMathError(gettext_noop("The interest method is flat or reducing."), field="interest_method")
    if terms.due_on is not None and terms.installments is not None:
        raise DebtMathError(gettext_noop("Give either due_on or installments, not both."), field="installments")
    if terms.due_on is not None and terms.due_on < terms.opened_on:
        raise DebtMathError(gettext_noop("due_on cannot be before opened_on."), field="due_on")
    if terms.installments is not None:
        if not (1 <= terms.installments <= MAX_INSTALLMENTS):
            raise DebtMathError(
                gettext_noop("installments is from 1 to %(max)s."), field="installments", max=MAX_INSTALLMENTS
            )
        if terms.first_due_on is None:
            raise DebtMathError(gettext_noop("Instalments need the first due date."), field="first_due_on")
        if terms.first_due_on < terms.opened_on:
            raise DebtMathError(gettext_noop("first_due_on cannot be before opened_on."), field="first_due_on")
        if _months_to_year_end(terms.first_due_on) < terms.installments - 1:
            raise DebtMathError(
                gettext_noop("The last instalment would fall after the year %(year)s."),
                field="first_due_on",
                year=dt.MAXYEAR,
            )
    if terms.rate and terms.due_on is None and terms.installments is None:
        raise DebtMathError(
            gettext_noop("Interest needs a due date or instalments to run over."), field="interest_rate"
        )


def _split(total: int, parts: int) -> list[int]:
    base, leftover = divmod(total, parts)
    return [base + (1 if index < leftover else 0) for index in range(parts)]


def schedule(terms: Terms) -> list[Instalment]:
    """What falls due and when; empty for an IOU with no date."""
    check(terms)
    # Whole numbers throughout (the rate as a ratio): a Decimal product or quotient is cut at its precision.
    rate_num, rate_den = terms.rate.as_integer_ratio()
    if terms.due_on is not None:
        days = (terms.due_on - terms.opened_on).days
        interest = _ratio_half_up(terms.principal * rate_num * days, rate_den * 100 * 365)
        return [Instalment(1, terms.due_on, terms.principal, interest)]
    if terms.installments is None:
        return []
    count = terms.installments
    dates = [add_months(terms.first_due_on, index) for index in range(count)]
    if terms.method == FLAT or not terms.rate:
        interest = _ratio_half_up(terms.principal * rate_num * count, rate_den * 1200)
        principals, interests = _split(terms.principal, count), _split(interest, count)
        return [Instalment(n + 1, dates[n], principals[n], interests[n]) for n in range(count)]
    return _annuity(terms.principal, terms.rate, dates)


def _ratio_half_up(numerator: int, denominator: int) -> int:
    """numerator / denominator (numerator >= 0, denominator > 0) rounded half up, exact in whole numbers."""
    return (2 * numerator + denominator) // (2 * denominator)


def _annuity(principal: int, rate: Decimal, dates: Sequence[dt.date]) -> list[Instalment]:
    # The monthly rate i = rate / 1200 as a ratio of whole numbers a / b: a Decimal of it (7 % → 0.0058333…) is
    # cut short, and an interest of exactly half a đồng (153,000 x 7 / 1200 = 892.5) then rounded down.
    count = len(dates)
    rate_num, rate_den = rate.as_integer_ratio()
    a, b = rate_num, rate_den * 1200
    # P·i / (1 - (1 + i)^-n) = P·a·(b + a)^n / (b·((b + a)^n - b^n))
    grown, base = (b + a) ** count, b**count
    payment = _ratio_half_up(principal * a * grown, b * (grown - base))
    rows, balance = [], principal
    for index, due_on in enumerate(dates):
        interest = _ratio_half_up(balance * a, b)
        part = balance if index == count - 1 else min(balance, payment - interest)
        rows.append(Instalment(index + 1, due_on, part, interest))
        balance -= part
    return rows


def total_due(terms: Terms, rows: Sequence[Instalment]) -> int:
    """What the debt costs in all: the schedule's sum, or the principal of an undated IOU."""
    return sum(row.amount for row in rows) if rows else terms.principal


def standing(rows: Sequence[Instalment], paid: int) -> list[Standing]:
    """Each instalment with what of it is paid, payments applied in date order."""
    result = []
    for row in rows:
        covered = min(row.amount, max(paid, 0))
        paid -= covered
        result.append(Standing(row.number, row.due_on, row.amount, covered))
    return result


def next_due(rows: Sequence[Standing]) -> Standing | None:
    return next((row for row in rows if row.remaining > 0), None)
