"""list_recurring: the user's series with their monthly and yearly cost, and the `recurring` card."""

import datetime as dt

import pytest

from suggestions.models import RecurringSeries
from tests.chat.tools.helpers import call
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db(transaction=True)


def series(user, merchant, kind, amount, interval, days_ahead, status="active", direction="expense", category=None):
    today = user_today(user)
    return RecurringSeries.objects.create(
        user=user, key=merchant.lower(), direction=direction, merchant=merchant, kind=kind, amount=amount,
        currency="VND", interval=interval, last_on=today - dt.timedelta(days=20),
        next_on=today + dt.timedelta(days=days_ahead), category=category or "subscriptions", occurrences=3,
        status=status,
    )  # fmt: skip


@pytest.fixture
def life(alice):
    series(alice, "Netflix", "subscription", 260_000, "monthly", 3)
    series(alice, "Yoga Studio", "subscription", 150_000, "weekly", 1, category="education")
    series(alice, "Microsoft 365", "subscription", 1_200_000, "yearly", 40)
    series(alice, "Landlord", "bill", 6_500_000, "monthly", 10, category="housing")
    series(alice, "ACME Corp", "income", 25_000_000, "monthly", 12, direction="income", category="salary")
    series(alice, "Old gym", "subscription", 500_000, "monthly", -60, status="ended")


def test_it_lists_active_series_with_their_monthly_and_yearly_cost(alice_ctx, life):
    result = call(alice_ctx, "list_recurring")
    assert not result.is_error
    by_name = {s["merchant"]: s for s in result.output["series"]}
    assert set(by_name) == {"Netflix", "Yoga Studio", "Microsoft 365", "Landlord", "ACME Corp"}
    assert (by_name["Yoga Studio"]["monthly_cost"], by_name["Yoga Studio"]["yearly_cost"]) == ("650000", "7800000")
    assert (by_name["Microsoft 365"]["monthly_cost"], by_name["Microsoft 365"]["yearly_cost"]) == ("100000", "1200000")
    # What goes out (income apart): 260,000 + 650,000 + 100,000 + 6,500,000 a month.
    assert result.output["totals"] == [{"currency": "VND", "monthly_cost": "7510000", "yearly_cost": "90120000"}]


def test_kind_and_due_within_days_filter(alice_ctx, life):
    subs = call(alice_ctx, "list_recurring", {"kind": "subscription"}).output["series"]
    assert [s["merchant"] for s in subs] == ["Yoga Studio", "Netflix", "Microsoft 365"]
    week = call(alice_ctx, "list_recurring", {"due_within_days": 7})
    assert [s["merchant"] for s in week.output["series"]] == ["Yoga Studio", "Netflix"]
    assert week.card["title"] == "Due in the next 7 days"
    ended = call(alice_ctx, "list_recurring", {"status": "ended"}).output["series"]
    assert [s["merchant"] for s in ended] == ["Old gym"]


def test_the_card_lists_what_is_due_and_what_it_costs(alice_ctx, life):
    card = call(alice_ctx, "list_recurring", {"kind": "subscription"}).card
    assert card["kind"] == "recurring" and card["version"] == 1
    assert card["title"] == "Your subscriptions"
    first = card["items"][0]
    assert set(first) == {
        "id", "merchant", "kind", "interval", "amount", "currency", "next_on", "status", "monthly_cost", "yearly_cost",
        "interval_label", "kind_label",
    }  # fmt: skip
    assert first["kind_label"] == "Subscription" and first["interval_label"] == first["interval"].capitalize()
    assert card["totals"] == [{"currency": "VND", "monthly_cost": "1010000", "yearly_cost": "12120000"}]


def test_bad_input_is_an_error_result(alice_ctx):
    for bad in ({"status": "paused"}, {"kind": "loan"}, {"due_within_days": -1}, {"due_within_days": "soon"}):
        assert call(alice_ctx, "list_recurring", bad).is_error


def test_it_sees_only_the_users_own_series(bob_ctx, life):
    assert call(bob_ctx, "list_recurring").output["series"] == []
