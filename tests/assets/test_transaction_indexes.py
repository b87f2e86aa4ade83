"""The transactions table's indexes (docs/adr/0012): every lookup by user is served by a composite index that
begins with the user, and no index on the user alone stands beside them for the planner to pick and filter; the
ledger's order carries the columns a read of the money that counts needs (docs/adr/0013)."""

import datetime as dt
import json
from decimal import Decimal

import pytest
from django.db import connection

from assets.ledger.totals import counted_groups_query
from assets.models import Transaction
from tests import factories


def _indexes() -> dict[str, list[str]]:
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, Transaction._meta.db_table)
    return {name: spec["columns"] for name, spec in found.items() if spec["index"] and not spec["primary_key"]}


def test_no_index_on_the_user_alone(db):
    indexes = _indexes()
    assert [name for name, columns in indexes.items() if columns == ["user_id"]] == []


def test_lookups_by_user_still_have_an_index_that_begins_with_the_user(db):
    leading = {name for name, columns in _indexes().items() if columns[0] == "user_id" and len(columns) > 1}
    assert "transaction_user_direction" in leading


def _scans_of_transactions(node: dict) -> list[dict]:
    found = [node] if node.get("Relation Name") == Transaction._meta.db_table else []
    for child in node.get("Plans", []):
        found += _scans_of_transactions(child)
    return found


@pytest.mark.django_db(transaction=True)
def test_a_months_spending_is_read_from_the_index_alone():
    """A plan's month (counted_groups_query, the one read of the money that counts) touches the month's index
    entries only, not a table page per row: a long history's rows of one month lie scattered over the table."""
    owner = factories.user("long-history")
    first = dt.date(2024, 12, 1)
    Transaction.objects.bulk_create(
        Transaction(
            user=owner,
            amount=Decimal(1000 + i),
            currency="VND",
            direction="income" if i % 30 == 0 else "expense",
            category=("dining", "groceries", "transport")[i % 3],
            occurred_on=first + dt.timedelta(days=i * 37 % 730),
        )
        for i in range(3000)
    )
    with connection.cursor() as cursor:
        # As a table long in use is: its statistics and visibility map set (bench._common.settle_after_load).
        cursor.execute(f"VACUUM ANALYZE {Transaction._meta.db_table}")
    month = counted_groups_query(
        user_ids=[owner.pk], currency="VND", since=dt.date(2026, 11, 1), until=dt.date(2026, 11, 30)
    )
    plan = json.loads(month.explain(format="json", analyze=True, buffers=True))[0]["Plan"]
    scans = [(s["Node Type"], s.get("Index Name"), s.get("Heap Fetches")) for s in _scans_of_transactions(plan)]
    assert scans == [("Index Only Scan", "transaction_user_day", 0)]
