"""ledger_flags() hands out expressions built once per process: reading a page with them must leave them as
they were, so the next page (another user's, another filter) compiles to the same flags."""

import pytest

from assets.ledger.selectors import ledger_flags, with_ledger_flags
from assets.models import Transaction
from tests import factories

pytestmark = pytest.mark.django_db


def test_the_shared_flag_expressions_are_not_changed_by_a_page_that_used_them(alice, bob):
    factories.txn(alice, amount="85000", description="Phở")
    factories.txn(bob, amount="12000", description="Cà phê")
    first = str(with_ledger_flags(Transaction.objects.filter(user=alice)).query)
    rows = list(with_ledger_flags(Transaction.objects.filter(user=bob, category="dining")))
    assert [(r.has_split, r.has_transfer) for r in rows] == [(False, False)] * len(rows)
    assert str(with_ledger_flags(Transaction.objects.filter(user=alice)).query) == first
    assert ledger_flags() is not ledger_flags()  # a caller may add to its dict without touching the next one's
