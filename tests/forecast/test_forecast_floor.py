"""The watch's floor (plans.forecast.floor_within) never lies above the projection: a user it lets pass without
the day-by-day projection could not have fallen short. Property-tested against project() on random inputs."""

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from plans import forecast as fc

TODAY = dt.date(2026, 12, 4)

events = st.lists(
    st.builds(
        fc.Event,
        on=st.dates(min_value=TODAY - dt.timedelta(days=40), max_value=TODAY + dt.timedelta(days=fc.MAX_DAYS + 10)),
        kind=st.sampled_from(["income", "bill", "subscription", "debt", "fixed", "card"]),
        label=st.sampled_from(["Rent", "Salary", "VIB: amount due", "Lan"]),
        amount=st.integers(min_value=-50_000_000, max_value=50_000_000),
    ),
    max_size=25,
)


@settings(max_examples=400, deadline=None)
@given(
    start=st.integers(min_value=-100_000_000, max_value=100_000_000),
    days=st.integers(min_value=1, max_value=fc.MAX_DAYS),
    events=events,
    daily=st.integers(min_value=-200_000, max_value=2_000_000),
    cushion=st.integers(min_value=0, max_value=10_000_000),
)
def test_no_day_of_the_projection_lies_below_the_floor(start, days, events, daily, cushion):
    floor = fc.floor_within(today=TODAY, start_balance=start, days=days, events=events, daily_spending=daily)
    forecast = fc.project(
        today=TODAY, start_balance=start, days=days, events=events, daily_spending=daily, cushion=cushion
    )
    assert all(day.balance >= floor for day in forecast.days)
    if floor >= cushion:
        assert not forecast.shortfall
        assert fc.lowest_within(forecast, days).balance >= cushion


def test_the_floor_is_the_lowest_day_when_nothing_comes_in():
    rent = fc.Event(TODAY + dt.timedelta(days=14), "bill", "Rent", -4_500_000)
    overdue = fc.Event(TODAY - dt.timedelta(days=3), "debt", "Lan", -400_000)
    after = fc.Event(TODAY + dt.timedelta(days=15), "bill", "Water", -100_000)
    salary = fc.Event(TODAY + dt.timedelta(days=20), "income", "Salary", 25_000_000)
    inputs = dict(today=TODAY, days=14, events=[rent, overdue, after, salary], daily_spending=100_000)
    forecast = fc.project(start_balance=6_300_000, **inputs)
    assert fc.floor_within(start_balance=6_300_000, **inputs) == forecast.lowest.balance == 0
    assert fc.floor_within(start_balance=6_299_999, **inputs) == -1


def test_income_before_a_bill_lifts_the_projection_above_the_floor():
    salary = fc.Event(TODAY + dt.timedelta(days=2), "income", "Salary", 25_000_000)
    rent = fc.Event(TODAY + dt.timedelta(days=5), "bill", "Rent", -6_000_000)
    inputs = dict(today=TODAY, days=14, events=[salary, rent], daily_spending=0)
    assert fc.floor_within(start_balance=1_000_000, **inputs) == -5_000_000
    assert fc.project(start_balance=1_000_000, **inputs).lowest.balance == 1_000_000
