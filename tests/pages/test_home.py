"""The home page: where the money stands, each panel linking to its page and into the chat."""

import datetime as dt
import json
import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from assets.services import transaction_delete, transaction_update
from assets.summary import net_worth
from tests import factories
from tests.plans import factories as plan_factories
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
    values = [end.worth for end in worth.trend]
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
    for key in ["net-worth", "this-month", "safe-to-spend", "forecast", "budgets", "goals", "insights", "bills"]:
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
    assert 'data-chart="forecast-data"' in html
    assert html.count('<table class="data" aria-labelledby=') == 3


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
    # The session, the user, the profile; this month's plan (none here, read once for the plan's panel and the
    # forecast); the accounts (read once for the net worth and the forecast); the unmirrored linked accounts'
    # balances and the ledger's months (one query); the budgets; the goals; the insights; the recurring series
    # (read once for the forecast and the bills); the navigation's unread count; and the forecast's own three
    # reads (plans/forecast_read.py: the cushion, open debts and their payments, the 90 days of spending).
    assert small == 14


def test_home_with_a_plan_is_a_constant_number_of_queries(alice_web, alice):
    today = user_today(alice)
    plan_factories.plan(alice, month=today.strftime("%Y-%m"), active=True)
    factories.asset(alice, balance="5000000")

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert alice_web.get("/").status_code == 200
        return len(queries)

    small = count()
    for i in range(60):
        factories.txn(alice, amount="1000", occurred_on=today - dt.timedelta(days=i * 7), category="dining")
    assert count() == small
    # As without a plan, but the plan's row carries the cushion and whether its user owes on an open debt
    # (plans.forecast_plan.forecast_facts) and its month comes from the ledger's query: the plan and its fixed
    # expenses replace the forecast's three reads of its own.
    assert small == 12


def test_the_plan_is_read_once_for_its_panel_and_the_forecast(alice_web, alice):
    today = user_today(alice)
    plan_factories.plan(alice, month=today.strftime("%Y-%m"), active=True)
    factories.asset(alice, balance="5000000")

    with CaptureQueriesContext(connection) as queries:
        response = alice_web.get("/")

    assert response.status_code == 200
    assert 'id="forecast"' in response.content.decode()
    plan_reads = [q["sql"] for q in queries.captured_queries if q["sql"].startswith('SELECT "plans_monthlyplan"')]
    assert len(plan_reads) == 1
    # The plan's month is read with the net worth's months, in the one ledger query (and its entries with it).
    ledger_reads = [q["sql"] for q in queries.captured_queries if '"assets_transaction"' in q["sql"]]
    assert len(ledger_reads) == 1
    assert not [q for q in queries.captured_queries if q["sql"].startswith('SELECT "plans_planentry"')]


def test_the_homes_plan_takes_its_month_from_the_ledger_summary_as_plan_ledger_reads_it(alice):
    """The plan's month is in the ledger summary the net worth reads (per day, through the month's last day): the
    home's plan ledger is plan_ledger's, rows dated later this month, other currencies and splits alike."""
    from django.test import RequestFactory

    from assets.ledger.corrections import transaction_split
    from plans.home import current_active_plan
    from plans.selectors import plan_get, plan_ledger
    from plans.services import plan_entry_create

    today = user_today(alice)
    first = today.replace(day=1)
    later = (first + dt.timedelta(days=32)).replace(day=1) - dt.timedelta(days=1)  # the month's last day
    made = plan_factories.plan(alice, month=today.strftime("%Y-%m"), active=True)
    plan_entry_create(user=alice, plan_id=made.id, kind="goal", amount="70000")
    factories.txn(alice, amount="120000", category="dining", occurred_on=first)
    factories.txn(alice, amount="80000", category="groceries", occurred_on=today)
    factories.txn(alice, amount="50000", category="shopping", occurred_on=later)  # later this month
    factories.txn(alice, amount="999000", category="dining", occurred_on=first - dt.timedelta(days=1))  # last month
    factories.txn(alice, amount="4", currency="USD", category="dining", occurred_on=today)
    factories.txn(alice, amount="3", currency="EUR", category="travel", occurred_on=first)  # no rate: named
    factories.rate(first - dt.timedelta(days=3), "25000")
    split = factories.txn(alice, amount="300000", category="other", occurred_on=today)
    transaction_split(
        user=alice,
        transaction_id=split.id,
        parts=[{"amount": "200000", "category": "groceries"}, {"amount": "100000", "category": "entertainment"}],
    )
    request = RequestFactory().get("/")
    request.user = alice

    home = current_active_plan(request, today).ledger

    expected = plan_ledger(plan_get(user=alice, plan_id=made.id))
    assert home == expected
    assert home.goal_entries == 70000 and home.rate_missing and home.converted
    assert expected.expenses_by_category["shopping"] == 50000 and expected.expenses_by_category["dining"] == 220000


def _home_html(client) -> str:
    """The page without its per-request CSRF token (masked afresh on every response)."""
    html = client.get("/").content.decode()
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)


def _trend(html: str) -> list[float]:
    spec = re.search(r'<script id="net-worth-data" type="application/json">(.*?)</script>', html, re.S).group(1)
    return json.loads(spec)["datasets"][0]["data"]


def test_an_old_edit_or_delete_shows_on_the_next_load(alice_web, alice):
    """Nothing on the home is cached: a row from 10 months ago (the oldest month whose rows move a month-end
    the 12-month trend shows) edited, then deleted, moves the trend on the very next request, and this month's
    figures follow a new row."""
    today = user_today(alice)
    factories.asset(alice, balance="10000000")
    old = factories.txn(alice, amount="1000000", category="travel", occurred_on=months_back(today, 10))
    factories.txn(alice, amount="200000", occurred_on=months_back(today, 3))
    before = _trend(_home_html(alice_web))
    assert before[0] == 11_200_000 and before[-1] == 10_000_000

    transaction_update(user=alice, transaction_id=old.id, amount="3000000")
    assert _trend(_home_html(alice_web))[0] == 13_200_000

    transaction_delete(user=alice, transaction_id=old.id)
    assert _trend(_home_html(alice_web))[0] == 10_200_000

    factories.txn(alice, amount="45000", description="Coffee", occurred_on=today)
    html = _home_html(alice_web)
    assert _trend(html)[-2] == 10_045_000 and "₫45,000" in html


def test_the_homes_insights_are_the_active_suggestions_the_other_pages_list(alice, bob):
    from suggestions.models import Suggestion
    from suggestions.selectors import home_insights, suggestion_list_active

    for owner in (alice, bob):
        for n in range(8):
            Suggestion.objects.create(
                user=owner, kind="category_spike", title=f"S{n}", body="", dedupe_key=f"k{n}",
                status="dismissed" if n % 4 == 0 else "active",
            )  # fmt: skip
    assert home_insights(user=alice, limit=5) == suggestion_list_active(user=alice, limit=5)


def test_the_bills_are_the_forecasts_series_due_within_a_month_that_go_out(alice_web, alice, bob):
    """The bills panel reads the series the forecast reads (one read for both): those recurring_list names as
    due within 30 days, less income and transfers between one's own accounts, soonest first, five at most."""
    from suggestions.models import RecurringSeries
    from suggestions.recurring.selectors import recurring_list

    today = user_today(alice)
    kinds = ["bill", "income", "subscription", "transfer", "bill", "bill", "subscription", "bill", "bill"]
    offsets = [0, 5, 30, 3, 31, -1, 12, 20, 25]
    for owner in (alice, bob):
        for n, (kind, offset) in enumerate(zip(kinds, offsets, strict=True)):
            RecurringSeries.objects.create(
                user=owner, key=f"m{n}", direction="income" if kind == "income" else "expense",
                merchant=f"Merchant {n}", kind=kind, amount=1000 + n, currency="VND", interval="monthly",
                last_on=today - dt.timedelta(days=30), next_on=today + dt.timedelta(days=offset),
                category="utilities", occurrences=3, status="ended" if n == 8 else "active",
            )  # fmt: skip
    html = alice_web.get("/").content.decode()
    bills = html[html.index('id="bills-title"') :]
    shown = re.findall(r"Merchant \d", bills)
    due = recurring_list(user=alice, due_within_days=30, today=today)
    assert shown == [s.merchant for s in due if s.kind not in ("income", "transfer")][:5]
    assert shown == ["Merchant 0", "Merchant 6", "Merchant 7", "Merchant 2"]


def test_net_worth_and_this_month_show_what_they_converted_with_the_rate_and_name_what_has_none(alice_web, alice):
    today = user_today(alice)
    factories.rate(today - dt.timedelta(days=1), "25000")
    factories.rate(today.replace(day=1) - dt.timedelta(days=40), "24000")  # an older rate, for older rows
    factories.asset(alice, balance="10000000")
    factories.asset(alice, name="USD cash", balance="100", currency="USD")
    factories.asset(alice, name="Euro cash", balance="30", currency="EUR")  # no EUR rate at all
    factories.txn(alice, amount="2", currency="USD", occurred_on=today.replace(day=1) - dt.timedelta(days=20))
    worth = net_worth(user=alice, currency="VND", today=today)
    assert worth.today == Decimal("12500000")  # 100 $ at today's latest rate, the euros never at 1:1
    assert worth.other_currencies == {"EUR": Decimal("30.00")}
    assert worth.converted == [
        {"currency": "USD", "amount": Decimal("100.00"), "to_currency": "VND", "converted": Decimal("2500000"),
         "rate": Decimal("25000"), "rate_date": today - dt.timedelta(days=1)}
    ]  # fmt: skip
    html = alice_web.get("/").content.decode()
    assert "$100.00 = ₫2,500,000 at 25,000 VND/USD" in html
    assert "Rate missing: €30.00 not counted" in html


def test_a_budgets_row_on_the_home_shows_what_it_converted_and_names_what_has_no_rate(alice_web, alice):
    """The home's budgets read the page's own month of money that counts (assets LedgerSummary.this_month): a
    VND budget's dollar rows are converted at their day's rate, shown with it, and euros with no rate named,
    exactly as on /budgets."""
    today = user_today(alice)
    first = today.replace(day=1)
    factories.rate(first - dt.timedelta(days=3), "26000")
    factories.budget(alice, category="dining", amount="2000000", currency="VND")
    factories.txn(alice, amount="500000", category="dining", occurred_on=first)
    factories.txn(alice, amount="12.50", currency="USD", category="dining", occurred_on=first)
    factories.txn(alice, amount="30", currency="EUR", category="dining", occurred_on=first)
    factories.txn(alice, amount="9", currency="USD", category="dining", occurred_on=first - dt.timedelta(days=1))
    home = alice_web.get("/").content.decode()
    budgets = home[home.index('id="budgets-title"') : home.index("All budgets")]
    assert "₫825,000 of ₫2,000,000" in budgets  # 500,000 ₫ + 12.50 $ at 26,000; last month's 9 $ not this month
    assert "$12.50 = ₫325,000 at 26,000 VND/USD" in budgets
    assert "Rate missing: €30.00 not counted" in budgets
    page = alice_web.get("/budgets").content.decode()
    assert "₫825,000 of ₫2,000,000" in page and "$12.50 = ₫325,000 at 26,000 VND/USD" in page
