"""The transactions table's indexes (docs/adr/0012): every lookup by user is served by a composite index that
begins with the user, and no index on the user alone stands beside them for the planner to pick and filter."""

from django.db import connection

from assets.models import Transaction


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
