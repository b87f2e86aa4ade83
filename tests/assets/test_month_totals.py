"""The month totals (assets.models.MonthTotal) the home's trend reads: kept by PostgreSQL triggers, so whatever
writes the ledger (a service, an import, a feed's landing, a rule applied to old rows, a cascade), the table is
exactly the ledger summed per user, currency, month, direction and category."""

import datetime as dt
from decimal import Decimal

import pytest
from django.db.models import Count, Sum
from django.db.models.functions import TruncMonth

from assets.importing import transactions_import_csv
from assets.models import MonthTotal, Source, Transaction
from assets.rules.services import rule_apply_to_existing, rule_create
from assets.services import transaction_delete, transaction_update
from tests import factories

pytestmark = pytest.mark.django_db


def ledger_grouped() -> set[tuple]:
    rows = (
        Transaction.objects.annotate(month=TruncMonth("occurred_on"))
        .values("user_id", "currency", "month", "direction", "category")
        .annotate(total=Sum("amount"), entries=Count("id"))
        .order_by()
    )
    return {
        (r["user_id"], r["currency"], r["month"], r["direction"], r["category"], r["total"], r["entries"]) for r in rows
    }


def month_totals() -> set[tuple]:
    return set(
        MonthTotal.objects.values_list("user_id", "currency", "month", "direction", "category", "total", "entries")
    )


def test_the_month_totals_follow_every_kind_of_write(alice, bob):
    day = dt.date(2026, 3, 14)
    coffee = factories.txn(alice, amount="45000", occurred_on=day, description="Coffee")
    rent = factories.txn(alice, amount="8000000", category="housing", occurred_on=day.replace(day=1))
    factories.txn(alice, direction="income", category="salary", amount="30000000", occurred_on=day)
    factories.txn(alice, amount="12.50", currency="USD", occurred_on=day)
    factories.txn(bob, amount="99000", occurred_on=day)
    assert month_totals() == ledger_grouped()
    dining = MonthTotal.objects.get(user=alice, currency="VND", month=day.replace(day=1), category="dining")
    assert (dining.total, dining.entries) == (45000, 1)

    # Edits that move an amount, a date (to another month), a category, a direction; one that moves nothing.
    transaction_update(user=alice, transaction_id=coffee.id, amount="50000")
    transaction_update(user=alice, transaction_id=coffee.id, occurred_on="2025-12-31")
    transaction_update(user=alice, transaction_id=rent.id, category="utilities")
    transaction_update(user=alice, transaction_id=rent.id, direction="income")
    transaction_update(user=alice, transaction_id=rent.id, description="Rent, paid late")
    assert month_totals() == ledger_grouped()

    # An import (bulk_create), a rule rewriting old rows (a queryset update), a feed's row made synced.
    header = "date,description,amount,direction,category,external_id\n"
    rows = "".join(f"2026-02-{1 + i % 28:02d},Row {i},{1000 + i},expense,dining,ext-{i}\n" for i in range(40))
    assert transactions_import_csv(user=alice, text=header + rows).imported == 40
    rule_apply_to_existing(user=alice, rule=rule_create(user=alice, match="row 1", category="gifts"))
    Transaction.objects.filter(user=alice, description="Coffee").update(source=Source.SYNCED, amount=Decimal(7))
    assert month_totals() == ledger_grouped()

    # Deletes: one row, the last row of a key (its total goes away), many at once, a whole user.
    transaction_delete(user=alice, transaction_id=rent.id)
    Transaction.objects.filter(user=alice, currency="USD").delete()
    assert not MonthTotal.objects.filter(user=alice, currency="USD").exists()
    Transaction.objects.filter(user=alice, description__startswith="Row 2").delete()
    assert month_totals() == ledger_grouped()
    bob.delete()
    assert month_totals() == ledger_grouped()
    assert not MonthTotal.objects.filter(user_id=bob.id).exists()
    alice.delete()
    assert MonthTotal.objects.count() == 0
