"""The issue's acceptance test: after one nightly run the demo user sees exactly the planted duplicate and
spike, and nothing false. Runs once the demo seed (another branch) is merged."""

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

pytest.importorskip("demo.seed")

from suggestions.insights.job import insights_generate
from suggestions.models import Suggestion
from zeus.models import Notification


@pytest.fixture
def demo(db):
    call_command("seed_demo")
    return get_user_model().objects.get(username="demo")


def test_the_demo_user_sees_exactly_the_planted_insights(demo):
    insights_generate(user_ids=[demo.id])
    found = Suggestion.objects.filter(user=demo, kind__in=["category_spike", "duplicate_charge", "budget_threshold"])

    duplicates = [s for s in found if s.kind == "duplicate_charge"]
    spikes = [s for s in found if s.kind == "category_spike"]
    assert len(duplicates) == 1, [s.title for s in found]
    assert "CGV Cinemas" in duplicates[0].title
    assert duplicates[0].payload["amount"] == "240000"
    assert len(spikes) == 1, [s.title for s in found]
    assert spikes[0].payload["category"] == "shopping"
    assert Decimal(6_750_000) <= Decimal(spikes[0].payload["last_7_days"]) <= Decimal(8_250_000)
    assert not [s for s in found if s.kind == "budget_threshold"]
    keys = [duplicates[0].dedupe_key, spikes[0].dedupe_key]
    assert Notification.objects.filter(user=demo, kind="insight", dedupe_key__in=keys).count() == 2

    assert insights_generate(user_ids=[demo.id]) == 0


def test_the_demo_user_has_their_subscriptions_bills_and_pay_and_nothing_else(demo):
    from suggestions.models import RecurringSeries

    found = {(s.merchant, s.kind) for s in RecurringSeries.objects.filter(user=demo, status="active")}
    assert {(m, k) for m, k in found if k == "subscription"} == {
        ("Netflix", "subscription"),
        ("Spotify", "subscription"),
    }
    bills = {m for m, k in found if k == "bill"}
    assert bills == {"Tiền nhà", "Tiền điện EVN", "Tiền nước Sawaco", "Viettel cước di động"}
    assert [k for m, k in found if m.startswith("Lương")] == ["income"]
    # The monthly savings deposit, both of its sides: a recurring transfer, never a subscription.
    assert {m for m, k in found if k == "transfer"} == {"Gửi tiết kiệm Techcombank", "Tiền gửi tiết kiệm hằng tháng"}
    assert len(found) == 9
