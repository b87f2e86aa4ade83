"""Table tests of the plan arithmetic with hand-computed figures, and property tests of its invariants."""

import datetime as dt
import zoneinfo
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plans import math as pm
from zeus.money import from_minor, to_minor

D = dt.date
NOV = D(2026, 11, 1)  # 30 days
FEB = D(2026, 2, 1)  # 28 days
FEB_LEAP = D(2028, 2, 1)  # 29 days
JAN = D(2027, 1, 1)  # 31 days
ESSENTIAL = ("housing", "utilities", "groceries", "transport")
DISCRETIONARY = ("dining", "shopping", "subscriptions", "other")


def alloc(fixed=0, essential=0, goal=0, safe=0):
    return pm.Allocations(fixed=fixed, essential=essential, goal=goal, safe=safe)


def act(fixed=0, essential=0, discretionary=0, goal=0):
    return pm.Actuals(fixed=fixed, essential=essential, discretionary=discretionary, goal=goal)


# Allocations


@pytest.mark.parametrize(
    ("income", "fixed", "mode", "expected"),
    [
        # 25,000,000 - 7,300,000 = 17,700,000 flexible; balanced 50/20/30.
        (25_000_000, 7_300_000, "balanced", (7_300_000, 8_850_000, 3_540_000, 5_310_000)),
        (25_000_000, 7_300_000, "saver", (7_300_000, 8_850_000, 5_310_000, 3_540_000)),
        (25_000_000, 7_300_000, "relaxed", (7_300_000, 8_850_000, 1_770_000, 7_080_000)),
        # 7 units: 3.5 / 1.4 / 2.1 → floors 3, 1, 2; the spare unit goes to the largest fraction (essential).
        (7, 0, "balanced", (0, 4, 1, 2)),
        # 5 units: 2.5 / 1.0 / 1.5 → a tie between essential and safe goes to essential.
        (5, 0, "balanced", (0, 3, 1, 1)),
        # saver 5 units: 2.5 / 1.5 / 1.0 → a tie between essential and goal goes to essential.
        (5, 0, "saver", (0, 3, 1, 1)),
        # USD cents: $4,000.00 - $1,234.56 = 2,765.44; saver 1382.72 / 829.632 / 553.088 → safe gets the cent.
        (400_000, 123_456, "saver", (123_456, 138_272, 82_963, 55_309)),
        (0, 0, "relaxed", (0, 0, 0, 0)),
        (1_000, 1_000, "balanced", (1_000, 0, 0, 0)),
    ],
)
def test_allocations_split_flexible_money_by_mode(income, fixed, mode, expected):
    result = pm.allocate(income=income, fixed=fixed, mode=mode)
    assert (result.fixed, result.essential, result.goal, result.safe) == expected
    assert result.total == income


def test_usd_allocations_read_back_as_cents():
    result = pm.allocate(
        income=to_minor(Decimal("4000"), "USD"), fixed=to_minor(Decimal("1234.56"), "USD"), mode="saver"
    )
    assert [str(from_minor(v, "USD")) for v in (result.essential, result.goal, result.safe)] == [
        "1382.72",
        "829.63",
        "553.09",
    ]


def test_largest_remainder_ties_go_to_the_earlier_part():
    assert pm.split_largest_remainder(2, (1, 1, 1)) == [1, 1, 0]
    assert pm.split_largest_remainder(1, (1, 1, 1)) == [1, 0, 0]
    assert pm.split_largest_remainder(1, (20, 30)) == [0, 1]


def test_essential_override_splits_the_rest_in_the_goal_to_safe_ratio():
    result = pm.allocate(income=25_000_000, fixed=7_300_000, mode="balanced", essential_override=10_000_000)
    assert result == alloc(7_300_000, 10_000_000, 3_080_000, 4_620_000)
    # 3 units in 20:30 → 1.2 / 1.8 → floors 1, 1; the spare unit goes to safe (0.8 > 0.2).
    assert pm.allocate(income=3, fixed=0, mode="balanced", essential_override=0) == alloc(0, 0, 1, 2)


def test_essential_override_may_take_all_flexible_money_but_no_more():
    assert pm.allocate(income=100, fixed=40, mode="saver", essential_override=60) == alloc(40, 60, 0, 0)
    with pytest.raises(pm.PlanMathError) as excinfo:
        pm.allocate(income=100, fixed=40, mode="saver", essential_override=61)
    assert excinfo.value.field == "essential_spending"


def test_primary_goal_caps_the_goal_share_and_the_excess_goes_to_safe():
    result = pm.allocate(income=25_000_000, fixed=7_300_000, mode="balanced", goal_need=1_000_000)
    assert result == alloc(7_300_000, 8_850_000, 1_000_000, 7_850_000)
    uncapped = pm.allocate(income=25_000_000, fixed=7_300_000, mode="balanced", goal_need=9_000_000)
    assert uncapped.goal == 3_540_000
    achieved = pm.allocate(income=25_000_000, fixed=7_300_000, mode="balanced", goal_need=0)
    assert (achieved.goal, achieved.safe) == (0, 8_850_000)


def test_fixed_expenses_above_income_are_refused():
    with pytest.raises(pm.PlanMathError) as excinfo:
        pm.allocate(income=1_000, fixed=1_001, mode="balanced")
    assert excinfo.value.field == "fixed_expenses"


def test_an_unknown_mode_is_refused():
    with pytest.raises(pm.PlanMathError):
        pm.allocate(income=1_000, fixed=0, mode="lavish")


# Actuals


def test_actuals_count_fixed_categories_first_then_essential_then_discretionary():
    result = pm.bucket_actuals(
        expenses_by_category={"housing": 6_500_000, "groceries": 900_000, "dining": 300_000, "subscriptions": 200_000},
        fixed_categories=["housing", "subscriptions"],
        essential_categories=ESSENTIAL,
        discretionary_categories=DISCRETIONARY,
        goal_entries=1_000_000,
    )
    assert result == act(fixed=6_700_000, essential=900_000, discretionary=300_000, goal=1_000_000)


# Daily guide


@pytest.mark.parametrize(
    ("first", "safe", "today", "by_day", "expected"),
    [
        # First day of a 30-day month: 5,310,000 / 30.
        (NOV, 5_310_000, D(2026, 11, 1), {}, (30, 177_000, 0, 177_000)),
        # Last day: one day left; what was spent before it comes off; today's spend can go past the guide.
        (
            NOV,
            5_310_000,
            D(2026, 11, 30),
            {D(2026, 11, 3): 5_000_000, D(2026, 11, 30): 400_000},
            (1, 310_000, 400_000, -90_000),
        ),
        (FEB, 2_800_000, D(2026, 2, 1), {}, (28, 100_000, 0, 100_000)),
        (FEB_LEAP, 2_900_000, D(2028, 2, 1), {}, (29, 100_000, 0, 100_000)),
        (JAN, 3_100_000, D(2027, 1, 1), {}, (31, 100_000, 0, 100_000)),
        # Overspent before the last day: the guide floors at 0, never negative.
        (JAN, 3_100_000, D(2027, 1, 31), {D(2027, 1, 5): 3_200_000}, (1, 0, 0, 0)),
        # USD: $553.09 safe, $300.00 spent before Feb 15; 14 days left: 25,309 // 14 = 1,807 cents.
        (FEB, 55_309, D(2026, 2, 15), {D(2026, 2, 2): 30_000}, (14, 1_807, 0, 1_807)),
        # Before the month: the first day's guide; after it: nothing left.
        (NOV, 3_000_000, D(2026, 10, 20), {}, (30, 100_000, 0, 100_000)),
        (NOV, 3_000_000, D(2026, 12, 1), {D(2026, 11, 4): 10}, (0, 0, 0, 0)),
    ],
)
def test_daily_guide(first, safe, today, by_day, expected):
    guide = pm.daily_guide(safe=safe, first=first, today=today, discretionary_by_day=by_day)
    assert (guide.days_left, guide.guide, guide.spent_today, guide.left_today) == expected


@pytest.mark.parametrize(
    ("tz", "expected_days_left"),
    [
        ("Asia/Ho_Chi_Minh", 0),  # 2026-11-30 20:00 UTC is already 1 December in Saigon: the month is over
        ("Asia/Tokyo", 0),
        ("UTC", 1),
        ("America/Los_Angeles", 1),  # still 30 November, noon
        ("Pacific/Honolulu", 1),
    ],
)
def test_the_last_day_depends_on_the_users_timezone(tz, expected_days_left):
    now = dt.datetime(2026, 11, 30, 20, 0, tzinfo=dt.UTC)
    today = now.astimezone(zoneinfo.ZoneInfo(tz)).date()
    guide = pm.daily_guide(safe=3_000_000, first=NOV, today=today, discretionary_by_day={})
    assert guide.days_left == expected_days_left


def test_the_first_day_depends_on_the_users_timezone():
    now = dt.datetime(2026, 10, 31, 18, 0, tzinfo=dt.UTC)
    saigon = now.astimezone(zoneinfo.ZoneInfo("Asia/Ho_Chi_Minh")).date()
    new_york = now.astimezone(zoneinfo.ZoneInfo("America/New_York")).date()
    assert pm.daily_guide(safe=3_000_000, first=NOV, today=saigon, discretionary_by_day={}).days_left == 30
    assert new_york == D(2026, 10, 31)
    assert pm.elapsed_day(NOV, saigon) == 1
    assert pm.elapsed_day(NOV, new_york) == 0


# Warning


@pytest.mark.parametrize(
    ("today", "allocations", "actuals", "expected"),
    [
        (D(2026, 11, 10), alloc(safe=3_000_000, goal=1_500_000), act(discretionary=3_000_001, goal=0), "overspent"),
        # day 10 of 30: pace limit 1.10 * 3,000,000 * 10 / 30 = 1,100,000.
        (D(2026, 11, 10), alloc(safe=3_000_000), act(discretionary=1_100_000), "on_track"),
        (D(2026, 11, 10), alloc(safe=3_000_000), act(discretionary=1_100_001), "spend_pace"),
        # No pace warning on days 1 and 2.
        (D(2026, 11, 2), alloc(safe=3_000_000), act(discretionary=2_900_000), "on_track"),
        (D(2026, 11, 3), alloc(safe=3_000_000), act(discretionary=330_001), "spend_pace"),
        # goal drift from day 7: 0.80 * 1,500,000 * 10 / 30 = 400,000.
        (D(2026, 11, 10), alloc(safe=3_000_000, goal=1_500_000), act(goal=399_999), "goal_drift"),
        (D(2026, 11, 10), alloc(safe=3_000_000, goal=1_500_000), act(goal=400_000), "on_track"),
        (D(2026, 11, 6), alloc(safe=3_000_000, goal=1_500_000), act(goal=0), "on_track"),
        # February, day 28 (the last): 0.80 * 2,800,000 * 28/28 = 2,240,000.
        (D(2026, 2, 28), alloc(safe=1, goal=2_800_000), act(goal=2_239_999), "goal_drift"),
        # spend_pace wins over goal_drift.
        (D(2026, 11, 10), alloc(safe=3_000_000, goal=1_500_000), act(discretionary=2_000_000), "spend_pace"),
    ],
)
def test_warning_state(today, allocations, actuals, expected):
    first = pm.month_first(today)
    assert pm.warning_state(allocations=allocations, actuals=actuals, first=first, today=today) == expected


# Rebalance


def _recommend(today, allocations, actuals, by_day=None, **kw):
    return pm.recommend(
        allocations=allocations,
        actuals=actuals,
        first=pm.month_first(today),
        today=today,
        discretionary_by_day=by_day or {},
        **kw,
    )


def test_overspend_is_covered_from_goal_money_not_yet_contributed():
    allocations = alloc(fixed=7_000_000, essential=5_000_000, goal=1_500_000, safe=3_000_000)
    rec = _recommend(
        D(2026, 11, 20), allocations, act(discretionary=3_500_000, goal=1_200_000), {D(2026, 11, 5): 3_500_000}
    )
    assert (rec.kind, rec.amount, rec.warning_state) == ("cover_overspend", 300_000, "overspent")
    after = pm.apply_move(allocations, rec.kind, rec.amount)
    assert (after.goal, after.safe, after.total) == (1_200_000, 3_300_000, allocations.total)
    # 3,300,000 - 3,500,000 < 0 → the guide stays 0.
    assert rec.daily_guide == 0


def test_overspend_with_no_goal_money_left_tightens_spending():
    rec = _recommend(
        D(2026, 11, 20), alloc(goal=1_500_000, safe=3_000_000), act(discretionary=3_500_000, goal=1_500_000)
    )
    assert (rec.kind, rec.amount) == ("tighten_spending", 0)


def test_spend_pace_tightens_spending_and_carries_the_current_guide():
    by_day = {D(2026, 11, 2): 2_000_000}
    rec = _recommend(D(2026, 11, 10), alloc(safe=3_000_000), act(discretionary=2_000_000), by_day)
    # (3,000,000 - 2,000,000) / 21 days left = 47,619.
    assert (rec.kind, rec.amount, rec.daily_guide) == ("tighten_spending", 0, 47_619)


def test_boost_goal_when_on_track_and_well_under_pace_from_day_10():
    allocations = alloc(goal=1_500_000, safe=3_000_000)
    actuals = act(discretionary=1_000_000, goal=600_000)
    by_day = {D(2026, 11, 3): 1_000_000}
    rec = _recommend(D(2026, 11, 15), allocations, actuals, by_day)
    # floor((3,000,000 - 1,000,000 * 30 / 15) / 2) = 500,000; guide after = (2,500,000 - 1,000,000) / 16.
    assert (rec.kind, rec.amount, rec.daily_guide) == ("boost_goal", 500_000, 93_750)
    assert pm.apply_move(allocations, rec.kind, rec.amount) == alloc(goal=2_000_000, safe=2_500_000)
    assert _recommend(D(2026, 11, 9), allocations, act(discretionary=100_000, goal=600_000)) is None
    capped = _recommend(D(2026, 11, 15), allocations, actuals, by_day, goal_room=200_000)
    assert capped.amount == 200_000
    assert _recommend(D(2026, 11, 15), allocations, actuals, by_day, goal_room=0) is None


def test_boost_goal_rounds_down_in_usd_cents():
    # Feb (28 days), day 14: floor((55,309 - 10,000 * 28 / 14) / 2) = floor(35,309 / 2) = 17,654 cents.
    rec = _recommend(D(2026, 2, 14), alloc(goal=0, safe=55_309), act(discretionary=10_000))
    assert (rec.kind, rec.amount) == ("boost_goal", 17_654)


def test_no_recommendation_for_goal_drift_or_an_answered_state():
    assert _recommend(D(2026, 11, 10), alloc(safe=3_000_000, goal=1_500_000), act()) is None
    answered = _recommend(
        D(2026, 11, 20), alloc(safe=3_000_000), act(discretionary=3_500_000), answered_states=["overspent"]
    )
    assert answered is None


# Streak


def test_streak_counts_back_from_yesterday_and_stops_at_the_first_day_over_the_guide():
    # safe 3,000,000 over 30 days. Day 1 guide 100,000 (spent 100,000: ok); day 2 guide 100,000 (50,000: ok);
    # day 3 guide 2,850,000 / 28 = 101,785 (200,000: over); day 4 guide 2,650,000 / 27 = 98,148 (0: ok).
    by_day = {D(2026, 11, 1): 100_000, D(2026, 11, 2): 50_000, D(2026, 11, 3): 200_000}
    kw = {"safe": 3_000_000, "first": NOV, "discretionary_by_day": by_day}
    assert pm.streak(activated_on=D(2026, 11, 1), today=D(2026, 11, 5), **kw) == 1
    assert pm.streak(activated_on=D(2026, 11, 1), today=D(2026, 11, 3), **kw) == 2
    assert pm.streak(activated_on=D(2026, 11, 1), today=D(2026, 11, 1), **kw) == 0
    assert pm.streak(activated_on=D(2026, 11, 4), today=D(2026, 11, 5), **kw) == 1
    assert pm.streak(activated_on=D(2026, 10, 20), today=D(2026, 11, 3), **kw) == 2
    assert pm.streak(activated_on=None, today=D(2026, 11, 5), **kw) == 0


def test_streak_after_the_month_ends_is_the_final_streak():
    assert pm.streak(safe=3_100_000, first=JAN, activated_on=JAN, today=D(2027, 2, 3), discretionary_by_day={}) == 31


# Month end


@pytest.mark.parametrize(
    ("spent", "result", "kind", "amount"),
    [
        (3_000_001, "over_budget", "lower_spending", 1),
        (3_000_000, "on_budget", "keep_going", 0),
        (2_850_000, "on_budget", "keep_going", 0),  # exactly 0.95 * safe is not below it
        (2_849_999, "under_budget", "boost_goal", 150_001),
    ],
)
def test_month_end_result_and_suggestion(spent, result, kind, amount):
    summary = pm.month_end_summary(
        allocations=alloc(safe=3_000_000),
        actuals=act(discretionary=spent),
        first=NOV,
        activated_on=NOV,
        discretionary_by_day={D(2026, 11, 30): spent},
    )
    assert (summary.result, summary.suggestion_kind, summary.suggestion_amount) == (result, kind, amount)


def test_month_end_counts_days_on_track_and_the_final_streak():
    # 30 days at 100,000 a day; day 3 spends 200,000 (over its guide), day 30 spends 0.
    by_day = {D(2026, 11, d): 100_000 for d in range(1, 30)}
    by_day[D(2026, 11, 3)] = 200_000
    summary = pm.month_end_summary(
        allocations=alloc(safe=3_000_000, goal=1_000_000),
        actuals=act(discretionary=sum(by_day.values()), goal=800_000),
        first=NOV,
        activated_on=D(2026, 11, 2),
        discretionary_by_day=by_day,
    )
    # Tracked from day 2 (activation): day 2's guide is 2,900,000 / 29 = 100,000 (ok); day 3 spends 200,000
    # (over); after it the guide falls below 100,000 (2,600,000 / 27 = 96,296), so days 4..29 run over; day 30
    # has a guide of 0 and spends 0 (ok).
    assert summary.days_tracked == 29
    assert summary.days_on_track == 2
    assert summary.final_streak == 1


# Properties

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
