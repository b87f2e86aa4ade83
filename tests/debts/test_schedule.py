"""The debt arithmetic against tables worked out by hand (the working is in each case's comment)."""

import datetime as dt
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goals.debts.schedule import (
    FLAT,
    REDUCING,
    DebtMathError,
    Terms,
    add_months,
    next_due,
    schedule,
    standing,
    total_due,
)

D = dt.date


def rows(terms):
    return [(r.due_on, r.principal, r.interest, r.amount) for r in schedule(terms)]


def test_flat_twelve_months_at_twelve_percent():
    # 12,000,000 at 12 %/yr flat: 120,000 interest a month on the original principal, 1,000,000 principal a month.
    terms = Terms(12_000_000, D(2026, 1, 10), Decimal(12), FLAT, installments=12, first_due_on=D(2026, 2, 10))
    table = rows(terms)
    assert len(table) == 12
    assert all(row[1:] == (1_000_000, 120_000, 1_120_000) for row in table)
    assert table[0][0] == D(2026, 2, 10) and table[-1][0] == D(2027, 1, 10)
    assert total_due(terms, schedule(terms)) == 13_440_000


def test_without_interest_the_leftover_dong_go_to_the_first_instalments():
    # 10,000,000 / 3 = 3,333,333 r 1: the first instalment carries the extra đồng.
    terms = Terms(10_000_000, D(2026, 1, 1), installments=3, first_due_on=D(2026, 1, 31))
    assert rows(terms) == [
        (D(2026, 1, 31), 3_333_334, 0, 3_333_334),
        (D(2026, 2, 28), 3_333_333, 0, 3_333_333),  # no 31 February: the month's last day
        (D(2026, 3, 31), 3_333_333, 0, 3_333_333),
    ]


def test_flat_interest_that_does_not_divide_evenly():
    # 1,000,000 at 10 % flat over 3 months: 1,000,000 * 10 * 3 / 1200 = 25,000 → 8,334 + 8,333 + 8,333;
    # principal 333,334 + 333,333 + 333,333.
    terms = Terms(1_000_000, D(2026, 1, 1), Decimal(10), FLAT, installments=3, first_due_on=D(2026, 2, 1))
    assert [(r[1], r[2]) for r in rows(terms)] == [(333_334, 8_334), (333_333, 8_333), (333_333, 8_333)]
    assert sum(r[3] for r in rows(terms)) == 1_025_000


def test_reducing_balance_three_months_at_twelve_percent():
    # i = 1 %/month. Payment = 1,000,000 x 0.01 / (1 - 1.01^-3) = 340,022.11 → 340,022.
    # 1: interest 10,000, principal 330,022, left 669,978.
    # 2: interest 6,699.78 → 6,700, principal 333,322, left 336,656.
    # 3: interest 3,366.56 → 3,367, principal 336,656 (the rest), payment 340,023.
    terms = Terms(1_000_000, D(2026, 1, 1), Decimal(12), REDUCING, installments=3, first_due_on=D(2026, 2, 1))
    assert [(r[1], r[2], r[3]) for r in rows(terms)] == [
        (330_022, 10_000, 340_022),
        (333_322, 6_700, 340_022),
        (336_656, 3_367, 340_023),
    ]
    assert sum(r[1] for r in rows(terms)) == 1_000_000


def test_reducing_balance_interest_on_a_half_dong_rounds_up():
    # 7 %/year: i = 7/1200 a month, which no decimal holds exactly. 153,000 x 7 / 1200 = 892.5 → 893; it was
    # taken as 153,000 x 0.0058333… = 892.4999… → 892, a đồng short.
    terms = Terms(153_000, D(2026, 1, 1), Decimal(7), REDUCING, installments=1, first_due_on=D(2026, 2, 1))
    assert rows(terms) == [(D(2026, 2, 1), 153_000, 893, 153_893)]


def _exact_annuity(principal: int, rate: Decimal, count: int) -> list[tuple[int, int]]:
    """The reducing-balance schedule in exact fractions, rounded half up once per figure: the reference."""
    half_up = lambda x: int((2 * x + 1) // 2)  # noqa: E731
    i = Fraction(rate) / 1200
    payment = half_up(principal * i / (1 - (1 + i) ** -count))
    table, balance = [], principal
    for index in range(count):
        interest = half_up(balance * i)
        part = balance if index == count - 1 else min(balance, payment - interest)
        table.append((part, interest))
        balance -= part
    return table


@settings(max_examples=300, deadline=None)
@given(
    principal=st.integers(1, 10**13),
    rate=st.decimals(Decimal("0.01"), Decimal(100), places=2),
    count=st.integers(1, 120),
)
def test_the_reducing_balance_schedule_is_exact_to_the_dong(principal, rate, count):
    terms = Terms(principal, D(2026, 1, 1), rate, REDUCING, installments=count, first_due_on=D(2026, 1, 31))
    assert [(r[1], r[2]) for r in rows(terms)] == _exact_annuity(principal, rate, count)


def test_one_repayment_with_simple_interest_for_the_days_held():
    # 5,000,000 at 10 % from 1 Jan to 1 Jul 2026 = 181 days: 5,000,000 x 0.10 x 181 / 365 = 247,945.2 → 247,945.
    terms = Terms(5_000_000, D(2026, 1, 1), Decimal(10), due_on=D(2026, 7, 1))
    assert rows(terms) == [(D(2026, 7, 1), 5_000_000, 247_945, 5_247_945)]


def test_an_undated_iou_has_no_schedule_and_owes_its_principal():
    terms = Terms(300_000, D(2026, 1, 1))
    assert schedule(terms) == []
    assert total_due(terms, []) == 300_000


def test_payments_settle_instalments_in_date_order():
    terms = Terms(3_000_000, D(2026, 1, 1), installments=3, first_due_on=D(2026, 2, 1))
    table = standing(schedule(terms), 1_500_000)
    assert [(r.paid, r.remaining) for r in table] == [(1_000_000, 0), (500_000, 500_000), (0, 1_000_000)]
    assert next_due(table).number == 2


@pytest.mark.parametrize(
    ("terms", "field"),
    [
        (Terms(0, D(2026, 1, 1)), "principal"),
        (Terms(1, D(2026, 1, 1), Decimal(1000), due_on=D(2026, 2, 1)), "interest_rate"),
        (Terms(1, D(2026, 1, 1), Decimal(-1), due_on=D(2026, 2, 1)), "interest_rate"),
        (Terms(1, D(2026, 1, 1), Decimal(5)), "interest_rate"),  # interest with nothing to run over
        (Terms(1, D(2026, 1, 1), due_on=D(2025, 12, 1)), "due_on"),
        (Terms(1, D(2026, 1, 1), installments=3), "first_due_on"),
        (Terms(1, D(2026, 1, 1), installments=0, first_due_on=D(2026, 2, 1)), "installments"),
        (Terms(1, D(2026, 1, 1), due_on=D(2026, 2, 1), installments=2, first_due_on=D(2026, 2, 1)), "installments"),
        # The last instalment would fall in the year 10000, which no date holds (a ValueError was a 500).
        (Terms(1, D(2026, 1, 1), installments=3, first_due_on=D(9999, 12, 31)), "first_due_on"),
        (Terms(1, D(2026, 1, 1), installments=600, first_due_on=D(9960, 1, 1)), "first_due_on"),
    ],
)
def test_terms_no_lender_would_write_are_refused(terms, field):
    with pytest.raises(DebtMathError) as caught:
        schedule(terms)
    assert caught.value.field == field


@pytest.mark.parametrize(
    ("start", "months", "expected"),
    [(D(2026, 1, 31), 1, D(2026, 2, 28)), (D(2028, 1, 31), 1, D(2028, 2, 29)), (D(2026, 11, 15), 3, D(2027, 2, 15))],
)
def test_add_months(start, months, expected):
    assert add_months(start, months) == expected
