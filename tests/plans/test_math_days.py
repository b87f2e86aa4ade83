"""Table tests of the plan arithmetic with hand-computed figures: the daily guide, the warning state, the streak
and the month's end, in the user's timezone."""

import datetime as dt
import zoneinfo

import pytest

from plans import math as pm
from tests.plans.math_cases import FEB, FEB_LEAP, JAN, NOV, D, act, alloc


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
