"""The plan view reads its plan, fixed expenses, month and bills (plans.selectors.plan_detail) in a fixed number
of queries: what it answers is, byte for byte, what the separate reads (plan_get, plan_ledger, bills_still_due)
give. The clock: 10 November 2026, noon in Saigon."""

import datetime as dt
import json
from decimal import Decimal

import pytest
from rest_framework.renderers import JSONRenderer

from plans import math as pm
from plans.models import FixedExpense, Rebalance
from plans.presenters import plan_to_dict
from plans.recurring import bills_by_plan, bills_still_due
from plans.selectors import (
    answered_states,
    plan_detail,
    plan_details,
    plan_get,
    plan_ledger,
    plan_ledgers,
    plan_list,
    plan_state,
)
from plans.services import plan_entry_create
from suggestions.models import RecurringSeries
from tests import factories
from tests.plans.factories import plan
from zeus.errors import NotFound
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db


def _series(user, merchant, kind, amount, category, next_on, currency="VND", status="active"):
    return RecurringSeries.objects.create(
        user=user, key=merchant.lower(), direction="expense", merchant=merchant, kind=kind, amount=amount,
        currency=currency, interval="monthly", last_on=next_on - dt.timedelta(days=30), next_on=next_on,
        category=category, occurrences=3, status=status,
    )  # fmt: skip


@pytest.fixture
def busy_plan(alice, bob):
    goal = factories.goal(alice, target_amount="50000000", current_amount="1000000")
    made = plan(alice, active=True, primary_goal_id=goal.id)
    # Positions against the ids' order: the lines come back in FixedExpense's ordering.
    FixedExpense.objects.filter(plan=made, name="Rent").update(position=5)
    Rebalance.objects.create(
        plan=made, kind="tighten_spending", warning_state="spend_pace", amount=1, before={}, after={}
    )
    for day, category, amount in [
        (1, "dining", "120000"),
        (3, "groceries", "450000"),
        (3, "dining", "80000"),
        (9, "housing", "6500000"),
        (10, "transport", "60000"),
        (10, "dining", "1500000"),
    ]:
        factories.txn(alice, occurred_on=dt.date(2026, 11, day), category=category, amount=amount)
    factories.txn(alice, occurred_on=dt.date(2026, 11, 4), category="dining", amount="9.99", currency="USD")
    factories.txn(alice, occurred_on=dt.date(2026, 10, 31), category="dining", amount="700000")
    factories.txn(alice, occurred_on=dt.date(2026, 12, 1), category="dining", amount="700000")
    factories.txn(alice, occurred_on=dt.date(2026, 11, 5), direction="income", category="salary", amount="25000000")
    factories.txn(bob, occurred_on=dt.date(2026, 11, 5), category="dining", amount="300000")
    plan_entry_create(user=alice, plan_id=made.id, kind="discretionary", amount="50000")
    plan_entry_create(user=alice, plan_id=made.id, kind="goal", amount="200000")
    _series(alice, "EVN HCMC", "bill", 650_000, "utilities", dt.date(2026, 11, 20))
    _series(alice, "Netflix", "subscription", 260_000, "subscriptions", dt.date(2026, 11, 12))
    _series(alice, "Spotify", "subscription", 59_000, "subscriptions", dt.date(2026, 11, 12))
    _series(alice, "Landlord", "bill", 6_500_000, "housing", dt.date(2026, 11, 30))
    _series(alice, "Water", "bill", 90_000, "utilities", dt.date(2026, 11, 9))  # before today
    _series(alice, "Insurance", "bill", 2_400_000, "insurance", dt.date(2026, 12, 1))  # next month
    _series(alice, "iCloud", "subscription", 2.99, "subscriptions", dt.date(2026, 11, 15), currency="USD")
    _series(alice, "Old gym", "bill", 500_000, "personal_care", dt.date(2026, 11, 25), status="ended")
    _series(bob, "Bob's rent", "bill", 5_000_000, "housing", dt.date(2026, 11, 25))
    return made


def _separately(user, plan_id) -> bytes:
    """The plan view's body from the separate reads."""
    today = user_today(user)
    found = plan_get(user=user, plan_id=plan_id)
    bills = bills_still_due(user=user, currency=found.currency, today=today, month_last=pm.month_last(found.month))
    return JSONRenderer().render(plan_to_dict(plan_state(found, today=today), bills=bills))


def test_the_plan_view_answers_what_the_separate_reads_give(clock, alice, alice_api, busy_plan):
    body = alice_api.get(f"/api/v1/plans/{busy_plan.id}").content
    assert body == _separately(alice, busy_plan.id)
    shown = alice_api.get(f"/api/v1/plans/{busy_plan.id}").json()
    assert [line["name"] for line in shown["fixed_expenses"]] == ["Utilities", "Rent"]
    assert [bill["name"] for bill in shown["warning"]["bills_due"]] == ["Netflix", "Spotify", "EVN HCMC", "Landlord"]
    assert shown["actuals"]["discretionary"] == "1750000"  # the dining and the entry; not USD, not bob


def test_after_the_month_no_bill_is_still_due(clock, alice, alice_api, busy_plan):
    clock.set("2026-12-02T05:00:00+00:00")
    body = alice_api.get(f"/api/v1/plans/{busy_plan.id}").content
    assert body == _separately(alice, busy_plan.id)
    assert alice_api.get(f"/api/v1/plans/{busy_plan.id}").json()["warning"]["bills_due"] == []


# The plan (with its goal entries' total); its fixed expenses; its month's expenses per category and day; the
# rates (busy_plan has a USD row: one read however many); its bills still due.
PLAN_READS = 5


def test_plan_detail_is_plan_get_plan_ledger_and_bills_still_due(
    clock, alice, bob, busy_plan, django_assert_num_queries
):
    today = user_today(alice)
    with django_assert_num_queries(PLAN_READS):
        got = plan_detail(user=alice, plan_id=busy_plan.id, today=today)
        lines = list(got.plan.fixed_expenses.all())
        plan_to_dict(plan_state(got.plan, today=today, ledger=got.ledger), bills=got.bills)  # reads nothing more
    want = plan_get(user=alice, plan_id=busy_plan.id)
    assert answered_states(got.plan) == answered_states(want) == ["spend_pace"]
    assert [(x.id, x.name, x.amount, x.position) for x in lines] == [
        (x.id, x.name, x.amount, x.position) for x in want.fixed_expenses.all()
    ]
    assert got.ledger == plan_ledger(want)
    assert got.bills == bills_still_due(user=alice, currency="VND", today=today, month_last=dt.date(2026, 11, 30))
    with pytest.raises(NotFound):
        plan_detail(user=bob, plan_id=busy_plan.id, today=today)
    with pytest.raises(NotFound):
        plan_detail(user=alice, plan_id="x", today=today)


@pytest.mark.parametrize("months", [0, 3])
def test_a_page_of_plans_costs_the_same_queries_however_many(
    clock, alice, busy_plan, months, django_assert_num_queries
):
    for month in range(months):
        plan(alice, month=f"2027-{month + 1:02d}", fixed=())
    today = user_today(alice)
    # the plans with their goals, answered states and entries' totals; their fixed expenses; their months (two);
    # their bills
    with django_assert_num_queries(PLAN_READS):
        details = plan_details(user=alice, plans=list(plan_list(user=alice).order_by("-month", "-id")), today=today)
        for got in details:  # what the list shows reads nothing more
            plan_to_dict(plan_state(got.plan, today=today, ledger=got.ledger), bills=got.bills)
    assert len(details) == months + 1 and details[-1].plan.month == dt.date(2026, 11, 1)


def test_each_plan_of_a_page_sums_its_own_month_alone(clock, alice):
    # A page of monthly plans is one read over all their months, parted by month: each plan's ledger is the one
    # it reads alone, its month's rows, conversions and rows with no rate, none of its neighbours'.
    for month in ("2026-09", "2026-10", "2026-11"):
        clock.set(f"{month}-10T05:00:00+00:00")
        plan(alice, month=month, fixed=())
    factories.rate(dt.date(2026, 10, 1), "25000")
    for day, category, amount, currency in [
        (dt.date(2026, 9, 2), "dining", "3", "USD"),  # before any rate: left out, named
        (dt.date(2026, 9, 30), "dining", "100000", "VND"),
        (dt.date(2026, 10, 1), "groceries", "200000", "VND"),
        (dt.date(2026, 10, 15), "dining", "2", "USD"),
        (dt.date(2026, 10, 31), "dining", "300000", "VND"),
        (dt.date(2026, 11, 1), "dining", "400000", "VND"),
        (dt.date(2026, 12, 1), "dining", "500000", "VND"),  # after every plan's month
    ]:
        factories.txn(alice, occurred_on=day, category=category, amount=amount, currency=currency)
    plans = list(plan_list(user=alice).order_by("month"))
    ledgers = plan_ledgers(plans)
    assert ledgers == {p.id: plan_ledger(p) for p in plans}
    september, october, november = (ledgers[p.id] for p in plans)
    assert september.expenses_by_category == {"dining": 100_000}
    assert september.rate_missing == [{"currency": "USD", "amount": Decimal("3.00")}] and not september.converted
    assert october.expenses_by_category == {"groceries": 200_000, "dining": 350_000}
    assert october.discretionary_by_day == {dt.date(2026, 10, 15): 50_000, dt.date(2026, 10, 31): 300_000}
    assert [c["amount"] for c in october.converted] == [Decimal("2.00")] and not october.rate_missing
    assert november.expenses_by_category == {"dining": 400_000}
    assert not november.converted and not november.rate_missing


def test_the_plan_lists_first_page_answers_what_the_separate_reads_give(clock, alice, alice_api, busy_plan):
    plan(alice, month="2026-12", fixed=())
    plan(alice, month="2027-01")
    for query in ("", "?page_size=2"):
        body = alice_api.get(f"/api/v1/plans{query}").content
        shown = json.loads(body)
        today = user_today(alice)
        plans = [plan_get(user=alice, plan_id=p["id"]) for p in shown["results"]]
        ledgers = plan_ledgers(plans)
        bills = bills_by_plan(user=alice, plans=plans, today=today)
        results = [plan_to_dict(plan_state(p, today=today, ledger=ledgers[p.id]), bills=bills[p.id]) for p in plans]
        assert body == JSONRenderer().render({**shown, "results": results})
    assert [p["month"] for p in shown["results"]] == ["2027-01", "2026-12"]


def test_a_plan_with_no_lines_entries_or_bills(clock, alice, alice_api):
    made = plan(alice, fixed=())
    assert alice_api.get(f"/api/v1/plans/{made.id}").content == _separately(alice, made.id)


def test_the_goal_actual_counts_each_entry_once_whatever_the_rebalances(clock, alice, alice_api, busy_plan):
    # The plan read sums the entries over a join; the rebalances it also reads must not multiply that sum.
    Rebalance.objects.create(
        plan=busy_plan, kind="boost_goal", warning_state="goal_drift", amount=1, before={}, after={}
    )
    plan_entry_create(user=alice, plan_id=busy_plan.id, kind="goal", amount="300000")
    assert alice_api.get(f"/api/v1/plans/{busy_plan.id}").json()["actuals"]["goal"] == "500000"
    assert [p["actuals"]["goal"] for p in alice_api.get("/api/v1/plans").json()["results"]] == ["500000"]
    assert sorted(answered_states(plan_get(user=alice, plan_id=busy_plan.id))) == ["goal_drift", "spend_pace"]
