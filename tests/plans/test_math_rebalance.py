"""Table tests of the plan arithmetic with hand-computed figures: what a rebalance recommends for each state."""

from plans import math as pm
from tests.plans.math_cases import D, act, alloc


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
