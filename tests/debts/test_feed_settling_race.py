"""Two feed rows carrying the same debt's code, settled at the same moment by two workers: the debt's row lock
lets the second see the first's payment, so no more than what was owed is ever recorded."""

import datetime as dt
from decimal import Decimal
from functools import partial

import pytest

from goals.debts.models import Debt, DebtPayment
from goals.debts.services import debt_create
from goals.debts.settling import debt_settle_from_feed
from tests import factories
from tests.race import at_once

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_payments_at_once_record_no_more_than_is_owed(alice):
    debt = debt_create(user=alice, direction="owed_to_me", counterparty="Minh", principal="500000")
    rows = [
        factories.txn(
            alice, amount="400000", direction="income", category="other_income", occurred_on=dt.date(2026, 12, 1)
        )
        for _ in range(2)
    ]
    settled = at_once(
        *(partial(debt_settle_from_feed, transaction_id=row.id, text=f"CK {debt.purpose}") for row in rows)
    )
    assert sorted(settled) == [True, True]
    amounts = sorted(DebtPayment.objects.filter(debt=debt).values_list("amount", flat=True))
    assert amounts == [Decimal(100000), Decimal(400000)]
    assert Debt.objects.get(pk=debt.pk).status == Debt.Status.SETTLED
