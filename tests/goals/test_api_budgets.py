import datetime as dt

import pytest

from goals.models import Budget
from tests import factories
from tests.assets.helpers import assert_error
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db


def _last_month(day: dt.date) -> dt.date:
    return day.replace(day=1) - dt.timedelta(days=1)


def test_it_creates_a_budget_with_this_months_spending(alice_api, alice):
    today = user_today(alice)
    factories.txn(alice, amount="300000", category="dining", occurred_on=today)
    factories.txn(alice, amount="999999", category="dining", occurred_on=_last_month(today))
    response = alice_api.post("/api/v1/budgets", {"category": "dining", "amount": "2tr"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body == {
        "id": body["id"],
        "category": "dining",
        "amount": "2000000",
        "currency": "VND",
        "spent": "300000",
        "remaining": "1700000",
        "converted": [],
        "rate_missing": [],
    }


def test_it_lists_budgets_with_spending_and_overspending(alice_api, alice, bob):
    today = user_today(alice)
    dining = factories.budget(alice, category="dining", amount="1000000")
    groceries = factories.budget(alice, category="groceries", amount="500000")
    factories.budget(bob, category="dining")
    factories.txn(alice, amount="1200000", category="dining", occurred_on=today)
    factories.txn(alice, amount="7", category="dining", currency="USD", occurred_on=today)
    factories.txn(bob, amount="400000", category="groceries", occurred_on=today)
    body = alice_api.get("/api/v1/budgets").json()
    rows = {b["id"]: b for b in body["results"]}
    assert list(rows) == [groceries.id, dining.id]
    assert (rows[dining.id]["spent"], rows[dining.id]["remaining"]) == ("1200000", "-200000")
    # The dollars have no rate: named on the dining budget, never counted at 1:1, and on no other budget.
    assert rows[dining.id]["rate_missing"] == [{"currency": "USD", "amount": "7.00"}]
    assert rows[groceries.id]["rate_missing"] == [] and rows[dining.id]["converted"] == []
    assert (rows[groceries.id]["spent"], rows[groceries.id]["remaining"]) == ("0", "500000")


def test_spending_follows_the_users_month_not_the_servers(alice_api, alice):
    today = user_today(alice)
    factories.budget(alice, category="dining", amount="1000000")
    factories.txn(alice, amount="100000", category="dining", occurred_on=today.replace(day=1))
    factories.txn(alice, amount="200000", category="dining", occurred_on=_last_month(today))
    assert alice_api.get("/api/v1/budgets").json()["results"][0]["spent"] == "100000"


def test_the_budget_list_does_one_aggregate_not_one_per_budget(alice_api, alice, django_assert_max_num_queries):
    for category in ("dining", "groceries", "transport", "shopping", "travel", "gifts"):
        factories.budget(alice, category=category)
        factories.txn(alice, category=category, occurred_on=user_today(alice))
    with django_assert_max_num_queries(4):
        assert len(alice_api.get("/api/v1/budgets").json()["results"]) == 6


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"category": "salary", "amount": "1tr"}, "category"),
        ({"category": "casino", "amount": "1tr"}, "category"),
        ({"amount": "1tr"}, "category"),
        ({"category": "dining"}, "amount"),
        ({"category": "dining", "amount": "0"}, "amount"),
        ({"category": "dining", "amount": "a lot"}, "amount"),
        ({"category": "dining", "amount": "1tr", "currency": "XXX"}, "currency"),
    ],
)
def test_it_refuses_a_bad_budget(alice_api, body, field):
    error = assert_error(alice_api.post("/api/v1/budgets", body, format="json"), 400)
    assert field in error["fields"]
    assert not Budget.objects.exists()


def test_a_second_budget_for_a_category_is_a_conflict(alice_api, alice):
    factories.budget(alice, category="dining")
    assert_error(alice_api.post("/api/v1/budgets", {"category": "dining", "amount": "1tr"}, format="json"), 409)
    assert Budget.objects.count() == 1


def test_it_updates_and_deletes_a_budget(alice_api, alice):
    budget = factories.budget(alice, category="dining", amount="1000000")
    factories.budget(alice, category="travel")
    response = alice_api.patch(f"/api/v1/budgets/{budget.id}", {"amount": "1.5tr"}, format="json")
    assert response.status_code == 200
    assert response.json()["amount"] == "1500000"
    assert_error(alice_api.patch(f"/api/v1/budgets/{budget.id}", {"category": "travel"}, format="json"), 409)
    assert_error(alice_api.patch(f"/api/v1/budgets/{budget.id}", {"amount": "-1"}, format="json"), 400)
    budget.refresh_from_db()
    assert (budget.category, budget.amount) == ("dining", 1500000)
    assert alice_api.delete(f"/api/v1/budgets/{budget.id}").status_code == 204
    assert not Budget.objects.filter(id=budget.id).exists()


@pytest.mark.parametrize("method", ["patch", "delete"])
def test_it_answers_404_for_another_users_budget(alice_api, bob, method):
    budget = factories.budget(bob, amount="1000000")
    response = getattr(alice_api, method)(f"/api/v1/budgets/{budget.id}", {"amount": "1"}, format="json")
    assert_error(response, 404, "NOT_FOUND")
    assert Budget.objects.get(id=budget.id).amount == 1000000


def test_a_budgets_spending_in_another_currency_is_converted_at_its_days_rate_and_shown_with_it(alice_api, alice):
    today = user_today(alice)
    first = today.replace(day=1)
    factories.budget(alice, category="dining", amount="1000000")
    factories.rate(first - dt.timedelta(days=3), "25000")  # the latest on or before the row's day
    factories.rate(today + dt.timedelta(days=1), "99999")  # after it: never used
    factories.txn(alice, amount="10", category="dining", currency="USD", occurred_on=first)
    factories.txn(alice, amount="5", category="dining", currency="EUR", occurred_on=first)  # no EUR rate
    (row,) = alice_api.get("/api/v1/budgets").json()["results"]
    assert (row["spent"], row["remaining"]) == ("250000", "750000")
    assert row["converted"] == [
        {
            "currency": "USD",
            "amount": "10.00",
            "to_currency": "VND",
            "converted": "250000",
            "rate": "25000",
            "rate_date": (first - dt.timedelta(days=3)).isoformat(),
        }
    ]
    assert row["rate_missing"] == [{"currency": "EUR", "amount": "5.00"}]
