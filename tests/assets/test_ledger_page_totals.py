"""The /transactions page's totals count the money that counts; its count is every row it lists."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.ledger.models import Transfer
from assets.models import Transaction
from assets.selectors import transaction_list, transaction_totals
from tests import factories

pytestmark = pytest.mark.django_db


def test_transfers_and_excluded_rows_are_listed_but_not_summed(alice):
    day = dt.date(2026, 11, 3)
    out = factories.txn(alice, amount="2000000", category="other", occurred_on=day)
    inc = factories.txn(alice, amount="2000000", direction="income", category="other_income", occurred_on=day)
    transfer = Transfer.objects.create(user=alice, outgoing=out, incoming=inc, status="paired")
    Transaction.objects.filter(id__in=[out.id, inc.id]).update(transfer=transfer)
    reimbursed = factories.txn(alice, amount="500000", occurred_on=day)
    Transaction.objects.filter(id=reimbursed.id).update(excluded=True)
    factories.txn(alice, amount="150000", occurred_on=day)

    (totals,) = transaction_totals(transaction_list(user=alice))

    assert (totals.income, totals.expense, totals.count) == (Decimal(0), Decimal(150000), 4)


@pytest.fixture
def alice_web(client, alice):
    client.force_login(alice)
    return client


def test_a_list_in_two_currencies_adds_up_in_the_users_at_each_rows_rate_and_names_what_has_none(alice_web, alice):
    day = dt.date(2026, 11, 3)
    factories.rate(day - dt.timedelta(days=2), "25000")
    factories.rate(day + dt.timedelta(days=1), "26000")  # the next row's, not this one's
    factories.txn(alice, amount="150000", occurred_on=day)
    factories.txn(alice, amount="10", currency="USD", occurred_on=day)
    factories.txn(alice, amount="4", currency="USD", occurred_on=day + dt.timedelta(days=1))
    factories.txn(alice, amount="100", direction="income", category="salary", currency="USD", occurred_on=day)
    factories.txn(alice, amount="7", currency="EUR", occurred_on=day)  # no EUR rate
    html = alice_web.get("/transactions").content.decode()
    combined = html[html.index('id="totals-combined"') :]
    assert "₫504,000" in combined  # 150,000 + 10 at 25,000 + 4 at 26,000; the euros never at 1:1
    assert "₫2,500,000" in combined  # the income
    assert "$10.00 = ₫250,000 at 25,000 VND/USD" in combined and "$4.00 = ₫104,000 at 26,000 VND/USD" in combined
    assert "Rate missing: €7.00 not counted" in combined


def test_a_list_in_the_users_currency_alone_shows_no_conversion(alice_web, alice):
    factories.txn(alice, amount="150000", occurred_on=dt.date(2026, 11, 3))
    html = alice_web.get("/transactions").content.decode()
    assert 'id="totals-combined"' not in html


def test_the_totals_in_the_users_currency_cost_the_same_queries_however_many_foreign_days(alice_web, alice):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    day = dt.date(2026, 11, 1)
    factories.rate(day - dt.timedelta(days=1), "25000")

    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            assert alice_web.get("/transactions").status_code == 200
        return len(seen)

    factories.txn(alice, amount="150000", occurred_on=day)
    factories.txn(alice, amount="1", currency="USD", occurred_on=day)
    few = queries()
    for k in range(1, 25):
        factories.txn(alice, amount="2", currency="USD", occurred_on=day + dt.timedelta(days=k))
        factories.txn(alice, amount="3", currency="EUR", occurred_on=day + dt.timedelta(days=k))
    assert queries() == few, few
