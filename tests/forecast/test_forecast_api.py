import datetime as dt
from decimal import Decimal

import pytest

from goals.debts.services import debt_create
from plans.forecast_jobs import shortfall_watch_run
from plans.forecast_models import ForecastWatch
from suggestions.models import RecurringSeries
from tests import factories
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db


def series(user, *, merchant, kind, direction, amount, next_on, interval="monthly", category="housing", currency="VND"):
    return RecurringSeries.objects.create(
        user=user,
        key=merchant.lower(),
        direction=direction,
        merchant=merchant,
        kind=kind,
        amount=Decimal(amount),
        currency=currency,
        interval=interval,
        last_on=next_on - dt.timedelta(days=30),
        next_on=next_on,
        category=category,
        occurrences=3,
    )


def test_no_accounts_is_an_honest_empty_state(alice_api):
    body = alice_api.get("/api/v1/forecast").json()
    assert body["accounts"] == 0 and body["days"] == [] and body["lowest"] is None and body["shortfall"] is False


def test_the_forecast_runs_to_the_day_after_payday(alice_api, alice):
    today = user_today(alice)
    factories.asset(alice, kind="bank_account", balance="5000000")
    factories.asset(alice, kind="property", balance="900000000")  # not spendable
    series(
        alice, merchant="Rent", kind="bill", direction="expense", amount="4500000", next_on=today + dt.timedelta(days=2)
    )
    series(
        alice,
        merchant="ACME salary",
        kind="income",
        direction="income",
        amount="15000000",
        next_on=today + dt.timedelta(days=4),
        category="salary",
    )
    debt_create(
        user=alice, direction="i_owe", counterparty="Lan", principal="400000", due_on=today + dt.timedelta(days=3)
    )
    body = alice_api.get("/api/v1/forecast").json()
    assert body["start_balance"] == "5000000"
    assert len(body["days"]) == 6  # today and 5 days: through the day after the salary
    balances = [day["balance"] for day in body["days"]]
    # No spending history: 0 a day. 5,000,000 → rent → 500,000 → Lan 400,000 → 100,000 → salary → 15,100,000.
    assert balances == ["5000000", "5000000", "500000", "100000", "15100000", "15100000"]
    assert body["lowest"] == {"date": (today + dt.timedelta(days=3)).isoformat(), "balance": "100000"}
    assert {e["label"] for e in body["days"][3]["events"]} == {"Lan"}


def test_a_bill_and_a_debt_in_another_currency_are_left_out_and_named(alice_api, alice):
    today = user_today(alice)
    factories.asset(alice, kind="bank_account", balance="5000000")
    soon = today + dt.timedelta(days=2)
    netflix = {"merchant": "Netflix", "kind": "subscription", "direction": "expense", "amount": "12"}
    series(alice, **netflix, next_on=soon, currency="USD")
    debt_create(user=alice, direction="i_owe", counterparty="Tom", principal="50", currency="EUR", due_on=soon)
    body = alice_api.get("/api/v1/forecast").json()
    assert {day["balance"] for day in body["days"]} == {"5000000"}  # neither taken at 1:1 into đồng
    assert body["other_currencies"] == ["EUR", "USD"]


def test_typical_spending_is_the_median_of_the_last_90_days(alice_api, alice):
    today = user_today(alice)
    factories.asset(alice, kind="cash", balance="1000000")
    for back in range(1, 61):  # 60 of 90 days at 30,000: the median day spends 30,000
        factories.txn(alice, amount="30000", occurred_on=today - dt.timedelta(days=back))
    body = alice_api.get("/api/v1/forecast?days=3").json()
    assert [day["balance"] for day in body["days"]] == ["1000000", "970000", "940000", "910000"]


@pytest.mark.parametrize("days", ["0", "91", "abc", "-1"])
def test_a_bad_days_is_a_400(alice_api, days):
    assert alice_api.get(f"/api/v1/forecast?days={days}").status_code == 400


def short_of_rent(user) -> dt.datetime:
    """100,000 in the bank and 4,500,000 of rent in five days; returns noon of the user's today."""
    today = user_today(user)
    factories.asset(user, kind="bank_account", balance="100000")
    series(
        user, merchant="Rent", kind="bill", direction="expense", amount="4500000", next_on=today + dt.timedelta(days=5)
    )
    return dt.datetime.combine(today, dt.time(12, 0), tzinfo=user.profile.tz)


def test_one_shortfall_notice_per_episode(alice):
    noon = short_of_rent(alice)
    span = (alice.id, alice.id)
    assert shortfall_watch_run(now=noon, user_id_range=span) == 1
    assert shortfall_watch_run(now=noon, user_id_range=span) == 0  # the same day
    assert shortfall_watch_run(now=noon + dt.timedelta(days=1), user_id_range=span) == 0  # the same episode
    assert alice.notifications.filter(kind="cash_shortfall").count() == 1
    assert ForecastWatch.objects.get(user=alice).in_shortfall


def test_no_shortfall_watch_for_a_locked_user_until_the_erasure_is_cancelled(alice, bob):
    from zeus.account_data.erasure import account_erasure_cancel, account_erasure_request

    today = user_today(alice)
    for owner in (alice, bob):
        factories.asset(owner, kind="bank_account", balance="100000")
        series(
            owner, merchant="Rent", kind="bill", direction="expense", amount="4500000", next_on=today + dt.timedelta(5)
        )
    noon = dt.datetime.combine(today, dt.time(12, 0), tzinfo=alice.profile.tz)
    account_erasure_request(user=bob, now=noon)
    span = (min(alice.id, bob.id), max(alice.id, bob.id))
    assert shortfall_watch_run(now=noon, user_id_range=span) == 1
    assert not bob.notifications.exists() and not ForecastWatch.objects.filter(user=bob).exists()
    account_erasure_cancel(user=bob)
    assert shortfall_watch_run(now=noon, user_id_range=span) == 1
    assert bob.notifications.filter(kind="cash_shortfall").count() == 1


def test_the_home_shows_the_forecast(client, alice):
    factories.asset(alice, kind="bank_account", balance="2000000")
    client.force_login(alice)
    html = client.get("/").content.decode()
    assert 'id="forecast"' in html


def test_the_cushion_is_the_users_and_the_forecast_measures_against_it(alice_api, alice):
    factories.asset(alice, kind="cash", balance="1000000")
    assert alice_api.get("/api/v1/forecast/settings").json() == {"cushion": "0", "currency": "VND"}
    assert (
        alice_api.patch("/api/v1/forecast/settings", {"cushion": "2tr"}, format="json").json()["cushion"] == "2000000"
    )
    body = alice_api.get("/api/v1/forecast?days=2").json()
    assert body["cushion"] == "2000000" and body["shortfall"] is True
    assert alice_api.patch("/api/v1/forecast/settings", {"cushion": "-5"}, format="json").status_code == 400


def test_saving_the_same_cushion_again_opens_no_second_episode(alice, alice_api):
    noon = short_of_rent(alice)
    span = (alice.id, alice.id)
    assert shortfall_watch_run(now=noon, user_id_range=span) == 1
    # A client saving its settings again changes nothing: the episode stays the one already told.
    assert alice_api.patch("/api/v1/forecast/settings", {"cushion": "0"}, format="json").status_code == 200
    assert shortfall_watch_run(now=noon + dt.timedelta(hours=1), user_id_range=span) == 0
    for bad in ("-5", "abc", ""):
        assert alice_api.patch("/api/v1/forecast/settings", {"cushion": bad}, format="json").status_code == 400
    assert shortfall_watch_run(now=noon + dt.timedelta(hours=2), user_id_range=span) == 0
    assert alice.notifications.filter(kind="cash_shortfall").count() == 1
    # A new cushion is a new reading: the next check may tell again.
    assert alice_api.patch("/api/v1/forecast/settings", {"cushion": "50k"}, format="json").status_code == 200
    assert shortfall_watch_run(now=noon + dt.timedelta(hours=3), user_id_range=span) == 1


def test_a_user_with_no_account_gets_an_honest_empty_state_everywhere_and_nothing_is_written(client, alice_api):
    vy = factories.user("vy", language="vi")
    client.force_login(vy)
    home = client.get("/")
    assert home.status_code == 200
    assert "Thêm tài khoản tiền mặt, ngân hàng hoặc ví điện tử" in home.content.decode()
    assert alice_api.get("/api/v1/forecast?days=90").json()["days"] == []
    noon = dt.datetime.combine(user_today(vy), dt.time(12, 0), tzinfo=vy.profile.tz)
    assert shortfall_watch_run(now=noon, user_id_range=(vy.id, vy.id)) == 0
    assert not vy.notifications.exists()
    assert not ForecastWatch.objects.exclude(user=vy).exists()  # reading a forecast writes nothing


def test_only_bills_in_the_plans_fixed_categories_pay_its_fixed_expenses(alice_api, alice):
    # The plan's rent (housing) is still to pay. A Netflix subscription and a debt instalment falling due are
    # outflows of their own, not the rent: they were taken off the fixed expenses still to pay, counted twice
    # as paid, and the forecast ran that much too high.
    from plans.services import plan_activate, plan_create

    today = user_today(alice)
    factories.asset(alice, kind="bank_account", balance="20000000")
    plan = plan_create(
        user=alice,
        month=f"{today:%Y-%m}",
        expected_income="30000000",
        fixed_expenses=[{"name": "Rent", "amount": "7000000", "category": "housing"}],
        today=today,
    )
    plan_activate(user=alice, plan_id=plan.id, today=today)
    series(
        alice, merchant="Netflix", kind="subscription", direction="expense", amount="260000", next_on=today,
        category="subscriptions",
    )  # fmt: skip
    debt_create(user=alice, direction="i_owe", counterparty="Lan", principal="1000000", due_on=today)
    body = alice_api.get("/api/v1/forecast?days=3").json()
    fixed = [e for day in body["days"] for e in day["events"] if e["kind"] == "fixed"]
    assert [e["amount"] for e in fixed] == ["-7000000"]
    # A bill in the fixed category does pay it.
    series(alice, merchant="Landlord", kind="bill", direction="expense", amount="7000000", next_on=today)
    body = alice_api.get("/api/v1/forecast?days=3").json()
    assert not [e for day in body["days"] for e in day["events"] if e["kind"] == "fixed"]
