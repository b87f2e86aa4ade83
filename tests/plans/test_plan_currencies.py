"""A plan's month in several currencies (CONTRACT §8.4): each expense in another currency converted at the rate
of its own day and shown with it; what no rate converts named, left out of the actuals, never taken at 1:1."""

import datetime as dt

import pytest

from tests import factories
from tests.plans.factories import plan
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db


def test_the_plans_actuals_convert_each_row_at_its_days_rate_and_name_what_has_none(alice_api, alice, client):
    today = user_today(alice)
    first = today.replace(day=1)
    made = plan(alice, month=f"{today:%Y-%m}", fixed=(), active=True)
    factories.rate(first - dt.timedelta(days=5), "25000")
    factories.txn(alice, amount="300000", category="dining", occurred_on=first)
    factories.txn(alice, amount="2", currency="USD", category="dining", occurred_on=first)
    factories.txn(alice, amount="3", currency="EUR", category="dining", occurred_on=first)  # no EUR rate
    factories.txn(alice, amount="9", currency="USD", category="dining", occurred_on=first - dt.timedelta(days=1))
    body = alice_api.get(f"/api/v1/plans/{made.id}").json()
    assert body["actuals"]["discretionary"] == "350000"  # 300,000 + 2 $ at 25,000; last month's 9 $ not in it
    assert body["converted"] == [
        {"currency": "USD", "amount": "2.00", "to_currency": "VND", "converted": "50000", "rate": "25000",
         "rate_date": (first - dt.timedelta(days=5)).isoformat()}
    ]  # fmt: skip
    assert body["rate_missing"] == [{"currency": "EUR", "amount": "3.00"}]
    client.force_login(alice)
    html = client.get("/plans").content.decode()
    assert "$2.00 = ₫50,000 at 25,000 VND/USD" in html and "Rate missing: €3.00 not counted" in html


def test_a_plan_in_one_currency_names_no_conversion(alice_api, alice):
    today = user_today(alice)
    made = plan(alice, month=f"{today:%Y-%m}", fixed=(), active=True)
    factories.txn(alice, amount="300000", category="dining", occurred_on=today.replace(day=1))
    body = alice_api.get(f"/api/v1/plans/{made.id}").json()
    assert (body["converted"], body["rate_missing"]) == ([], [])
