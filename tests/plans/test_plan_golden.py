"""A rich plan's answer, byte for byte, as the code gave it before the plan reads were made cheaper: fixed lines
out of id order, a primary goal, an answered rebalance, spending in three currencies (one converted at its
day's rate, one no rate converts), a paired transfer, an excluded row, a split row, entries of both kinds,
recurring bills still due in and out of the plan's currency, and a dismissed warning. test_plan_detail.py
compares the view with the separate reads, which share the view's code; these files catch a change in that
code itself. `ZEUS_WRITE_GOLDEN=1` writes them again: only when the answer is meant to change."""

import datetime as dt
from pathlib import Path

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from assets.ledger.corrections import transaction_split
from assets.ledger.transfers import transfer_create
from assets.models import Transaction
from plans.models import FixedExpense, Rebalance
from plans.services import plan_dismiss_warning, plan_entry_create
from suggestions.models import RecurringSeries
from tests import factories
from tests.golden import check_golden
from tests.plans.factories import plan

GOLDEN = Path(__file__).parent / "golden"
NOW = dt.datetime(2026, 11, 10, 5, 0, tzinfo=dt.UTC)  # noon in Saigon

pytestmark = pytest.mark.django_db(transaction=True, reset_sequences=True)


def _series(user, merchant, kind, amount, category, next_on, currency="VND", status="active"):
    return RecurringSeries.objects.create(
        user=user, key=merchant.lower(), direction="expense", merchant=merchant, kind=kind, amount=amount,
        currency=currency, interval="monthly", last_on=next_on - dt.timedelta(days=30), next_on=next_on,
        category=category, occurrences=3, status=status,
    )  # fmt: skip


@pytest.fixture
def rich(monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: NOW)
    alice, bob = factories.user("alice"), factories.user("bob")
    goal = factories.goal(alice, target_amount="50000000", current_amount="1000000")
    made = plan(alice, month="2026-11", active=True, primary_goal_id=goal.id)
    FixedExpense.objects.filter(plan=made, name="Rent").update(position=5)
    Rebalance.objects.create(
        plan=made, kind="tighten_spending", warning_state="on_track", amount=1, before={}, after={}
    )
    for day, category, amount in [
        (1, "dining", "120000"),
        (2, "entertainment", "2750000"),
        (3, "groceries", "450000"),
        (3, "dining", "80000"),
        (7, "health", "333333"),
        (9, "housing", "6500000"),
        (10, "transport", "60000"),
        (10, "dining", "1500000"),
    ]:
        factories.txn(alice, occurred_on=dt.date(2026, 11, day), category=category, amount=amount)
    factories.rate(dt.date(2026, 11, 4), "26123.45")
    factories.txn(alice, occurred_on=dt.date(2026, 11, 4), category="dining", amount="9.99", currency="USD")
    factories.txn(alice, occurred_on=dt.date(2026, 11, 6), category="shopping", amount="12.50", currency="EUR")
    bank, momo = factories.asset(alice, name="Bank", kind="bank"), factories.asset(alice, name="MoMo")
    out = factories.txn(alice, asset=bank, amount="3000000", occurred_on=dt.date(2026, 11, 8), category="other")
    into = factories.txn(alice, asset=momo, amount="3000000", direction="income", occurred_on=dt.date(2026, 11, 8))
    transfer_create(user=alice, out_id=out.id, in_id=into.id)
    left_out = factories.txn(alice, occurred_on=dt.date(2026, 11, 5), category="dining", amount="999000")
    Transaction.objects.filter(id=left_out.id).update(excluded=True)
    split = factories.txn(alice, occurred_on=dt.date(2026, 11, 6), category="dining", amount="300000")
    transaction_split(
        user=alice,
        transaction_id=split.id,
        parts=[{"amount": "200000", "category": "groceries"}, {"amount": "100000", "category": "shopping"}],
    )
    factories.txn(alice, occurred_on=dt.date(2026, 10, 31), category="dining", amount="700000")
    factories.txn(alice, occurred_on=dt.date(2026, 11, 5), direction="income", category="salary", amount="25000000")
    factories.txn(bob, occurred_on=dt.date(2026, 11, 5), category="dining", amount="300000")
    plan_entry_create(user=alice, plan_id=made.id, kind="discretionary", amount="50000")
    plan_entry_create(user=alice, plan_id=made.id, kind="goal", amount="200000")
    _series(alice, "EVN HCMC", "bill", 650_000, "utilities", dt.date(2026, 11, 20))
    _series(alice, "Netflix", "subscription", 260_000, "subscriptions", dt.date(2026, 11, 12))
    _series(alice, "Landlord", "bill", 6_500_000, "housing", dt.date(2026, 11, 30))
    _series(alice, "Clinic", "bill", 1_200_000, "health", dt.date(2026, 11, 18))
    _series(alice, "Water", "bill", 90_000, "utilities", dt.date(2026, 11, 9))  # before today
    _series(alice, "iCloud", "subscription", 2.99, "subscriptions", dt.date(2026, 11, 15), currency="USD")
    _series(alice, "Old gym", "bill", 500_000, "personal_care", dt.date(2026, 11, 25), status="ended")
    plan_dismiss_warning(user=alice, plan_id=made.id)
    plan(alice, month="2026-12")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {factories.api_key(alice)}")
    return client, made.id


def _check(name: str, response) -> None:
    check_golden(GOLDEN, name, response)


def test_a_rich_plan_and_the_plan_list_answer_byte_for_byte_what_they_did(rich):
    client, plan_id = rich
    _check("plan_rich", client.get(f"/api/v1/plans/{plan_id}"))
    _check("plans_rich", client.get("/api/v1/plans"))
