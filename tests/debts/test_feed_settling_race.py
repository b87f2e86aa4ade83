"""Two feed rows carrying the same debt's code, settled at the same moment by two workers: the debt's row lock
lets the second see the first's payment, so no more than what was owed is ever recorded."""

import datetime as dt
import threading
from decimal import Decimal

import pytest
from django.db import connection

from goals.debts.models import Debt, DebtPayment
from goals.debts.services import debt_create
from goals.debts.settling import debt_settle_from_feed
from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_payments_at_once_record_no_more_than_is_owed(alice):
    debt = debt_create(user=alice, direction="owed_to_me", counterparty="Minh", principal="500000")
    rows = [
        factories.txn(
            alice, amount="400000", direction="income", category="other_income", occurred_on=dt.date(2026, 12, 1)
        )
        for _ in range(2)
    ]
    start = threading.Barrier(2)
    settled: list[bool] = []

    def settle(row):
        try:
            start.wait(timeout=10)
            settled.append(debt_settle_from_feed(transaction_id=row.id, text=f"CK {debt.purpose}"))
        finally:
            connection.close()

    threads = [threading.Thread(target=settle, args=(row,)) for row in rows]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(settled) == [True, True]
    amounts = sorted(DebtPayment.objects.filter(debt=debt).values_list("amount", flat=True))
    assert amounts == [Decimal(100000), Decimal(400000)]
    assert Debt.objects.get(pk=debt.pk).status == Debt.Status.SETTLED
