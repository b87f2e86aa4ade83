"""The forecast arithmetic against hand-computed tables."""

import datetime as dt

import pytest

from plans.forecast import Event, horizon, lowest_within, median_daily, occurrences, project

D = dt.date
TODAY = D(2026, 12, 3)


def test_a_week_with_rent_then_salary():
    # Start 5,000,000. Day 1 (4 Dec): -100,000 spending → 4,900,000. Day 2 (5 Dec): rent -4,500,000 and
    # spending → 300,000. Day 3 (6 Dec): spending → 200,000. Day 4 (7 Dec): salary +15,000,000, spending →
    # 15,100,000. The lowest point is 6 Dec at 200,000.
    forecast = project(
        today=TODAY,
        start_balance=5_000_000,
        days=4,
        events=[
            Event(D(2026, 12, 5), "bill", "Rent", -4_500_000),
            Event(D(2026, 12, 7), "income", "Salary", 15_000_000),
        ],
        daily_spending=100_000,
    )
    assert [(day.date.day, day.balance) for day in forecast.days] == [
        (3, 5_000_000),
        (4, 4_900_000),
        (5, 300_000),
        (6, 200_000),
        (7, 15_100_000),
    ]
    assert (forecast.lowest.date, forecast.lowest.balance) == (D(2026, 12, 6), 200_000)
    assert not forecast.shortfall
    assert [e.label for e in forecast.days[4].events] == ["Salary", "spending"]


def test_a_shortfall_below_the_cushion():
    # Start 1,000,000, cushion 500,000: an instalment of 800,000 on day 2 and 50,000 a day →
    # 950,000, 100,000, 50,000: lowest 50,000 < 500,000.
    forecast = project(
        today=TODAY,
        start_balance=1_000_000,
        days=3,
        events=[Event(D(2026, 12, 5), "debt", "Bank loan", -800_000)],
        daily_spending=50_000,
        cushion=500_000,
    )
    assert [day.balance for day in forecast.days] == [1_000_000, 950_000, 100_000, 50_000]
    assert forecast.shortfall and forecast.lowest.date == D(2026, 12, 6)


def test_what_was_due_before_tomorrow_falls_on_day_one_and_later_than_the_window_is_left_out():
    forecast = project(
        today=TODAY,
        start_balance=0,
        days=2,
        events=[
            Event(D(2026, 11, 30), "debt", "Overdue", -10),
            Event(TODAY, "bill", "Due today", -5),
            Event(D(2026, 12, 9), "income", "Later", 99),
        ],
        daily_spending=0,
    )
    assert [day.balance for day in forecast.days] == [0, -15, -15]


def test_the_lowest_day_is_the_earliest_of_equals_and_today_counts():
    forecast = project(today=TODAY, start_balance=10, days=2, events=[], daily_spending=0)
    assert forecast.lowest.date == TODAY


def test_lowest_within_a_window():
    forecast = project(
        today=TODAY, start_balance=100, days=20, events=[Event(D(2026, 12, 20), "bill", "Big", -1000)], daily_spending=0
    )
    assert lowest_within(forecast, 14).balance == 100
    assert lowest_within(forecast, 20).balance == -900


@pytest.mark.parametrize(
    ("incomes", "days", "expected"),
    [
        ([D(2026, 12, 10)], None, 8),  # the 10th is 7 days away; through the day after: 8
        ([D(2026, 12, 10), D(2026, 12, 5)], None, 3),
        ([], None, 30),
        ([D(2027, 6, 1)], None, 90),
        ([D(2026, 12, 10)], 14, 14),
        ([], 500, 90),
        ([], 0, 1),
    ],
)
def test_horizon(incomes, days, expected):
    assert horizon(today=TODAY, income_dates=incomes, days=days) == expected


@pytest.mark.parametrize(
    ("totals", "expected"), [([], 0), ([5], 5), ([1, 9, 3], 3), ([0, 0, 100, 200], 50), ([1, 2], 1)]
)
def test_median_daily(totals, expected):
    assert median_daily(totals) == expected


@pytest.mark.parametrize(
    ("start", "interval", "until", "expected"),
    [
        (D(2026, 12, 31), "monthly", D(2027, 3, 31), [D(2026, 12, 31), D(2027, 1, 31), D(2027, 2, 28), D(2027, 3, 31)]),
        (D(2026, 12, 3), "weekly", D(2026, 12, 20), [D(2026, 12, 3), D(2026, 12, 10), D(2026, 12, 17)]),
        (D(2026, 12, 3), "yearly", D(2027, 3, 1), [D(2026, 12, 3)]),
        (D(2027, 1, 3), "monthly", D(2026, 12, 31), []),
    ],
)
def test_occurrences(start, interval, until, expected):
    assert occurrences(start, interval, until) == expected
