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
