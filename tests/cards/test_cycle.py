"""The card cycle's arithmetic against hand-computed tables (assets/cards/cycle.py: no ORM, no clock)."""

import datetime as dt

import pytest

from assets.cards import cycle

D = dt.date


@pytest.mark.parametrize(
    ("today", "statement_day", "expected"),
    [
        (D(2026, 12, 3), 25, D(2026, 11, 25)),  # before this month's statement: last month's
        (D(2026, 12, 25), 25, D(2026, 12, 25)),  # the statement day itself
        (D(2026, 12, 26), 25, D(2026, 12, 25)),
        (D(2026, 1, 10), 25, D(2025, 12, 25)),  # across the year
        (D(2026, 11, 30), 31, D(2026, 11, 30)),  # 31 in a 30-day month is its last day
        (D(2027, 3, 15), 30, D(2027, 2, 28)),  # and February's
        (D(2028, 3, 15), 30, D(2028, 2, 29)),  # leap year
        (D(2026, 12, 1), 1, D(2026, 12, 1)),
    ],
)
def test_the_last_statement_date(today, statement_day, expected):
    assert cycle.last_statement_on(today, statement_day) == expected


@pytest.mark.parametrize(
    ("statement_on", "due_day", "expected"),
    [
        (D(2026, 11, 25), 10, D(2026, 12, 10)),  # due day before the statement day: the next month
        (D(2026, 11, 5), 25, D(2026, 11, 25)),  # after it: the same month
        (D(2026, 11, 25), 25, D(2026, 12, 25)),  # the same day: a month later
        (D(2026, 12, 20), 5, D(2027, 1, 5)),  # across the year
        (D(2027, 1, 31), 30, D(2027, 2, 28)),  # clamped to February
        (D(2026, 11, 30), 31, D(2026, 12, 31)),  # 31 on the 30th of November is that day: not after it
    ],
)
def test_the_due_date_after_a_statement(statement_on, due_day, expected):
    assert cycle.due_after(statement_on, due_day) == expected


# Balance 5,000,000 owed today; statement on the 25th, due on the 10th; today 3 December.
# Charges since 25 November 1,200,000, repayments since 1,000,000:
# owed at the statement = 5,000,000 - 1,200,000 + 1,000,000 = 4,800,000; due = 4,800,000 - 1,000,000 = 3,800,000.
@pytest.mark.parametrize(
    ("today", "balance", "charges", "repaid", "statement_balance", "due", "not_billed", "overdue"),
    [
        (D(2026, 12, 3), 5_000_000, 1_200_000, 1_000_000, 4_800_000, 3_800_000, 1_200_000, False),
        (D(2026, 12, 3), 3_600_000, 1_200_000, 3_000_000, 5_400_000, 2_400_000, 1_200_000, False),
        # Repaid more than the statement: nothing due, the card's balance all billed next time.
        (D(2026, 12, 3), 700_000, 1_200_000, 5_300_000, 4_800_000, 0, 700_000, False),
        # In credit (balance below zero): nothing due, nothing to bill.
        (D(2026, 12, 3), -200_000, 0, 200_000, 0, 0, 0, False),
        # No movement since the statement: the whole balance is due.
        (D(2026, 12, 3), 2_000_000, 0, 0, 2_000_000, 2_000_000, 0, False),
        # Past the due date (10 December), still owed: overdue.
        (D(2026, 12, 12), 2_500_000, 500_000, 0, 2_000_000, 2_000_000, 500_000, True),
        # Past it and paid off: not overdue.
        (D(2026, 12, 12), 500_000, 500_000, 2_000_000, 2_000_000, 0, 500_000, False),
    ],
)
def test_the_amount_due(today, balance, charges, repaid, statement_balance, due, not_billed, overdue):
    got = cycle.card_due(
        today=today, statement_day=25, due_day=10, balance=balance, charges_since=charges, repayments_since=repaid
    )
    assert (got.statement_balance, got.repaid, got.amount_due) == (statement_balance, repaid, due)
    assert (got.not_yet_billed, got.overdue) == (not_billed, overdue)
    assert (got.statement_on, got.due_on) == (D(2026, 11, 25), D(2026, 12, 10))
    assert (got.next_statement_on, got.next_due_on) == (D(2026, 12, 25), D(2027, 1, 10))
