"""A plan's spending entry is a row of the ledger: /transactions, budgets, the plan's actuals and the review see
one row, counted once. A goal contribution stays the plan's own entry."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.models import Transaction
from goals.services import budget_create
from plans.models import PlanEntry
from suggestions.digest.job import weekly_digest_send
from suggestions.models import WeeklyDigest
from tests import factories
from tests.plans import factories as plan_factories


@pytest.fixture
def alice_web(client, alice):
    client.force_login(alice)
    return client


def _entry(api, plan_id, **body):
    return api.post(f"/api/v1/plans/{plan_id}/entries", body, format="json")


def test_a_spending_entry_is_a_manual_expense_on_the_default_account_today(clock, alice, alice_api):
    factories.asset(alice, name="Bank", kind="bank_account")
    wallet = factories.asset(alice, name="Wallet", kind="cash")
    factories.asset(alice, name="Old wallet", kind="cash", archived_at=clock.now)
    factories.asset(alice, name="Dollars", kind="cash", currency="USD")
    plan = plan_factories.plan(alice, active=True)
    clock.set("2026-11-10T18:30:00+00:00")  # already the 11th in Saigon
    response = _entry(alice_api, plan.id, kind="discretionary", amount="85k", note="  Phở   bò ")
    assert response.status_code == 201
    (row,) = Transaction.objects.filter(user=alice)
    assert (row.amount, row.currency, row.direction, row.category, row.source) == (
        Decimal("85000"), "VND", "expense", "other", "manual",
    )  # fmt: skip
    assert (row.occurred_on, row.asset_id, row.description) == (dt.date(2026, 11, 11), wallet.id, "Phở bò")
    assert not PlanEntry.objects.exists()
    # Counted once: the plan's discretionary actual and today's spend are the row, not the row and an entry.
    shown = response.json()
    assert shown["actuals"]["discretionary"] == "85000"
    assert shown["daily_guide"]["spent_today"] == "85000"
    listed = alice_api.get("/api/v1/transactions").json()["results"]
    assert [(t["id"], t["amount"], t["asset"]) for t in listed] == [(row.id, "85000", wallet.id)]


def test_the_chosen_category_and_account_are_kept_and_count_where_they_belong(clock, alice, alice_api):
    factories.asset(alice, name="Wallet", kind="cash")
    card = factories.asset(alice, name="Card", kind="credit_card")
    plan = plan_factories.plan(alice, active=True)
    budget_create(user=alice, category="dining", amount="3000000")
    _entry(alice_api, plan.id, kind="discretionary", amount="250000", category="dining", asset_id=card.id)
    response = _entry(alice_api, plan.id, kind="discretionary", amount="400000", category="groceries")
    assert response.status_code == 201
    assert response.json()["actuals"] == {
        "fixed": "0", "essential": "400000", "discretionary": "250000", "goal": "0"
    }  # fmt: skip
    dining = Transaction.objects.get(user=alice, category="dining")
    assert dining.asset_id == card.id
    (budget,) = alice_api.get("/api/v1/budgets").json()["results"]
    assert budget["spent"] == "250000"


def test_the_weekly_review_counts_the_entry_once(clock, alice, alice_api):
    plan = plan_factories.plan(alice, active=True)
    clock.set("2026-11-24T05:00:00+00:00")
    _entry(alice_api, plan.id, kind="discretionary", amount="120000", category="dining")
    factories.txn(alice, amount="30000", category="dining", occurred_on=dt.date(2026, 11, 25))
    weekly_digest_send(now=dt.datetime(2026, 11, 29, 2, 0, tzinfo=dt.UTC))
    payload = WeeklyDigest.objects.get(user=alice, iso_week="2026-W48").payload
    assert payload["spent"] == "150000"
    assert payload["top_categories"] == [{"category": "dining", "spent": "150000"}]


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"kind": "discretionary", "amount": "1000", "category": "salary"}, "category", "VALIDATION_ERROR"),
        ({"kind": "discretionary", "amount": "1000", "category": "c:999999"}, "category", "VALIDATION_ERROR"),
        ({"kind": "discretionary", "amount": "1000", "asset_id": "OTHER"}, "asset_id", "INVALID_ACCOUNT"),
        ({"kind": "discretionary", "amount": "1000", "asset_id": "USD"}, "asset_id", "INVALID_ACCOUNT"),
        ({"kind": "discretionary", "amount": "1000", "asset_id": "HOUSE"}, "asset_id", "INVALID_ACCOUNT"),
        ({"kind": "goal", "amount": "1000", "category": "dining"}, "category", "VALIDATION_ERROR"),
        ({"kind": "goal", "amount": "1000", "asset_id": "HOUSE"}, "asset_id", "VALIDATION_ERROR"),
        ({"kind": "discretionary", "amount": "0"}, "amount", "INVALID_AMOUNT"),
    ],
)
def test_a_bad_entry_is_a_400_naming_its_field_and_writes_nothing(clock, alice, bob, alice_api, body, field, code):
    accounts = {
        "OTHER": factories.asset(bob, name="Bob's wallet").id,
        "USD": factories.asset(alice, name="Dollars", currency="USD").id,
        "HOUSE": factories.asset(alice, name="House", kind="property").id,
    }
    if "asset_id" in body:
        body = {**body, "asset_id": accounts[body["asset_id"]]}
    plan = plan_factories.plan(alice, active=True)
    response = _entry(alice_api, plan.id, **body)
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == code and field in error["fields"]
    assert not Transaction.objects.exists() and not PlanEntry.objects.exists()


def test_a_goal_contribution_stays_the_plans_entry_and_is_no_spending(clock, alice, alice_api):
    goal = factories.goal(alice, target_amount="10000000")
    plan = plan_factories.plan(alice, active=True, primary_goal_id=goal.id)
    response = _entry(alice_api, plan.id, kind="goal", amount="500000", note="payday")
    assert response.json()["actuals"]["goal"] == "500000"
    assert response.json()["actuals"]["discretionary"] == "0"
    assert not Transaction.objects.exists()
    assert PlanEntry.objects.get(plan=plan).amount == Decimal("500000")


def test_an_entry_logged_on_the_page_shows_on_the_transactions_page(clock, alice, alice_web):
    wallet = factories.asset(alice, name="Ví tiền", kind="cash")
    plan = plan_factories.plan(alice, active=True)
    page = alice_web.get("/plans").content.decode()
    assert f'<option value="{wallet.id}" selected>Ví tiền</option>' in page
    response = alice_web.post(
        f"/plans/{plan.id}/entries",
        {"kind": "discretionary", "amount": "65k", "category": "dining", "asset": str(wallet.id), "note": "Bún chả"},
    )
    assert response.status_code == 302
    row = Transaction.objects.get(user=alice)
    assert (row.amount, row.category, row.asset_id, row.occurred_on) == (
        Decimal("65000"), "dining", wallet.id, dt.date(2026, 11, 10),
    )  # fmt: skip
    assert "Bún chả" in alice_web.get("/transactions").content.decode()
    # A goal contribution from the same form ignores the spending fields it was sent.
    alice_web.post(
        f"/plans/{plan.id}/entries", {"kind": "goal", "amount": "1tr", "category": "dining", "asset": str(wallet.id)}
    )
    assert Transaction.objects.filter(user=alice).count() == 1
    assert PlanEntry.objects.get(plan=plan).amount == Decimal("1000000")


def test_an_account_that_is_not_offered_is_a_form_error(clock, alice, bob, alice_web):
    factories.asset(alice, name="Wallet", kind="cash")
    theirs = factories.asset(bob, name="Bob's", kind="cash")
    plan = plan_factories.plan(alice, active=True)
    response = alice_web.post(
        f"/plans/{plan.id}/entries", {"kind": "discretionary", "amount": "65k", "asset": str(theirs.id)}
    )
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not Transaction.objects.exists()


def test_a_retried_spending_entry_is_one_row(clock, alice, alice_api):
    plan = plan_factories.plan(alice, active=True)
    for _ in range(3):
        response = alice_api.post(
            f"/api/v1/plans/{plan.id}/entries",
            {"kind": "discretionary", "amount": "45000"},
            format="json",
            HTTP_IDEMPOTENCY_KEY="lunch-1",
        )
        assert response.status_code == 201
    assert Transaction.objects.filter(user=alice).count() == 1
    assert response.json()["actuals"]["discretionary"] == "45000"
