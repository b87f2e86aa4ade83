"""A credit card's statement cycle, pure: no ORM, no clock; amounts in whole minor units, owed positive.

On the statement day the bank bills what is owed; that statement balance is due on the due day that follows.
What was owed at the last statement date is today's balance less the charges made since, plus the repayments
made since (a transfer into the card is one); what is still due is that, less those repayments. The rest of
today's balance (the charges since the statement) is billed at the next statement and due the due day after it.
A day past a month's end (31 in November) falls on that month's last day.
"""

import calendar
import dataclasses
import datetime as dt

FIRST_DAY, LAST_DAY = 1, 31


@dataclasses.dataclass(frozen=True)
class CardDue:
    statement_on: dt.date
    due_on: dt.date
    statement_balance: int
    repaid: int
    amount_due: int
    next_statement_on: dt.date
    next_due_on: dt.date
    not_yet_billed: int
    overdue: bool


def day_in(year: int, month: int, day: int) -> dt.date:
    return dt.date(year, month, min(day, calendar.monthrange(year, month)[1]))


def _next_month(on: dt.date) -> tuple[int, int]:
    return (on.year + 1, 1) if on.month == 12 else (on.year, on.month + 1)


def _previous_month(on: dt.date) -> tuple[int, int]:
    return (on.year - 1, 12) if on.month == 1 else (on.year, on.month - 1)


def last_statement_on(today: dt.date, statement_day: int) -> dt.date:
    """The latest statement date on or before today."""
    this_month = day_in(today.year, today.month, statement_day)
    if this_month <= today:
        return this_month
    return day_in(*_previous_month(today), statement_day)


def next_statement_on(statement_on: dt.date, statement_day: int) -> dt.date:
    return day_in(*_next_month(statement_on), statement_day)


def due_after(statement_on: dt.date, due_day: int) -> dt.date:
    """The first due day strictly after the statement date: the same month when it comes later, else the next."""
    same_month = day_in(statement_on.year, statement_on.month, due_day)
    if same_month > statement_on:
        return same_month
    return day_in(*_next_month(statement_on), due_day)


def card_due(
    *, today: dt.date, statement_day: int, due_day: int, balance: int, charges_since: int, repayments_since: int
) -> CardDue:
    """`charges_since` and `repayments_since` are the card's spending and money in after the last statement
    date (today included)."""
    statement_on = last_statement_on(today, statement_day)
    due_on = due_after(statement_on, due_day)
    statement_balance = balance - charges_since + repayments_since
    amount_due = max(0, statement_balance - repayments_since)
    following = next_statement_on(statement_on, statement_day)
    return CardDue(
        statement_on=statement_on,
        due_on=due_on,
        statement_balance=statement_balance,
        repaid=repayments_since,
        amount_due=amount_due,
        next_statement_on=following,
        next_due_on=due_after(following, due_day),
        not_yet_billed=max(0, balance - amount_due),
        overdue=amount_due > 0 and today > due_on,
    )
