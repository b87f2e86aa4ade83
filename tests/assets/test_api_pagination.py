import base64
import datetime as dt
from urllib.parse import quote

import pytest
from rest_framework.request import Request
from rest_framework.views import APIView

from assets.models import Transaction
from assets.transactions_api import TransactionSerializer
from tests import factories
from tests.assets.helpers import assert_error
from zeus.api.pagination import paginate

pytestmark = pytest.mark.django_db


def _walk(client, url, direction="next"):
    pages = []
    while url:
        response = client.get(url)
        assert response.status_code == 200, response.json()
        body = response.json()
        pages.append([t["id"] for t in body["results"]])
        url = body[direction]
    return pages


def test_pages_cover_every_row_once_even_when_many_share_a_day(alice_api, alice):
    same_day = [factories.txn(alice, occurred_on=dt.date(2026, 11, 5)) for _ in range(7)]
    other = [factories.txn(alice, occurred_on=dt.date(2026, 11, d)) for d in (1, 9)]
    expected = [other[1].id, *sorted((t.id for t in same_day), reverse=True), other[0].id]

    pages = _walk(alice_api, "/api/v1/transactions?page_size=2")
    assert [len(p) for p in pages] == [2, 2, 2, 2, 1]
    assert [i for page in pages for i in page] == expected


def test_previous_links_walk_back_to_the_first_page(alice_api, alice):
    rows = [factories.txn(alice, occurred_on=dt.date(2026, 11, 1 + i % 3)) for i in range(7)]
    first = alice_api.get("/api/v1/transactions?page_size=3").json()
    assert first["previous"] is None
    second = alice_api.get(first["next"]).json()
    third = alice_api.get(second["next"]).json()
    assert third["next"] is None
    back = alice_api.get(third["previous"]).json()
    assert [t["id"] for t in back["results"]] == [t["id"] for t in second["results"]]
    again = alice_api.get(back["previous"]).json()
    assert [t["id"] for t in again["results"]] == [t["id"] for t in first["results"]]
    assert again["previous"] is None
    assert len({t["id"] for t in first["results"] + second["results"] + third["results"]}) == len(rows)


def test_assets_paginate_newest_first(alice_api, alice):
    assets = [factories.asset(alice, name=f"A{i}") for i in range(5)]
    pages = _walk(alice_api, "/api/v1/assets?page_size=2")
    assert [i for page in pages for i in page] == [a.id for a in reversed(assets)]


def test_page_size_defaults_to_50_and_allows_200(alice_api, alice):
    for _ in range(201):
        factories.txn(alice)
    assert len(alice_api.get("/api/v1/transactions").json()["results"]) == 50
    assert len(alice_api.get("/api/v1/transactions?page_size=200").json()["results"]) == 200


@pytest.mark.parametrize("size", ["0", "201", "-1", "abc", "1.5", "1e2", ""])
def test_it_refuses_a_page_size_out_of_bounds(alice_api, size):
    error = assert_error(alice_api.get(f"/api/v1/transactions?page_size={size}"), 400)
    assert "page_size" in error["fields"]


def _cursor(raw: str) -> str:
    return quote(base64.b64encode(raw.encode()).decode())


@pytest.mark.parametrize(
    "cursor",
    [
        "garbage",
        "%%%",
        _cursor("p=abc"),
        _cursor('p=["2026-11-01"]'),
        _cursor('p=["2026-11-01", "x"]'),
        _cursor('p=["2026-02-30", 5]'),
        _cursor('p=["2026-11-01", null]'),
        _cursor('p={"a": 1}'),
        _cursor("r=x"),
        _cursor("o=-1"),
        "w6k=",
    ],
)
def test_it_refuses_a_malformed_cursor(alice_api, alice, cursor):
    factories.txn(alice)
    assert_error(alice_api.get(f"/api/v1/transactions?cursor={cursor}"), 400, "INVALID_CURSOR")


def test_a_forged_cursor_with_a_huge_id_is_harmless(alice_api, alice):
    factories.txn(alice, occurred_on=dt.date(2026, 11, 1))
    cursor = _cursor(f'p=["2026-11-01", {10**30}]')
    assert alice_api.get(f"/api/v1/transactions?cursor={cursor}").status_code == 200


def test_an_ordering_without_the_primary_key_still_pages_every_row_once(alice, rf):
    rows = [factories.txn(alice, occurred_on=dt.date(2026, 11, 1 + i % 2)) for i in range(5)]
    seen, url = [], "/api/v1/transactions?page_size=2"
    while url:
        request = Request(rf.get(url))
        body = paginate(
            request=request,
            view=APIView(),
            queryset=Transaction.objects.filter(user=alice),
            serializer_class=TransactionSerializer,
            ordering=("-occurred_on",),
        ).data
        seen += [t["id"] for t in body["results"]]
        url = body["next"]
    assert sorted(seen) == sorted(t.id for t in rows)
    assert len(seen) == len(rows)
