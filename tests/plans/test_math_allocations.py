"""Table tests of the plan arithmetic with hand-computed figures: income split into fixed, essential, goal and
safe-to-spend money by mode, and the month's spending counted into the same parts."""

from decimal import Decimal

import pytest

from plans import math as pm
from tests.plans.math_cases import DISCRETIONARY, ESSENTIAL, act, alloc
from zeus.money import from_minor, to_minor


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


def test_actuals_count_fixed_categories_first_then_essential_then_discretionary():
    result = pm.bucket_actuals(
        expenses_by_category={"housing": 6_500_000, "groceries": 900_000, "dining": 300_000, "subscriptions": 200_000},
        fixed_categories=["housing", "subscriptions"],
        essential_categories=ESSENTIAL,
        discretionary_categories=DISCRETIONARY,
        goal_entries=1_000_000,
    )
    assert result == act(fixed=6_700_000, essential=900_000, discretionary=300_000, goal=1_000_000)
