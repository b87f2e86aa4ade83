"""The demo user's kind of ledger (docs/demo-data.md: salary, rent, a subscription, groceries twice a week,
dining most days, rides, small shopping most weeks, budgets under 80 %) with only the planted duplicate and
spike: whatever the random amounts, exactly those two insights land. Independent of the real seed."""

import datetime as dt
import random

import pytest

from suggestions.insights.job import insights_generate
from suggestions.models import Suggestion
from tests import factories

DINING = ["Pho 24", "Highlands Coffee", "Com Tam Ba Ghien", "Banh Mi Huynh Hoa", "KFC", "Pizza 4P's", "Bun Cha 34"]
GROCERIES = ["Co.op Mart", "Bach Hoa Xanh", "WinMart"]
SHOPPING = ["Shopee", "Lazada", "Tiki", "Uniqlo"]


def demo_ledger(user, today: dt.date, rng: random.Random) -> None:
    start = today - dt.timedelta(days=120)
    for budget, amount in (("dining", 5_000_000), ("groceries", 6_000_000), ("transport", 2_500_000)):
        factories.budget(user, category=budget, amount=amount)
    week_plan = {}
    day = start
    while day <= today:
        monday = day - dt.timedelta(days=day.weekday())
        if monday not in week_plan:
            week_plan[monday] = {
                "groceries": set(rng.sample(range(7), 2)),
                "dining": set(rng.sample(range(7), rng.choice([5, 6]))),
                "grab": set(rng.sample(range(7), rng.choice([3, 4]))),
                "shopping": {rng.randrange(7)} if rng.random() < 0.8 else set(),
            }
        plan, wd = week_plan[monday], day.weekday()

        def spend(category, description, low, high, on=day):
            amount = rng.randint(low // 1000, high // 1000) * 1000
            factories.txn(user, category=category, description=description, amount=amount, occurred_on=on)

        if day.day == 5:
            factories.txn(user, direction="income", category="salary", description="ACME Corp", amount=25_000_000,
                          occurred_on=day)  # fmt: skip
        if day.day == 1:
            factories.txn(user, category="housing", description="Rent", amount=6_500_000, occurred_on=day)
        if day.day == 12:
            factories.txn(user, category="subscriptions", description="Netflix", amount=260_000, occurred_on=day)
        if wd in plan["groceries"]:
            spend("groceries", rng.choice(GROCERIES), 250_000, 650_000)
        if wd in plan["dining"]:
            spend("dining", rng.choice(DINING), 35_000, 180_000)
        if wd in plan["grab"]:
            spend("transport", "Grab", 30_000, 120_000)
        if wd in plan["shopping"] and day < today - dt.timedelta(days=6):
            spend("shopping", rng.choice(SHOPPING), 100_000, 400_000)
        day += dt.timedelta(days=1)
    for _ in range(2):
        factories.txn(user, category="entertainment", description="CGV Cinemas", amount=240_000,
                      occurred_on=today - dt.timedelta(days=2))  # fmt: skip
    for amount, days_ago in ((4_200_000, 1), (3_300_000, 4)):
        factories.txn(user, category="shopping", description="Uniqlo", amount=amount,
                      occurred_on=today - dt.timedelta(days=days_ago))  # fmt: skip


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("today", [dt.date(2026, 11, 29), dt.date(2026, 12, 3), dt.date(2026, 12, 16)])
def test_a_demo_shaped_ledger_yields_exactly_the_planted_insights(alice, seed, today):
    demo_ledger(alice, today, random.Random(seed))
    insights_generate(user_ids=[alice.id], now=dt.datetime.combine(today, dt.time(5), tzinfo=dt.UTC))
    found = sorted((s.kind, s.title) for s in Suggestion.objects.filter(user=alice))
    assert found == [
        ("category_spike", "Unusual shopping spending this week"),
        ("duplicate_charge", "Possible duplicate charge at CGV Cinemas"),
    ]
