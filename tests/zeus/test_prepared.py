"""zeus/prepared.py: a queryset compiled once answers what the queryset itself answers, for any arguments."""

import datetime as dt
import json
from decimal import Decimal

import pytest
from django.db.models import Sum
from rest_framework.authtoken.models import Token

from assets.models import Transaction
from plans.models import MonthlyPlan, Rebalance
from plans.selectors import answered_states, plan_get, plan_list, plan_list_first
from tests import factories
from tests.plans.conftest import clock  # noqa: F401 (the fixture)
from tests.plans.factories import plan
from zeus.errors import NotFound
from zeus.prepared import Prepared, correlated_rows

pytestmark = pytest.mark.django_db

TOKENS = Prepared(lambda key: Token.objects.select_related("user__profile").filter(key=key), str)
TOTALS = Prepared(
    lambda user_id, since, until: (
        Transaction.objects.filter(user_id=user_id, occurred_on__gte=since, occurred_on__lte=until)
        .values("category", "occurred_on")
        .annotate(total=Sum("amount"))
        .order_by("occurred_on", "category")
    ),
    int,
    dt.date,
    dt.date,
)


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_a_model_read_with_its_related_objects_is_the_querysets(alice, bob):
    for user in (alice, bob):
        key = Token.objects.create(user=user).key
        (got,) = TOKENS.run(key)
        want = Token.objects.select_related("user__profile").get(key=key)
        assert _fields(got) == _fields(want)
        assert _fields(got.user) == _fields(want.user)
        assert _fields(got.user.profile) == _fields(want.user.profile)
        assert got._state.adding is False and got._state.db == "default"
    assert TOKENS.run("no such key") == []


def test_a_values_aggregate_is_the_querysets_for_every_argument(alice, bob, django_assert_num_queries):
    for i in range(30):
        factories.txn(alice if i % 3 else bob, amount=f"{1000 + i}.5", occurred_on=dt.date(2026, 10, 1 + i % 20))
    for user, since, until in [(alice, dt.date(2026, 10, 3), dt.date(2026, 10, 9)), (bob, dt.date(2026, 1, 1), None)]:
        until = until or dt.date(2026, 12, 31)
        want = list(
            Transaction.objects.filter(user_id=user.id, occurred_on__gte=since, occurred_on__lte=until)
            .values("category", "occurred_on")
            .annotate(total=Sum("amount"))
            .order_by("occurred_on", "category")
        )
        with django_assert_num_queries(1):
            assert TOTALS.run(user.id, since, until) == want


def test_an_argument_that_reaches_the_sql_twice_is_bound_at_both_places(alice, bob):
    twice = Prepared(lambda user_id: Transaction.objects.filter(user_id=user_id, asset__user_id=user_id), int)
    for user in (alice, bob):
        bank = factories.asset(user)
        factories.txn(user, asset=bank)
        factories.txn(user)
    for user in (alice, bob):
        want = list(Transaction.objects.filter(user_id=user.id, asset__user_id=user.id))
        assert len(want) == 1
        assert twice.run(user.id) == want


def test_an_argument_that_does_not_reach_the_sql_is_refused(alice):
    ignored = Prepared(lambda user_id: Transaction.objects.filter(user_id=alice.id), int)
    with pytest.raises(ValueError, match="does not reach"):
        ignored.run(alice.id)


_OUTER_USER, _OUTER_SINCE = -991_000_001, dt.date(1113, 1, 1)


def _spent_since(plan_id, since):
    """The plan's user's transactions from `since` on (a Prepared argument), as a JSON column of the plan's row."""
    rows = Transaction.objects.filter(user_id=_OUTER_USER, occurred_on__gte=since).values("amount", "occurred_on")
    return MonthlyPlan.objects.filter(id=plan_id).annotate(
        spent=correlated_rows(rows.order_by("id"), {_OUTER_USER: '"plans_monthlyplan"."user_id"'})
    )


SPENT_SINCE = Prepared(_spent_since, int, dt.date)


@pytest.mark.usefixtures("clock")
def test_a_correlated_read_is_its_querysets_rows_as_json_on_the_outer_row(alice, bob, django_assert_num_queries):
    made = plan(alice)
    factories.txn(alice, amount="1.50", occurred_on=dt.date(2026, 11, 2))
    factories.txn(alice, amount="700000", occurred_on=dt.date(2026, 11, 9))
    factories.txn(alice, amount="9", occurred_on=dt.date(2026, 10, 30))
    factories.txn(bob, amount="5", occurred_on=dt.date(2026, 11, 3))
    with django_assert_num_queries(1):
        (row,) = SPENT_SINCE.run(made.id, dt.date(2026, 11, 1))
    assert json.loads(row.spent, parse_float=Decimal) == [
        {"amount": Decimal("1.50"), "occurred_on": "2026-11-02"},
        {"amount": Decimal("700000.00"), "occurred_on": "2026-11-09"},
    ]
    (row,) = SPENT_SINCE.run(made.id, dt.date(2026, 12, 1))
    assert row.spent is None  # no row: NULL


def test_an_outer_value_is_replaced_wherever_it_reaches_the_sql():
    rows = Transaction.objects.filter(user_id=_OUTER_USER, asset__user_id=_OUTER_USER, category="dining")
    column = correlated_rows(rows, {_OUTER_USER: '"auth_user"."id"'})
    assert column.sql.count('"auth_user"."id"') == 2
    assert column.params == ["dining"]  # what is not an outer value stays a parameter


def test_an_outer_value_that_does_not_reach_the_sql_is_refused():
    with pytest.raises(ValueError, match="does not reach"):
        correlated_rows(Transaction.objects.filter(user_id=1), {_OUTER_USER: '"auth_user"."id"'})


@pytest.mark.usefixtures("clock")
def test_plan_get_reads_what_plan_list_reads(alice, bob, django_assert_num_queries):
    made = plan(alice, active=True)
    for state in ("spend_pace", "goal_drift"):
        Rebalance.objects.create(plan=made, kind="tighten_spending", warning_state=state, amount=1, before={}, after={})
    with django_assert_num_queries(2):
        got = plan_get(user=alice, plan_id=made.id)
        lines = list(got.fixed_expenses.all())
    want = plan_list(user=alice).get(id=made.id)
    assert _fields(got) == _fields(want)
    assert [_fields(line) for line in lines] == [_fields(line) for line in want.fixed_expenses.all()]
    assert answered_states(got) == answered_states(want) == ["spend_pace", "goal_drift"]
    made.refresh_from_db()
    assert sorted(answered_states(made)) == ["goal_drift", "spend_pace"]  # not from plan_list: one query
    with pytest.raises(NotFound):
        plan_get(user=bob, plan_id=made.id)
    with pytest.raises(NotFound):
        plan_get(user=alice, plan_id="x")


@pytest.mark.usefixtures("clock")
@pytest.mark.parametrize("limit", [1, 2, 5])
def test_the_plan_lists_first_page_is_plan_lists_first_rows(alice, bob, limit, django_assert_num_queries):
    made = [plan(alice, month=f"2027-{m:02d}", active=m == 1) for m in range(1, 5)]
    plan(bob, month="2027-01")
    Rebalance.objects.create(
        plan=made[0], kind="tighten_spending", warning_state="overspent", amount=1, before={}, after={}
    )
    with django_assert_num_queries(2):
        got = plan_list_first(user=alice, limit=limit)
        lines = [list(p.fixed_expenses.all()) for p in got]
    want = list(plan_list(user=alice).order_by("-month", "-id")[:limit])
    assert [_fields(p) for p in got] == [_fields(p) for p in want]
    assert [answered_states(p) for p in got] == [answered_states(p) for p in want]
    assert [[_fields(x) for x in p] for p in lines] == [[_fields(x) for x in p.fixed_expenses.all()] for p in want]


@pytest.mark.usefixtures("clock")
def test_the_plan_list_pages_through_every_plan_once(alice, alice_api):
    made = {plan(alice, month=f"2027-{m:02d}").id for m in range(1, 6)}
    seen, url = [], "/api/v1/plans?page_size=2"
    while url:
        body = alice_api.get(url).json()
        seen += [p["id"] for p in body["results"]]
        url = body["next"]
    assert sorted(seen) == sorted(made) and len(seen) == len(made)


def _prepared_on_server(sql_start: str) -> list[tuple]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE %s",
            [sql_start.replace("%", r"\%") + "%"],
        )
        return cursor.fetchall()


def test_on_postgresql_a_read_is_prepared_once_per_connection_and_planned_once(alice):
    """Each run binds on the server and reuses the statement the connection already holds, with the plan made
    for it the first time (zeus/postgresql/base.py: prepare threshold and plan_cache_mode)."""
    key = Token.objects.create(user=alice).key
    for _ in range(8):
        (got,) = TOKENS.run(key)
        assert got.user_id == alice.id
    start = TOKENS.compiled.sql.split("%s")[0]
    assert _prepared_on_server(start) == [(8, 0)]  # one statement, eight runs, no plan made for their values


@pytest.mark.django_db(transaction=True)
def test_on_postgresql_a_read_prepares_again_on_a_connection_that_replaced_a_dead_one(alice):
    """A backend that went away takes its statements with it; the connection that replaces it (the pool's
    check discards the dead one) has none, and psycopg prepares the statement again there."""
    import select

    import psycopg
    from django.db import connection

    key = Token.objects.create(user=alice).key
    assert TOKENS.run(key)[0].user_id == alice.id
    connection.ensure_connection()
    dead = connection.connection.info.backend_pid
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [dead])
    select.select([connection.connection.fileno()], [], [], 10)
    connection.close()
    (got,) = TOKENS.run(key)
    assert got.user_id == alice.id
    assert connection.connection.info.backend_pid != dead
    start = TOKENS.compiled.sql.split("%s")[0]
    assert len(_prepared_on_server(start)) == 1
