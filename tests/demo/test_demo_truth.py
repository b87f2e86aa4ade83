"""The demo user's own accounts moving money: the MoMo top-up and the monthly savings deposits are paired
transfers that count nowhere, and a USD account holds a few rows with the user's own rates."""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from assets.ledger.models import ExchangeRate, Transfer
from assets.ledger.selectors import counted_totals
from assets.models import Asset, Transaction
from zeus.timeutil import user_today


@pytest.fixture
def demo(db):
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    return get_user_model().objects.get(username="demo")


def test_the_top_up_and_the_savings_deposits_are_paired_transfers(demo):
    paired = Transfer.objects.filter(user=demo, status="paired").select_related("outgoing", "incoming")
    assert sorted((t.outgoing.description, t.incoming.asset.name) for t in paired) == [
        ("Gửi tiết kiệm Techcombank", "Tiết kiệm Techcombank"),
        ("Gửi tiết kiệm Techcombank", "Tiết kiệm Techcombank"),
        ("Gửi tiết kiệm Techcombank", "Tiết kiệm Techcombank"),
        ("Nạp tiền ví MoMo", "Ví MoMo"),
    ]
    assert not Transaction.objects.counted().filter(user=demo, transfer__isnull=False).exists()
    assert not Transfer.objects.filter(user=demo, status="suggested").exists()


def test_a_second_run_pairs_nothing_twice(demo):
    before = Transfer.objects.count(), Transaction.objects.count()
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert (Transfer.objects.count(), Transaction.objects.count()) == before


def test_the_usd_account_converts_at_the_users_own_rates(demo):
    usd = Asset.objects.get(user=demo, name="Wise USD")
    assert usd.currency == "USD" and Transaction.objects.filter(asset=usd).count() == 4
    assert ExchangeRate.objects.filter(user=demo, source="user").count() == 3
    today = user_today(demo)
    since = today - dt.timedelta(days=89)
    spent = counted_totals(user=demo, currency="VND", since=since, until=today, direction="expense")
    assert spent.missing == []  # every dollar row has a rate on or before its day


def test_the_demo_pages_show_the_dollars_converted_with_the_rate_used(demo, client):
    """The home's net worth, /wallets and /transactions show the USD account's amounts converted beside the
    original, with the demo user's own rates (the balance at 26,138 ₫ a dollar, set two weeks ago)."""
    client.force_login(demo)
    for url in ("/", "/wallets"):
        html = client.get(url).content.decode()
        assert "1.250,00\xa0US$ = 32.672.500\xa0₫ theo tỷ giá 26.138 VND/USD" in html, url
    html = client.get("/transactions").content.decode()
    assert "Tất cả quy ra VND" in html
    # Each dollar row at the rate of its own day: the older rows at the older rates.
    assert "500,00\xa0US$ = 12.975.000\xa0₫ theo tỷ giá 25.950 VND/USD" in html
    assert "36,39\xa0US$ = 947.960\xa0₫ theo tỷ giá 26.050 VND/USD" in html
    assert "Thiếu tỷ giá" not in html
