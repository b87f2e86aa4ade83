"""Property tests of the plan arithmetic's invariants: the parts sum to income, largest remainders stay within a
unit, the guide is never negative, a rebalance creates or loses no money."""

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from plans import math as pm
from tests.plans.math_cases import D, act

amounts = st.integers(min_value=0, max_value=10**15)
modes = st.sampled_from(sorted(pm.MODE_SHARES))
first_days = st.dates(min_value=D(2000, 1, 1), max_value=D(2100, 12, 1)).map(pm.month_first)


@settings(deadline=None)  # a shared, loaded machine must not turn slowness into failures
@given(income=amounts, fixed_share=st.fractions(0, 1), mode=modes, override=st.none() | st.fractions(0, 1),
       goal_need=st.none() | amounts)  # fmt: skip
def test_the_four_parts_always_sum_to_income(income, fixed_share, mode, override, goal_need):
    fixed = int(income * fixed_share)
    essential = None if override is None else int((income - fixed) * override)
    result = pm.allocate(income=income, fixed=fixed, mode=mode, essential_override=essential, goal_need=goal_need)
    assert result.total == income
    assert min(result.fixed, result.essential, result.goal, result.safe) >= 0
    if goal_need is not None:
        assert result.goal <= goal_need


@settings(deadline=None)  # a shared, loaded machine must not turn slowness into failures
@given(total=st.integers(0, 10**12), weights=st.lists(st.integers(0, 100), min_size=1, max_size=5))
def test_largest_remainder_parts_sum_and_stay_within_one_unit(total, weights):
    if sum(weights) == 0:
        return
    parts = pm.split_largest_remainder(total, weights)
    assert sum(parts) == total
    for part, weight in zip(parts, weights, strict=True):
        assert abs(part * sum(weights) - total * weight) < sum(weights)


@settings(deadline=None)  # a shared, loaded machine must not turn slowness into failures
@given(
    first=first_days,
    safe=st.integers(0, 10**12),
    offset=st.integers(-5, 40),
    spends=st.dictionaries(st.integers(0, 30), st.integers(0, 10**11), max_size=31),
)
def test_the_guide_is_never_negative(first, safe, offset, spends):
    by_day = {first + dt.timedelta(days=k): v for k, v in spends.items()}
    today = first + dt.timedelta(days=offset)
    guide = pm.daily_guide(safe=safe, first=first, today=today, discretionary_by_day=by_day)
    assert guide.guide >= 0
    assert guide.days_left >= 0


@settings(deadline=None)  # a shared, loaded machine must not turn slowness into failures
@given(
    first=first_days,
    income=st.integers(0, 10**12),
    fixed_share=st.fractions(0, 1),
    mode=modes,
    day=st.integers(1, 31),
    spent_share=st.fractions(0, 2),
    goal_share=st.fractions(0, 1),
)
def test_a_rebalance_creates_or_loses_no_money(first, income, fixed_share, mode, day, spent_share, goal_share):
    allocations = pm.allocate(income=income, fixed=int(income * fixed_share), mode=mode)
    today = first.replace(day=min(day, pm.days_in_month(first)))
    spent = int(allocations.safe * spent_share)
    actuals = act(discretionary=spent, goal=int(allocations.goal * goal_share))
    rec = pm.recommend(
        allocations=allocations, actuals=actuals, first=first, today=today, discretionary_by_day={today: spent}
    )
    if rec is None:
        return
    after = pm.apply_move(allocations, rec.kind, rec.amount)
    assert after.total == allocations.total == income
    assert min(after.goal, after.safe) >= 0
    assert after.fixed == allocations.fixed and after.essential == allocations.essential
    assert rec.daily_guide >= 0
