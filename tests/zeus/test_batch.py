"""zeus/batch.py: several reads in one round trip give what each gives alone, rows and model instances alike."""

import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext

from goals.selectors import home_budgets_query, home_goals_query
from suggestions.models import Suggestion
from suggestions.selectors import home_insights_query
from tests import factories
from zeus.batch import Rows, run_batch

pytestmark = pytest.mark.django_db


def _reads(user):
    return [
        home_budgets_query(user=user),
        Rows("SELECT %s::numeric, %s::date, 'it''s 100%%'", [Decimal("12.50"), dt.date(2026, 2, 3)]),
        home_goals_query(user=user, limit=3),
        home_insights_query(user=user, limit=5),
        Rows("SELECT 1 WHERE false", []),
    ]


def _shape(result):
    return [
        [(type(row).__name__, model_to_dict(row), row.pk) if hasattr(row, "_meta") else tuple(row) for row in rows]
        for rows in result
    ]


def test_a_batch_reads_what_each_read_gives_alone(alice, bob):
    for category in ["dining", "travel"]:
        factories.budget(alice, category=category)
    factories.budget(bob, category="health")
    for n in range(4):
        factories.goal(alice, name=f"Goal {n}", current_amount=str(n * 1000))
    Suggestion.objects.create(user=alice, kind="category_spike", title="<b>", body="…", dedupe_key="k")
    alone = [list(r) if not isinstance(r, Rows) else r.run() for r in _reads(alice)]
    with CaptureQueriesContext(connection) as queries:
        batched = run_batch(_reads(alice))
    assert _shape(batched) == _shape(alone)
    assert [len(rows) for rows in batched] == [2, 1, 3, 1, 0]
    assert batched[1][0] == (Decimal("12.50"), dt.date(2026, 2, 3), "it's 100%")
    assert len(queries) == 1


def test_an_empty_batch_reads_nothing():
    with CaptureQueriesContext(connection) as queries:
        assert run_batch([]) == []
    assert len(queries) == 0


def test_a_list_of_ids_reads_as_the_same_array_written_once(alice, bob):
    """A list of ints goes as one int8[] literal (zeus.batch._Ids): what `= ANY` matches, what it unnests to,
    an empty list, and lists of other things, are what psycopg's own list gives."""
    reads = [
        Rows("SELECT username FROM auth_user WHERE id = ANY(%s) ORDER BY id", [[bob.id, 2**40, alice.id]]),
        Rows("SELECT x FROM unnest(%s) AS x ORDER BY x", [[3, -1, 2**62]]),
        Rows("SELECT cardinality(%s::bigint[])", [[]]),
        Rows("SELECT %s, %s::text[]", [[True, False], ["a", "b"]]),  # not ints: psycopg's own list
    ]
    alone = [read.run() for read in reads]
    assert run_batch(reads) == alone
    assert alone == [[("alice",), ("bob",)], [(-1,), (3,), (2**62,)], [(0,)], [([True, False], ["a", "b"])]]
