"""The suggestions app arrives from a parallel branch: its selector is stood in here by a fake module with the
agreed signature, `suggestion_list_active(*, user, limit)` returning rows with the contract's fields."""

import datetime as dt
import sys
import types
from types import SimpleNamespace

import pytest

from tests.chat.tools.helpers import call

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def fake_suggestions(monkeypatch):
    seen = {}

    def suggestion_list_active(*, user, limit):
        seen["user"], seen["limit"] = user, limit
        row = SimpleNamespace(
            id=9,
            kind="goal_nudge",
            title="Top up your house goal",
            body="You are 2 months behind.",
            cta_url="/chat?prompt=house",
            prompt="How do I catch up on my house goal?",
            status="active",
            created_at=dt.datetime(2026, 11, 29, 8, 0, tzinfo=dt.UTC),
        )
        return [row][:limit]

    module = types.ModuleType("suggestions.selectors")
    module.suggestion_list_active = suggestion_list_active
    monkeypatch.setitem(sys.modules, "suggestions.selectors", module)
    return seen


def test_list_smart_suggestions_maps_the_contract_fields(alice, alice_ctx, fake_suggestions):
    outcome = call(alice_ctx, "list_smart_suggestions", {"limit": 3})

    assert outcome.output == {
        "suggestions": [
            {
                "id": 9,
                "kind": "goal_nudge",
                "title": "Top up your house goal",
                "body": "You are 2 months behind.",
                "cta_url": "/chat?prompt=house",
                "prompt": "How do I catch up on my house goal?",
                "status": "active",
                "created_at": "2026-11-29T08:00:00+00:00",
            }
        ]
    }
    assert fake_suggestions == {"user": alice, "limit": 3}


def test_the_welcome_card_starts_with_active_suggestions(alice_ctx, fake_suggestions):
    card = call(alice_ctx, "show_welcome_suggestions").card
    assert card["prompts"][0] == {"label": "Top up your house goal", "prompt": "How do I catch up on my house goal?"}
    assert len(card["prompts"]) <= 6
