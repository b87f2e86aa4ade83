"""The home page: where the money stands, each panel linking to its page and into the chat."""

import datetime as dt
import json
import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from assets.selectors import net_worth
from tests import factories
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db


def months_back(day: dt.date, n: int) -> dt.date:
    index = day.year * 12 + day.month - 1 - n
    return dt.date(index // 12, index % 12 + 1, 15)


def test_home_needs_a_login(client):
    response = client.get("/")
    assert response.status_code == 302 and response["Location"] == "/accounts/login/"


def test_the_net_worth_trend_walks_back_from_the_balances_with_the_ledger(alice):
    today = user_today(alice)
    factories.asset(alice, balance="10000000")
    factories.asset(alice, name="USD cash", balance="50", currency="USD")
    factories.txn(alice, direction="income", category="salary", amount="3000000", occurred_on=today.replace(day=1))
    factories.txn(alice, amount="1000000", occurred_on=months_back(today, 1))
    factories.txn(alice, amount="999", occurred_on=months_back(today, 13))  # before the window: not read
    worth = net_worth(user=alice, currency="VND", today=today)
    assert worth.today == Decimal("10000000")
    values = [v for _m, v in worth.trend]
    assert len(values) == 12
    assert values[-1] == Decimal("10000000")  # this month: today
    assert values[-2] == Decimal("7000000")  # before this month's salary
    assert values[-3] == Decimal("8000000")  # before last month's spending
    assert values[0] == Decimal("8000000")
    assert worth.other_currencies == {"USD": Decimal("50.00")}


def test_home_shows_every_panel_with_its_links(alice_web, alice):
    today = user_today(alice)
    factories.asset(alice, balance="12500000")
    factories.txn(alice, description="Coffee", amount="45000", occurred_on=today)
    factories.txn(alice, description="Dinner", amount="300000", occurred_on=months_back(today, 1))
    factories.budget(alice, category="dining", amount="1000000")
    factories.goal(alice, name="Trip to Da Lat", target_amount="10000000", current_amount="2500000")
    html = alice_web.get("/").content.decode()
    for key in ["net-worth", "this-month", "safe-to-spend", "budgets", "goals", "insights", "bills"]:
        assert f'id="{key}"' in html
    assert "₫12,500,000" in html
    assert "Trip to Da Lat" in html and "On track" in html
    for link in ["/transactions", "/budgets", "/goals", "/plans", "/inbox", "/chat?prompt="]:
        assert f'href="{link}' in html
    # Each chart: a canvas, its JSON, and its table.
    spec = json.loads(
        re.search(r'<script id="net-worth-data" type="application/json">(.*?)</script>', html, re.S).group(1)
    )
    assert spec["type"] == "line" and len(spec["labels"]) == 12 and spec["datasets"][0]["data"][-1] == 12500000.0
    assert 'data-chart="spending-by-category-data"' in html
    assert html.count('<table class="data" aria-labelledby=') == 2


def test_home_reads_in_vietnamese(alice_web, alice):
    from zeus.services import profile_update

    profile_update(user=alice, language="vi")
    factories.asset(alice, balance="1250000")
    html = alice_web.get("/").content.decode()
    assert "1.250.000\xa0₫" in html and "Tài sản ròng" in html


def test_home_is_a_constant_number_of_queries(alice_web, alice):
    today = user_today(alice)

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert alice_web.get("/").status_code == 200
        return len(queries)

    factories.budget(alice, category="dining")
    factories.goal(alice, name="First")
    factories.asset(alice, balance="1")
    small = count()
    for i in range(60):
        factories.txn(alice, amount="1000", occurred_on=today - dt.timedelta(days=i * 7), category="dining")
    for category in ["groceries", "transport", "travel"]:
        factories.budget(alice, category=category)
    for i in range(4):
        factories.goal(alice, name=f"Goal {i}")
    factories.asset(alice, balance="5")
    assert count() == small
