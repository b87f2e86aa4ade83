"""The home reads the user's accounts once (assets.home.held_accounts): the net worth sums their balances and the
forecast starts from the spendable ones. Both must be what each reads alone."""

from decimal import Decimal

import pytest
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from assets.home import held_accounts
from assets.summary import ledger_summary, net_worth
from plans.forecast_home import forecast_panel
from plans.forecast_read import cash_forecast
from tests import factories
from zeus.money import from_minor
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db


def _page(user):
    request = RequestFactory().get("/")
    request.user = user
    return request


def _accounts(user):
    mirrored = factories.linked_account(user, name="Mirrored", balance="3000000")
    factories.linked_account(user, name="Unmirrored", balance="7000000")
    factories.asset(user, name="Mirror", kind="bank_account", balance="3000000", linked_account=mirrored)
    factories.asset(user, name="Wallet", kind="cash", balance="2500000")
    factories.asset(user, name="MoMo", kind="e_wallet", balance="800000")
    factories.asset(user, name="Card", kind="credit_card", balance="4200000", statement_day=5, due_day=20)
    factories.asset(user, name="Mortgage", kind="loan", balance="90000000")
    factories.asset(user, name="Flat", kind="property", balance="200000000")
    factories.asset(user, name="Term deposit", kind="savings", balance="15000000")
    factories.asset(user, name="Dollars", kind="cash", balance="50", currency="USD")


def test_net_worth_counts_what_is_owed_negative_and_each_linked_account_once(alice):
    _accounts(alice)
    today = user_today(alice)
    worth = net_worth(user=alice, currency="VND", today=today)
    # Assets (the card and the loan negative), plus the linked account no asset mirrors; the mirrored one is in
    # its asset; the dollars have no rate, named apart.
    assert worth.today == Decimal(3000000 + 2500000 + 800000 - 4200000 - 90000000 + 200000000 + 15000000 + 7000000)
    assert worth.other_currencies == {"USD": Decimal("50.00")}


def test_the_summary_is_the_same_with_the_pages_accounts_as_alone(alice):
    _accounts(alice)
    factories.txn(alice, amount="45000", occurred_on=user_today(alice))
    today = user_today(alice)
    request = _page(alice)
    assert ledger_summary(user=alice, currency="VND", today=today, accounts=held_accounts(request)) == ledger_summary(
        user=alice, currency="VND", today=today
    )


def test_the_forecast_starts_from_the_spendable_accounts_of_the_pages_read(alice):
    _accounts(alice)
    today = user_today(alice)
    request = _page(alice)
    alone = cash_forecast(user=alice, today=today)
    assert cash_forecast(user=alice, today=today, held=held_accounts(request)) == alone
    # Cash, the e-wallet and the mirrored bank account, the card paid on its due day: not the loan, the flat or
    # the deposit.
    assert alone.accounts == 4 and alone.forecast.start_balance == 2500000 + 800000 + 3000000
    assert [e.amount for d in alone.forecast.days for e in d.events if e.kind == "card"] == [-4200000]
    panel = forecast_panel(request, today)
    assert panel["chart"].series[0].values[0] == from_minor(alone.forecast.days[0].balance, "VND")


def test_the_home_reads_the_accounts_once(alice_web, alice):
    _accounts(alice)
    with CaptureQueriesContext(connection) as queries:
        assert alice_web.get("/").status_code == 200
    reads = [q["sql"] for q in queries.captured_queries if 'FROM "assets_asset"' in q["sql"]]
    assert len(reads) == 1
