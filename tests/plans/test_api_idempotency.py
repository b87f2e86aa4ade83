"""/api/v1/plans end to end through a token client, at a fixed instant (10 November 2026, noon in Saigon):
idempotency keys replay the first response, per user, and log an entry once."""

from decimal import Decimal

import pytest

from goals.models import Goal
from plans.models import IdempotencyRecord, MonthlyPlan
from tests import factories
from tests.plans.plan_requests import BODY, create_plan

pytestmark = pytest.mark.django_db


def test_the_same_idempotency_key_replays_the_first_response(clock, alice_api):
    headers = {"HTTP_IDEMPOTENCY_KEY": "create-1"}
    first = alice_api.post("/api/v1/plans", BODY, format="json", **headers)
    again = alice_api.post("/api/v1/plans", BODY, format="json", **headers)
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert again["Idempotent-Replayed"] == "true"
    assert MonthlyPlan.objects.count() == 1
    other = alice_api.post("/api/v1/plans", {**BODY, "expected_income": "30tr"}, format="json", **headers)
    assert other.status_code == 422
    assert other.json()["error"]["code"] == "IDEMPOTENCY_KEY_REUSED"
    assert MonthlyPlan.objects.count() == 1


def test_idempotency_keys_are_per_user_and_replay_errors_too(clock, alice_api, bob_api):
    headers = {"HTTP_IDEMPOTENCY_KEY": "k"}
    assert alice_api.post("/api/v1/plans", BODY, format="json", **headers).status_code == 201
    assert bob_api.post("/api/v1/plans", BODY, format="json", **headers).status_code == 201
    bad = {**BODY, "month": "nope"}
    assert alice_api.post("/api/v1/plans", bad, format="json", HTTP_IDEMPOTENCY_KEY="bad").status_code == 400
    replay = alice_api.post("/api/v1/plans", bad, format="json", HTTP_IDEMPOTENCY_KEY="bad")
    assert replay.status_code == 400 and replay["Idempotent-Replayed"] == "true"
    assert IdempotencyRecord.objects.count() == 3


def test_an_idempotent_entry_is_logged_once(clock, alice, alice_api):
    goal = factories.goal(alice)
    plan = create_plan(alice_api, primary_goal_id=goal.id)
    alice_api.post(f"/api/v1/plans/{plan['id']}/activate", HTTP_IDEMPOTENCY_KEY="a1")
    assert alice_api.post(f"/api/v1/plans/{plan['id']}/activate", HTTP_IDEMPOTENCY_KEY="a1").status_code == 200
    for _ in range(3):
        response = alice_api.post(
            f"/api/v1/plans/{plan['id']}/entries",
            {"kind": "goal", "amount": "100000"},
            format="json",
            HTTP_IDEMPOTENCY_KEY="e1",
        )
        assert response.status_code == 201
    assert Goal.objects.get(id=goal.id).current_amount == Decimal("100000")
