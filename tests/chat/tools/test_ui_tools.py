import pytest

from assets.models import Asset, Transaction
from goals.models import Goal
from tests.chat.tools.helpers import call

pytestmark = pytest.mark.django_db(transaction=True)


def test_welcome_suggestions_make_a_welcome_card(alice_ctx):
    outcome = call(alice_ctx, "show_welcome_suggestions")
    card = outcome.card
    assert card["kind"] == "welcome" and card["version"] == 1 and card["event"] == "action_selected"
    assert 1 <= len(card["prompts"]) <= 6
    assert all(set(p) == {"label", "prompt"} for p in card["prompts"])


def test_suggest_asset_creation_offers_first_assets(alice_ctx):
    card = call(alice_ctx, "suggest_asset_creation").card
    assert card["kind"] == "asset_suggestions" and card["event"] == "quick_create_selected"
    assert {o["kind"] for o in card["options"]} >= {"cash", "bank_account", "e_wallet"}


def test_quick_form_is_validated_and_becomes_a_card(alice_ctx):
    fields = [
        {"name": "amount", "label": "Amount", "type": "number", "required": True},
        {"name": "category", "label": "Category", "type": "select", "options": ["dining", "transport"]},
        {"name": "day", "label": "Day", "type": "date"},
    ]
    outcome = call(alice_ctx, "show_quick_form", {"title": "New expense", "fields": fields, "intent": "create_txn"})

    card = outcome.card
    assert card["kind"] == "quick_form" and card["intent"] == "create_txn" and card["event"] == "form_submit"
    assert card["fields"][1]["options"] == ["dining", "transport"]
    assert card["fields"][2]["required"] is False


@pytest.mark.parametrize(
    "bad",
    [
        {"title": "x", "fields": [], "intent": "a"},
        {"title": "x", "fields": [{"name": "a", "label": "A", "type": "color"}], "intent": "a"},
        {"title": "x", "fields": [{"name": "a", "label": "A", "type": "select"}], "intent": "a"},
        {"title": "x", "fields": [{"name": "a", "label": "A", "type": "text", "options": ["o"]}], "intent": "a"},
        {"title": "x", "fields": [{"name": "a", "label": "A", "type": "text"}] * 2, "intent": "a"},
        {"title": "x", "fields": [{"name": "A B", "label": "A", "type": "text"}], "intent": "a"},
        {"title": "x", "fields": [{"name": "a", "label": "A", "type": "text", "html": "<b>"}], "intent": "a"},
        {"title": "   ", "fields": [{"name": "a", "label": "A", "type": "text"}], "intent": "a"},
        {"title": "x", "fields": [{"name": "a", "label": "A", "type": "text"}], "intent": "Drop table"},
        {"title": "x", "fields": [{"name": "a", "label": "A", "type": "text"}]},
    ],
)
def test_quick_form_refuses_malformed_specs(alice_ctx, bad):
    outcome = call(alice_ctx, "show_quick_form", bad)
    assert outcome.is_error and outcome.card is None


def test_goal_planning_form_is_prefilled_and_resolved(alice_ctx):
    outcome = call(
        alice_ctx,
        "show_goal_planning_form",
        {"kind": "house", "name": "Nhà", "target_amount": "2 tỷ", "deadline": "10 years"},
    )
    card = outcome.card
    assert card["kind"] == "goal_form" and card["intent"] == "create_goal" and card["event"] == "form_submit"
    values = {f["name"]: f["value"] for f in card["fields"]}
    assert values["name"] == "Nhà" and values["kind"] == "house" and values["target_amount"] == "2000000000"
    assert values["deadline"] == alice_ctx.today.replace(year=alice_ctx.today.year + 10).isoformat()
    assert call(alice_ctx, "show_goal_planning_form").card["kind"] == "goal_form"


@pytest.mark.parametrize(
    "bad", [{"kind": "yacht"}, {"target_amount": "a lot"}, {"deadline": "soon"}, {"deadline": "2000-01-01"}]
)
def test_goal_planning_form_refuses_bad_prefills(alice_ctx, bad):
    assert call(alice_ctx, "show_goal_planning_form", bad).is_error


def test_quick_create_and_smart_actions(alice_ctx):
    quick = call(alice_ctx, "show_quick_create_suggestion", {"items": [{"kind": "cash", "name": "Cash"}]}).card
    actions = call(
        alice_ctx, "show_smart_actions", {"actions": [{"label": "This month", "prompt": "How much did I spend?"}]}
    ).card
    # each item carries its kind's name in the reader's language, for the option's second line
    assert quick["kind"] == "quick_create" and quick["items"] == [
        {"kind": "cash", "name": "Cash", "description": "Cash"}
    ]
    assert actions["kind"] == "smart_actions" and actions["actions"][0]["prompt"] == "How much did I spend?"
    assert call(alice_ctx, "show_quick_create_suggestion", {"items": [{"kind": "boat", "name": "x"}]}).is_error
    assert call(alice_ctx, "show_smart_actions", {"actions": [{"label": "x", "prompt": "y"}] * 7}).is_error
    assert call(alice_ctx, "show_smart_actions", {"actions": [{"label": "", "prompt": "y"}]}).is_error


def test_ui_tools_write_nothing(alice_ctx):
    call(alice_ctx, "show_goal_planning_form", {"kind": "house", "target_amount": "2 tỷ", "deadline": "10 years"})
    call(alice_ctx, "suggest_asset_creation")
    assert not (Goal.objects.exists() or Asset.objects.exists() or Transaction.objects.exists())
