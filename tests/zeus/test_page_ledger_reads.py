"""The /transactions page and the chat's list_transactions read a page's transfers and split parts as the REST
list does (assets.ledger.selectors.transaction_ledgers): only for the rows the page query flags, in one read
each, however many there are."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from chat.tools.reads import list_transactions
from tests import factories
from tests.chat.tools.helpers import ctx_for
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice_web(client, alice):
    client.force_login(alice)
    return client


_TRANSFERS = 'SELECT "assets_transfer"'
_PARTS = 'SELECT "assets_transactionsplit"'


def _history(user, n: int, today: dt.date) -> None:
    for i in range(n):
        factories.txn(user, occurred_on=today - dt.timedelta(days=i % 9), category="dining" if i % 2 else "groceries")


def _reads(queries, start: str) -> int:
    return sum(1 for q in queries.captured_queries if q["sql"].startswith(start))


def _page(client) -> tuple[str, CaptureQueriesContext]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/transactions")
    assert response.status_code == 200
    return response.content.decode(), queries


def test_the_transactions_page_reads_no_transfers_or_parts_when_no_row_has_one(alice, alice_web):
    _history(alice, 40, user_today(alice))
    _html, queries = _page(alice_web)
    assert (_reads(queries, _TRANSFERS), _reads(queries, _PARTS)) == (0, 0)


def test_the_transactions_page_reads_its_transfers_and_parts_once_however_many(alice, alice_web):
    today = user_today(alice)
    _history(alice, 20, today)
    factories.marked_rows(alice, 1, today)
    html, one = _page(alice_web)
    assert html.count('class="tag transfer"') == 4  # a pair and the suggestion's two rows
    factories.marked_rows(alice, 3, today)
    html, four = _page(alice_web)
    assert html.count('class="tag transfer"') == 12  # four pairs and two suggestions
    assert (_reads(four, _TRANSFERS), _reads(four, _PARTS)) == (1, 1)
    assert len(four) == len(one)  # the accounts the rows name too


def test_list_transactions_is_one_query_when_no_row_has_a_transfer_or_a_split(alice, django_assert_num_queries):
    _history(alice, 60, user_today(alice))
    ctx = ctx_for(alice)
    with django_assert_num_queries(1):
        out = list_transactions(ctx, {"limit": 50})
    assert out["count"] == 50 and not any(t["transfer"] or t["split"] for t in out["transactions"])


@pytest.mark.parametrize("marked", [1, 4])
def test_list_transactions_reads_its_transfers_and_parts_in_two_queries_however_many(
    alice, marked, django_assert_num_queries
):
    today = user_today(alice)
    _history(alice, 20, today - dt.timedelta(days=10))
    factories.marked_rows(alice, marked, today)
    ctx = ctx_for(alice)
    # The rows with their flags; the transfers of the flagged ones; the parts of the split ones.
    with django_assert_num_queries(3):
        rows = list_transactions(ctx, {"limit": 50})["transactions"]
    assert sum(1 for r in rows if r["split"]) == marked
    linked = [r["transfer"] for r in rows if r["transfer"]]
    assert [link["status"] for link in linked].count("paired") == 2 * marked
    assert [link["status"] for link in linked].count("suggested") == 2
