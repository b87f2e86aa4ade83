"""`manage.py seed_demo`: idempotent, and the planted facts other work relies on hold on the day it runs."""

import datetime as dt
from decimal import Decimal

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command
from django.test import Client, RequestFactory
from django.utils import timezone

from assets.models import Asset, LinkedAccount, Source, Transaction
from demo.ledger import MONTHLY_DAYS
from goals.models import Budget, Goal
from goals.progress import resolve_deadline
from zeus.timeutil import user_today

User = get_user_model()


def _seed(*args):
    call_command("seed_demo", *args, stdout=open("/dev/null", "w"))  # noqa: SIM115
    return User.objects.get(username="demo")


def _counts() -> dict:
    return {model.__name__: model.objects.count() for model in (User, LinkedAccount, Asset, Transaction, Budget, Goal)}


def _days_ago(user, n: int) -> dt.date:
    return user_today(user) - dt.timedelta(days=n)


@pytest.fixture
def demo(db):
    return _seed()


def test_a_second_run_adds_nothing(demo):
    before = _counts()

    _seed()

    assert _counts() == before
    assert before["Transaction"] > 150


def test_reset_loads_the_same_data_afresh(demo):
    before = _counts()

    user = _seed("--reset")

    assert user.pk != demo.pk
    assert _counts() == before


def test_data_seeded_on_an_earlier_day_is_rebuilt_to_end_today(demo):
    before = _counts()
    LinkedAccount.objects.filter(user=demo).update(last_synced_at=timezone.now() - dt.timedelta(days=3))
    Transaction.objects.filter(user=demo).update(occurred_on=dt.date(2020, 1, 1))

    user = _seed()

    assert _counts() == before
    assert not Transaction.objects.filter(user=user, occurred_on__lt=_days_ago(user, MONTHLY_DAYS - 1)).exists()


def test_the_demo_and_support_accounts_log_in(demo):
    # Every password check carries its request: sign-in throttling (django-axes) counts by address.
    request = RequestFactory().post("/accounts/login/")
    assert authenticate(request, username="demo", password="demo") == demo
    assert authenticate(request, username="demo@example.com", password="demo") == demo
    assert EmailAddress.objects.get(user=demo).verified
    page = Client().post("/accounts/login/", {"login": "demo", "password": "demo"})
    assert page.status_code == 302 and page["Location"] == "/"
    support = authenticate(request, username="support", password="support")
    assert support.is_staff and support.is_superuser
    assert (demo.profile.currency, demo.profile.timezone) == ("VND", "Asia/Ho_Chi_Minh")
    assert not demo.is_staff


def test_it_links_two_accounts_with_their_synced_assets_and_three_manual_assets(demo):
    accounts = {a.institution: a for a in LinkedAccount.objects.filter(user=demo)}
    assert accounts["Vietcombank"].masked_number == "•••• 4821"
    assert accounts["Vietcombank"].balance == Decimal("48500000")
    assert accounts["MoMo"].masked_number == "•••• 0937"
    assert accounts["MoMo"].balance == Decimal("1200000")

    synced = {a.kind: a for a in Asset.objects.filter(user=demo, source=Source.SYNCED)}
    assert synced["bank_account"].linked_account == accounts["Vietcombank"]
    assert synced["e_wallet"].linked_account == accounts["MoMo"]
    manual = {(a.name, a.kind, a.balance) for a in Asset.objects.filter(user=demo, source=Source.MANUAL)}
    assert manual == {
        ("Ví tiền mặt", "cash", Decimal("2000000")),
        ("Honda Vision", "vehicle", Decimal("30000000")),
        ("Tiết kiệm Techcombank", "savings", Decimal("50000000")),
        ("Wise USD", "bank_account", Decimal("1250.00")),
        ("Thẻ tín dụng VIB", "credit_card", Decimal("3450000")),
    }
    card = Asset.objects.get(user=demo, kind="credit_card")
    assert (card.statement_day, card.due_day) == (20, 5)


def test_its_90_days_end_on_the_users_today(demo):
    everyday = Transaction.objects.filter(user=demo).exclude(
        category__in=["salary", "housing", "utilities", "subscriptions"]
    )
    dates = everyday.values_list("occurred_on", flat=True)

    assert min(dates) >= _days_ago(demo, 89)
    assert max(dates) <= user_today(demo)
    assert min(dates) <= _days_ago(demo, 85)
    assert max(dates) >= _days_ago(demo, 1)


def test_today_is_the_users_today_not_utcs(db, monkeypatch):
    # 18:30 UTC on the 29th is already 01:30 on the 30th in Ho Chi Minh City.
    monkeypatch.setattr(timezone, "now", lambda: dt.datetime(2026, 11, 29, 18, 30, tzinfo=dt.UTC))

    user = _seed()

    duplicate = Transaction.objects.filter(user=user, description="CGV Cinemas", amount=240000)
    assert {t.occurred_on for t in duplicate} == {dt.date(2026, 11, 28)}


def test_monthly_income_and_bills_recur_on_their_days(demo):
    rows = Transaction.objects.filter(user=demo)
    days = [_days_ago(demo, n) for n in range(90)]

    for day in days:
        salary = rows.filter(occurred_on=day, category="salary")
        rent = rows.filter(occurred_on=day, category="housing")
        netflix = rows.filter(occurred_on=day, category="subscriptions", description="Netflix")
        assert [(t.amount, t.description, t.source) for t in salary] == (
            [(Decimal(25000000), f"Lương tháng {day:%m/%Y}", "synced")] if day.day == 5 else []
        )
        assert [(t.amount, t.description) for t in rent] == ([(Decimal(6500000), "Tiền nhà")] if day.day == 1 else [])
        assert [(t.amount, t.description) for t in netflix] == ([(Decimal(260000), "Netflix")] if day.day == 12 else [])
    electricity = rows.filter(category="utilities", description="Tiền điện EVN")
    assert electricity.count() >= 2
    assert all(600000 <= t.amount <= 700000 for t in electricity)


def test_shopping_spikes_in_the_last_7_days_after_small_steady_weeks(demo):
    shopping = Transaction.objects.filter(user=demo, category="shopping")
    week = shopping.filter(occurred_on__gte=_days_ago(demo, 6))
    assert {(t.description, t.amount) for t in week} == {
        ("Thế Giới Di Động", Decimal(5990000)),
        ("Uniqlo", Decimal(1490000)),
    }
    weeks = [
        sum(t.amount for t in shopping.filter(occurred_on__range=(_days_ago(demo, 7 * k + 6), _days_ago(demo, 7 * k))))
        for k in range(1, 12)
    ]
    assert all(0 < total <= 400000 for total in weeks), weeks


def test_the_planted_duplicate_is_the_only_same_charge_within_a_day(demo):
    rows = list(Transaction.objects.filter(user=demo).order_by("occurred_on"))
    pairs = [
        (a, b)
        for i, a in enumerate(rows)
        for b in rows[i + 1 :]
        if (b.occurred_on - a.occurred_on).days <= 1 and (a.description, a.amount) == (b.description, b.amount)
    ]

    assert len(pairs) == 1
    first, second = pairs[0]
    assert (first.description, first.amount, first.category) == ("CGV Cinemas", Decimal(240000), "entertainment")
    assert first.occurred_on == second.occurred_on == _days_ago(demo, 2)
    assert first.source == second.source == Source.SYNCED
    assert first.external_id != second.external_id


def test_the_same_coffee_a_week_apart_is_planted_as_a_look_alike(demo):
    coffees = Transaction.objects.filter(user=demo, description="Highlands Coffee", amount=55000)

    assert sorted(t.occurred_on for t in coffees) == [_days_ago(demo, 16), _days_ago(demo, 9)]


def test_month_to_date_spend_stays_under_80_percent_of_each_budget(demo):
    budgets = {b.category: b.amount for b in Budget.objects.filter(user=demo)}
    assert budgets == {"dining": 5000000, "groceries": 6000000, "transport": 2500000}
    today = user_today(demo)
    month_start = today.replace(day=1)
    for category, limit in budgets.items():
        for day in (month_start + dt.timedelta(days=n) for n in range((today - month_start).days + 1)):
            rows = Transaction.objects.filter(user=demo, category=category, occurred_on__range=(month_start, day))
            assert sum(t.amount for t in rows) < Decimal("0.8") * limit, (category, day)


def test_it_sets_two_goals(demo):
    today = user_today(demo)
    goals = {g.name: g for g in Goal.objects.filter(user=demo)}

    fund, house = goals["Quỹ khẩn cấp"], goals["Mua nhà"]
    assert (fund.kind, fund.target_amount, fund.current_amount) == ("emergency_fund", 60000000, 18000000)
    assert fund.deadline == resolve_deadline("12 months", today=today)
    assert (house.kind, house.target_amount, house.current_amount) == ("house", 800000000, 65000000)
    assert house.deadline == resolve_deadline("8 years", today=today)
