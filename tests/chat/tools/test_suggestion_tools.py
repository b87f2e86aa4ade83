"""The suggestion tools read the suggestions app's active rows through its selector."""

import pytest

from suggestions.models import Suggestion
from tests.chat.tools.helpers import call

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def house_nudge(alice):
    return Suggestion.objects.create(
        user=alice,
        kind=Suggestion.Kind.values[0],
        title="Top up your house goal",
        body="You are 2 months behind.",
        cta_url="/chat?prompt=house",
        prompt="How do I catch up on my house goal?",
        dedupe_key="house-nudge",
    )


def test_list_smart_suggestions_maps_the_contract_fields(alice, bob, alice_ctx, house_nudge):
    Suggestion.objects.create(user=bob, kind=house_nudge.kind, title="Bob's", prompt="p", dedupe_key="bob")
    Suggestion.objects.create(
        user=alice, kind=house_nudge.kind, title="Done", dedupe_key="done", status=Suggestion.Status.COMPLETED
    )

    outcome = call(alice_ctx, "list_smart_suggestions", {"limit": 3})

    assert outcome.output == {
        "suggestions": [
            {
                "id": house_nudge.id,
                "kind": house_nudge.kind,
                "title": "Top up your house goal",
                "body": "You are 2 months behind.",
                "cta_url": "/chat?prompt=house",
                "prompt": "How do I catch up on my house goal?",
                "status": "active",
                "created_at": house_nudge.created_at.isoformat(),
            }
        ]
    }


def test_the_welcome_card_starts_with_active_suggestions(alice_ctx, house_nudge):
    card = call(alice_ctx, "show_welcome_suggestions").card
    assert card["prompts"][0] == {"label": "Top up your house goal", "prompt": "How do I catch up on my house goal?"}
    assert len(card["prompts"]) <= 6
