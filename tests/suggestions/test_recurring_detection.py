"""The detection algorithm, pure: charges in, series out."""

import datetime as dt
from decimal import Decimal

import pytest

from suggestions.recurring.detection import Charge, add_months, detect, detect_group, monthly_cost, yearly_cost

_ids = iter(range(1, 100_000))


def charge(on, amount, description="Netflix", category="subscriptions", direction="expense", user=1):
    return Charge(next(_ids), user, direction, "VND", Decimal(amount), description, category, on)


def monthly(day, months, amount, **kw):
    start = dt.date(2026, 1, day)
    return [charge(add_months(start, k), amount, **kw) for k in range(months)]


def test_three_monthly_charges_are_a_series_with_the_next_date():
    (s,) = detect(monthly(12, 3, 260_000))
    assert (s.interval, s.kind, s.amount, s.occurrences) == ("monthly", "subscription", Decimal(260_000), 3)
    assert (s.last_on, s.next_on) == (dt.date(2026, 3, 12), dt.date(2026, 4, 12))


def test_two_charges_are_not_enough():
    assert detect(monthly(12, 2, 260_000)) == []


def test_a_few_days_slack_is_allowed_for_weekends():
    dates = [dt.date(2026, 8, 1), dt.date(2026, 9, 3), dt.date(2026, 10, 1), dt.date(2026, 11, 2)]
    (s,) = detect([charge(d, 6_500_000, "Landlord", "housing") for d in dates])
    assert (s.interval, s.kind, s.occurrences) == ("monthly", "bill", 4)


def test_a_28_day_cycle_drifts_through_the_month_and_is_not_monthly():
    start = dt.date(2026, 8, 10)
    assert detect([charge(start + dt.timedelta(days=28 * k), 95_000, "Pho 24", "dining") for k in range(4)]) == []


def test_weekly_and_yearly_series():
    weekly = [
        charge(dt.date(2026, 11, 2) + dt.timedelta(days=7 * k), 150_000, "Yoga Studio", "education") for k in range(5)
    ]
    yearly = [charge(dt.date(2024 + k, 3, 15), 1_490_000, "Microsoft 365") for k in range(3)]
    found = {s.merchant: s for s in detect(weekly + yearly)}
    assert found["Yoga Studio"].interval == "weekly"
    assert found["Yoga Studio"].next_on == dt.date(2026, 12, 7)
    assert found["Microsoft 365"].interval == "yearly"
    assert found["Microsoft 365"].next_on == dt.date(2027, 3, 15)


def test_a_daily_habit_at_the_same_price_is_not_a_weekly_series():
    daily = [charge(dt.date(2026, 11, 1) + dt.timedelta(days=k), 55_000, "Com Tam", "dining") for k in range(30)]
    assert detect(daily) == []


def test_amounts_outside_the_tolerance_are_not_one_series():
    rides = [
        charge(dt.date(2026, 9, 1) + dt.timedelta(days=7 * k), 60_000 + 3_000 * k, "Grab", "transport")
        for k in range(8)
    ]
    assert detect(rides) == []


def test_a_utility_bill_may_vary_with_the_meter():
    bills = [
        charge(add_months(dt.date(2026, 6, 20), k), a, "EVN HCMC", "utilities")
        for k, a in enumerate([610_000, 720_000, 805_000, 690_000])
    ]
    (s,) = detect(bills)
    assert s.kind == "bill" and s.interval == "monthly"


def test_a_price_rise_on_time_is_the_same_series_at_the_new_price():
    charges = [*monthly(12, 4, 260000), charge(dt.date(2026, 5, 12), 300000)]
    (s,) = detect(charges)
    assert (s.amount, s.previous_amount, s.rose, s.last_on, s.occurrences) == (
        Decimal(300_000),
        Decimal(260_000),
        True,
        dt.date(2026, 5, 12),
        5,
    )


def test_a_shop_visited_between_the_charges_is_spending_not_a_series():
    charges = monthly(5, 4, 577_000, description="WinMart", category="groceries")
    charges += [charge(dt.date(2026, 1, 19), 412_000, "WinMart", "groceries")]
    charges += [charge(dt.date(2026, 2, 19), 388_000, "WinMart", "groceries")]
    assert detect(charges) == []


def test_a_price_that_held_only_twice_is_not_a_price_step():
    charges = [*monthly(20, 2, 190_000, description="Lotte Cinema", category="entertainment")]
    charges.append(charge(dt.date(2026, 3, 20), 210_000, "Lotte Cinema", "entertainment"))
    assert detect(charges) == []


def test_salary_is_income_and_references_do_not_split_the_merchant():
    pay = [
        charge(add_months(dt.date(2026, 7, 5), k), 25_000_000, f"ACME Corp SAL{k}202{k}", "salary", "income")
        for k in range(3)
    ]
    (s,) = detect(pay)
    assert (s.kind, s.key) == ("income", "acme corp")


def test_a_month_end_bill_comes_back_at_the_month_end():
    dates = [dt.date(2026, 10, 31), dt.date(2026, 11, 30), dt.date(2026, 12, 31)]
    s = detect_group([charge(d, 300_000, "Viettel", "utilities") for d in dates])
    assert s.next_on == dt.date(2027, 1, 31)


def test_each_user_is_apart():
    both = monthly(12, 2, 260_000, user=1) + monthly(12, 2, 260_000, user=2)
    assert detect(both) == []


@pytest.mark.parametrize(
    ("amount", "interval", "month", "year"),
    [(100, "weekly", "433.333333", "5200"), (120, "monthly", "120", "1440"), (1200, "yearly", "100", "1200")],
)
def test_monthly_and_yearly_costs(amount, interval, month, year):
    assert round(monthly_cost(Decimal(amount), interval), 6) == Decimal(month)
    assert yearly_cost(Decimal(amount), interval) == Decimal(year)
