"""A forged `?cursor=` is a 400 `INVALID_CURSOR` on every paginated list, whatever its position holds."""

import base64
import itertools
from urllib.parse import quote, urlencode

import pytest

from tests import factories

LISTS = (
    "/api/v1/assets",
    "/api/v1/linked-accounts",
    "/api/v1/transactions",
    "/api/v1/budgets",
    "/api/v1/goals",
    "/api/v1/notifications",
    "/api/v1/rules",
    "/api/v1/integrations/sepay",
    "/api/v1/suggestions",
    "/api/v1/recurring",
    "/api/v1/plans",
    "/api/v1/chat/threads",
)

POSITIONS = (
    "[" * 5000 + "]" * 5000,
    "[" * 50000,
    '{"a":' * 3000,
    '["' + "\\" * 10000,
    "[1e999, 1]",
    "[NaN, 1]",
    '["2026-01-01T00:00:00+00:00", ' + "9" * 5000 + "]",
    '["' + "9" * 5000 + '", 1]',
    "[[1], [2]]",
    '[{"a": 1}, 1]',
    '["\\u0000", 1]',
    '["\\ud800", 1]',
    "x" * 100_000,
)


def forged(position: str, reverse: bool = False) -> str:
    query = urlencode({"p": position, **({"r": "1"} if reverse else {})})
    return quote(base64.b64encode(query.encode()).decode())


@pytest.mark.django_db
def test_every_forged_position_is_a_400_on_every_list(alice_api, alice):
    factories.txn(alice)
    for url, position, reverse in itertools.product(LISTS, POSITIONS, (False, True)):
        response = alice_api.get(f"{url}?cursor={forged(position, reverse)}")
        assert response.status_code == 400, (url, position[:40], response.content[:200])
        assert response.json()["error"]["code"] == "INVALID_CURSOR", (url, position[:40])


@pytest.mark.django_db
def test_a_cursor_the_list_gave_still_works(alice_api, alice):
    for day in range(1, 4):
        factories.txn(alice, occurred_on=f"2026-11-0{day}")
    first = alice_api.get("/api/v1/transactions?page_size=2").json()
    second = alice_api.get(first["next"]).json()
    assert len(first["results"]) == 2 and len(second["results"]) == 1
