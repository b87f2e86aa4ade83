"""Look-alikes of a duplicate charge, planted beside an ordinary quarter: habits, bills, refunds and family
transfers are never "a duplicate, ask for a refund"; true duplicates on one date still are."""

import datetime as dt

from suggestions.insights.duplicates import Row, candidate_clusters
from suggestions.insights.job import insights_generate
from suggestions.merchants import counterparty
from suggestions.models import Suggestion
from tests import factories
from tests.suggestions.factories import NOW, day, steady_life


def duplicates(user) -> list[Suggestion]:
    insights_generate(user_ids=[user.id], now=NOW)
    return list(Suggestion.objects.filter(user=user, kind="duplicate_charge").order_by("id"))


def test_a_daily_lunch_at_the_same_price_is_a_habit(alice):
    steady_life(alice)
    for n in range(1, 7):
        factories.txn(alice, category="dining", description="Com Tam Ba Ghien", amount=55_000, occurred_on=day(n))
    assert duplicates(alice) == []


def test_a_short_daily_habit_of_three_days_is_not_chained_into_a_duplicate(alice):
    steady_life(alice)
    for n in (3, 4, 5):
        factories.txn(alice, category="transport", description="Be Bike", amount=32_000, occurred_on=day(n))
    assert duplicates(alice) == []


def test_a_fare_both_ways_every_day_is_a_habit_not_a_double_charge(alice):
    steady_life(alice)
    for n in range(1, 11):
        for _ in range(2):
            factories.txn(alice, category="transport", description="Metro Line 1", amount=20_000, occurred_on=day(n))
    assert duplicates(alice) == []


def test_a_weekly_class_at_the_same_price_is_a_habit(alice):
    steady_life(alice)
    for week in range(10):
        factories.txn(alice, category="education", description="Yoga Studio", amount=150_000, occurred_on=day(7 * week))
    assert duplicates(alice) == []


def test_a_twice_monthly_bill_is_not_a_duplicate(alice):
    steady_life(alice)
    for month in (9, 10, 11):
        for paid in (1, 16):
            factories.txn(
                alice,
                category="debt_payment",
                description="FE Credit",
                amount=1_250_000,
                occurred_on=dt.date(2026, month, paid),
            )
    # Month end and the next month's first day are adjacent dates: the series explains them.
    factories.txn(
        alice, category="debt_payment", description="FE Credit", amount=1_250_000, occurred_on=dt.date(2026, 11, 30)
    )
    factories.txn(
        alice, category="debt_payment", description="FE Credit", amount=1_250_000, occurred_on=dt.date(2026, 12, 1)
    )
    assert duplicates(alice) == []


def test_a_purchase_and_its_refund_on_adjacent_dates_are_not_a_duplicate(alice):
    steady_life(alice)
    factories.txn(alice, category="shopping", description="Tiki", amount=329_000, occurred_on=day(4))
    factories.txn(
        alice, direction="income", category="other_income", description="Hoàn tiền Tiki", amount=329_000,
        occurred_on=day(3),
    )  # fmt: skip
    assert duplicates(alice) == []


def test_two_family_members_equal_transfers_on_one_day_are_two_people(alice):
    steady_life(alice)
    for phone in ("0901234567", "0987654321"):
        factories.txn(
            alice, direction="income", category="other_income", description=f"CK {phone}", amount=2_000_000,
            occurred_on=day(2),
        )  # fmt: skip
    for name in ("Chuyển tiền cho Mẹ", "Chuyển tiền cho Bố"):
        factories.txn(alice, category="gifts", description=name, amount=1_000_000, occurred_on=day(5))
    assert duplicates(alice) == []


def test_the_same_transfer_sent_twice_on_one_day_is_a_duplicate(alice):
    steady_life(alice)
    for _ in range(2):
        factories.txn(alice, category="gifts", description="CK 0901234567", amount=1_500_000, occurred_on=day(2))
    (dup,) = duplicates(alice)
    assert dup.payload["amount"] == "1500000"


def test_true_duplicates_on_one_date_are_reported_once_with_every_charge(alice):
    steady_life(alice)
    charges = [
        factories.txn(alice, category="shopping", description="UNIQLO VINCOM #12", amount=799_000, occurred_on=day(6))
        for _ in range(3)
    ]
    (dup,) = duplicates(alice)
    assert dup.payload["transaction_ids"] == [t.id for t in charges]
    assert dup.payload["dates"] == [day(6).isoformat()]
    assert dup.body.startswith("3 charges of")


def test_a_double_charge_of_a_subscription_on_its_day_is_still_a_duplicate(alice):
    steady_life(alice)
    for paid_on in (dt.date(2026, 9, 12), dt.date(2026, 10, 12), dt.date(2026, 11, 12), dt.date(2026, 11, 12)):
        factories.txn(alice, category="subscriptions", description="Netflix", amount=260_000, occurred_on=paid_on)
    (dup,) = duplicates(alice)
    assert dup.payload["dates"] == ["2026-11-12"]


def _row(i, on, description="Grab", amount=45_000):
    return Row(i, 1, "expense", "VND", amount, description, on)


def test_clusters_are_one_date_or_an_isolated_pair_of_adjacent_dates():
    d = dt.date(2026, 11, 2)
    one = dt.timedelta(days=1)
    rows = [_row(1, d), _row(2, d + one), _row(3, d + 5 * one), _row(4, d + 6 * one), _row(5, d + 7 * one)]
    assert [[r.id for r in c.rows] for c in candidate_clusters(rows)] == [[1, 2]]


def test_a_bare_transfer_keeps_the_account_it_names():
    assert counterparty("CK 0901234567") == "ck 0901234567"
    assert counterparty("CGV CINEMAS #0231") == "cgv cinemas"
    assert counterparty("Chuyen tien cho Me") == "chuyen tien cho me"
