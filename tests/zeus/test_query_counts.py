"""What the hot REST reads cost in queries: constant, whatever the user's history or the page's length."""

import datetime as dt

import pytest

from plans.services import plan_entry_create
from tests import factories
from tests.plans.conftest import clock  # noqa: F401 (the fixture)
from tests.plans.factories import plan

pytestmark = pytest.mark.django_db


def _history(user, n: int) -> None:
    for i in range(n):
        factories.txn(
            user,
            occurred_on=dt.date(2026, 11, 1) + dt.timedelta(days=i % 9),
            direction="income" if i % 4 == 0 else "expense",
            category="dining" if i % 2 else "groceries",
        )


def test_token_auth_reads_the_user_and_profile_in_one_query(alice_api, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert alice_api.get("/api/v1/profile").json()["username"] == "alice"


# The token and profile; the plans with their goals, answered warnings and goal entries' totals; their fixed
# expenses; their months' expenses per category and day; their recurring bills still due (plans.selectors).
_PLAN_READS = 5


@pytest.mark.usefixtures("clock")
@pytest.mark.parametrize("rows", [3, 120])
def test_a_plan_costs_the_same_queries_however_long_the_history(alice, alice_api, rows, django_assert_num_queries):
    _history(alice, rows)
    made = plan(alice, active=True)
    plan_entry_create(user=alice, plan_id=made.id, kind="discretionary", amount="50000")
    with django_assert_num_queries(_PLAN_READS):
        assert alice_api.get(f"/api/v1/plans/{made.id}").status_code == 200


@pytest.mark.usefixtures("clock")
@pytest.mark.parametrize("plans", [1, 4])
def test_the_plan_list_costs_the_same_queries_however_many_plans(alice, alice_api, plans, django_assert_num_queries):
    _history(alice, 20)
    for month in range(plans):
        plan(alice, month=f"2027-{month + 1:02d}", active=month == 0)
    with django_assert_num_queries(_PLAN_READS):
        assert len(alice_api.get("/api/v1/plans").json()["results"]) == plans


@pytest.mark.usefixtures("clock")
def test_a_later_plan_page_costs_the_same_queries_however_many_plans(alice, alice_api, django_assert_num_queries):
    for month in range(5):
        plan(alice, month=f"2027-{month + 1:02d}")
    after = alice_api.get("/api/v1/plans?page_size=2").json()["next"]
    with django_assert_num_queries(_PLAN_READS):
        assert len(alice_api.get(after).json()["results"]) == 2


@pytest.mark.parametrize("query", ["", "?page_size=200", "?direction=income", "?source=manual&category=dining"])
def test_a_transaction_page_is_one_query_after_auth(alice, alice_api, query, django_assert_num_queries):
    _history(alice, 60)
    # The auth; the page, which says of each row whether it is split or in a transfer: none is, so nothing else
    # is read (assets.transactions_api._transaction_rows).
    with django_assert_num_queries(2):
        assert alice_api.get(f"/api/v1/transactions{query}").status_code == 200


@pytest.mark.parametrize("marked", [1, 4])
def test_a_page_reads_its_split_and_transferred_rows_in_two_queries_however_many(
    alice, alice_api, marked, django_assert_num_queries
):
    _history(alice, 20)
    suggested = factories.marked_rows(alice, marked, dt.date(2026, 11, 20))
    # The auth; the page; the transfers of its rows in one; the parts of its split rows in one.
    with django_assert_num_queries(4):
        rows = alice_api.get("/api/v1/transactions").json()["results"]
    assert sum(1 for r in rows if r["split"]) == marked
    linked = [r["transfer"] for r in rows if r["transfer"]]
    assert [link["status"] for link in linked].count("paired") == 2 * marked
    counterparts = {link["counterpart"] for link in linked if link["status"] == "suggested"}
    assert counterparts == {suggested.outgoing_id, suggested.incoming_id}
