"""Plans use the recurring series: fixed expenses prefilled from the user's bills, and the warning's view of
the bills still due this month. The clock: 10 November 2026, noon in Saigon."""

import datetime as dt

import pytest

from suggestions.models import RecurringSeries

pytestmark = pytest.mark.django_db


def series(user, merchant, kind, amount, category, next_on, interval="monthly", status="active"):
    return RecurringSeries.objects.create(
        user=user, key=merchant.lower(), direction="expense", merchant=merchant, kind=kind, amount=amount,
        currency="VND", interval=interval, last_on=next_on - dt.timedelta(days=30), next_on=next_on,
        category=category, occurrences=3, status=status,
    )  # fmt: skip


@pytest.fixture
def bills(alice):
    series(alice, "Landlord", "bill", 6_500_000, "housing", dt.date(2026, 12, 1))
    series(alice, "EVN HCMC", "bill", 650_000, "utilities", dt.date(2026, 11, 20))
    series(alice, "Bao Viet insurance", "bill", 2_400_000, "insurance", dt.date(2027, 3, 1), interval="yearly")
    series(alice, "Netflix", "subscription", 260_000, "subscriptions", dt.date(2026, 11, 12))
    series(alice, "Old gym", "bill", 500_000, "personal_care", dt.date(2026, 9, 1), status="ended")


def test_the_suggested_fixed_expenses_are_the_active_bills_at_their_monthly_cost(clock, alice_api, bills, bob_api):
    body = alice_api.get("/api/v1/plans/fixed-expense-suggestions").json()
    assert body["fixed_expenses"] == [
        {"name": "EVN HCMC", "amount": "650000", "category": "utilities"},
        {"name": "Landlord", "amount": "6500000", "category": "housing"},
        {"name": "Bao Viet insurance", "amount": "200000", "category": "insurance"},
    ]
    assert bob_api.get("/api/v1/plans/fixed-expense-suggestions").json() == {"fixed_expenses": []}


def test_a_plan_created_with_the_flag_gets_the_bills_as_fixed_expenses(clock, alice_api, bills):
    body = {
        "month": "2026-11",
        "expected_income": "25tr",
        "fixed_expenses": [{"name": "Rent", "amount": "6,000,000", "category": "housing"}],
        "prefill_fixed_from_recurring": True,
    }
    plan = alice_api.post("/api/v1/plans", body, format="json").json()
    assert [(x["name"], x["amount"], x["category"]) for x in plan["fixed_expenses"]] == [
        ("Rent", "6000000", "housing"),  # the user's own line wins over the Landlord series
        ("EVN HCMC", "650000", "utilities"),
        ("Bao Viet insurance", "200000", "insurance"),
    ]
    assert plan["allocations"]["fixed"] == "6850000"
    without = alice_api.post(
        "/api/v1/plans", {**body, "month": "2026-12", "prefill_fixed_from_recurring": False}, format="json"
    )
    assert [x["name"] for x in without.json()["fixed_expenses"]] == ["Rent"]


def test_the_flag_must_be_a_boolean(clock, alice_api):
    response = alice_api.post(
        "/api/v1/plans", {"month": "2026-11", "expected_income": "25tr", "prefill_fixed_from_recurring": "maybe"},
        format="json",
    )  # fmt: skip
    assert response.status_code == 400
    assert "prefill_fixed_from_recurring" in response.json()["error"]["fields"]


def test_the_warning_lists_the_bills_still_due_this_month_and_whether_they_fit(clock, alice, alice_api, bills):
    from tests import factories

    plan = alice_api.post(
        "/api/v1/plans", {"month": "2026-11", "expected_income": "10tr", "prefill_fixed_from_recurring": True},
        format="json",
    ).json()  # fmt: skip
    warning = plan["warning"]
    # Still due from today (10 November) to the 30th: Netflix on the 12th, EVN on the 20th (a fixed line).
    assert [(b["name"], b["due_on"]) for b in warning["bills_due"]] == [
        ("Netflix", "2026-11-12"),
        ("EVN HCMC", "2026-11-20"),
    ]
    assert warning["bills_due_total"] == "910000" and warning["bills_short"] is False
    # Spend the safe-to-spend down below Netflix's price: the plan cannot absorb the subscription any more.
    safe = int(plan["allocations"]["safe_to_spend"])
    factories.txn(
        alice, category="shopping", description="Uniqlo", amount=safe - 100_000, occurred_on=dt.date(2026, 11, 9)
    )
    warning = alice_api.get(f"/api/v1/plans/{plan['id']}").json()["warning"]
    assert warning["bills_short"] is True


def test_the_plans_page_prefills_the_bills_and_shows_whats_due(clock, alice, client, bills):
    from tests.plans import factories as plan_factories

    client.force_login(alice)
    html = client.get("/plans").content.decode()
    assert 'value="EVN HCMC"' in html and 'value="650000"' in html
    plan_factories.plan(alice, active=True)
    html = client.get("/plans").content.decode()
    assert "Still due this month" in html and "Netflix" in html
