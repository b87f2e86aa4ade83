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


@pytest.mark.postgres  # the casts; elsewhere the batch runs the reads one by one
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
