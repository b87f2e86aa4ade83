"""The card flows end to end on this side of the seam: router → tool → card → ui_event → user turn → router →
tool, with the model's choices played by the test."""

import json

import pytest

from assets.models import Transaction
from chat.router import route_by_patterns
from chat.ui_events import GOAL_FORM_PREFIX, ui_event_to_turn
from goals.models import Goal
from tests import factories
from tests.chat.tools.helpers import call, ctx_for, decide

pytestmark = pytest.mark.django_db(transaction=True)


def test_kfc_150k_asks_for_the_asset_and_records_the_transaction_once(alice):
    factories.asset(alice, name="Cash")
    momo = factories.asset(alice, name="MoMo", kind="e_wallet")

    route = route_by_patterns(["KFC 150k"])
    ctx = ctx_for(alice, allowed_tools=route.tools)
    asked = call(ctx, "create_manual_transaction", {"amount": "150k", "description": "KFC"}, call_id="toolu_a")
    assert asked.card["kind"] == "asset_selector" and not Transaction.objects.exists()

    picked_id = next(a["id"] for a in asked.card["assets"] if a["name"] == "MoMo")
    turn = ui_event_to_turn(asked.card["event"], {"asset_id": picked_id})
    follow_up = route_by_patterns(["KFC 150k", turn], "Which asset was this paid from?")
    assert follow_up.workflow == "create"

    ctx = ctx_for(alice, thread_id=ctx.thread_id, allowed_tools=follow_up.tools)
    args = {"amount": "150k", "description": "KFC", "asset_id": picked_id}
    created = call(ctx, "create_manual_transaction", args, call_id="toolu_b")
    replayed = call(ctx, "create_manual_transaction", args, call_id="toolu_b")

    txn = Transaction.objects.get(user=alice)
    assert (txn.asset_id, txn.amount, txn.description) == (momo.id, 150000, "KFC")
    assert created.card["kind"] == "result_summary" and replayed == created


def test_a_goal_form_submission_creates_the_goal_from_its_json(alice):
    route = route_by_patterns(["I want to buy a house in 10 years"])
    assert route.workflow == "coach"
    ctx = ctx_for(alice, allowed_tools=route.tools)
    form = call(ctx, "show_goal_planning_form", {"kind": "house", "deadline": "10 years"}).card
    assert form["kind"] == "goal_form"

    values = {f["name"]: f["value"] for f in form["fields"]} | {"name": "Nhà đầu tiên", "target_amount": "2 tỷ"}
    turn = ui_event_to_turn("form_submit", {"intent": form["intent"], "values": values})
    assert route_by_patterns([turn]).workflow == "coach"

    goal_input = json.loads(turn.removeprefix(GOAL_FORM_PREFIX))
    created = call(ctx, "create_goal", goal_input)

    goal = Goal.objects.get(user=alice)
    assert (goal.name, goal.kind, goal.target_amount) == ("Nhà đầu tiên", "house", 2_000_000_000)
    assert goal.deadline.isoformat() == values["deadline"]
    assert created.card["status"] == "created"


def test_a_confirmed_delete_runs_once_and_becomes_a_routed_turn(alice):
    txn = factories.txn(alice, description="KFC")
    route = route_by_patterns(["delete the KFC transaction"])
    ctx = ctx_for(alice, allowed_tools=route.tools)

    confirm = call(ctx, "delete_manual_transaction", {"transaction_id": txn.id}).card
    outcome = decide(ctx, confirm["approval_id"], "approve")
    turn = ui_event_to_turn(
        "confirm_result", {"tool": confirm["tool"], "decision": "approve", "output": outcome.output}
    )

    assert not Transaction.objects.exists()
    assert route_by_patterns(["delete the KFC transaction", turn]).workflow == "delete"
    assert decide(ctx, confirm["approval_id"], "approve").output["error"]["code"] == "APPROVAL_USED"
