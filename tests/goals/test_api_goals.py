import datetime as dt

import pytest

from goals.models import Goal
from goals.progress import resolve_deadline
from tests import factories
from tests.assets.helpers import assert_error
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db


def test_it_creates_a_goal_with_a_relative_deadline_and_derived_figures(alice_api, alice):
    response = alice_api.post(
        "/api/v1/goals",
        {"name": "Emergency fund", "kind": "emergency_fund", "target_amount": "120tr", "deadline": "12 months"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    today = user_today(alice)
    assert body == {
        "id": body["id"],
        "name": "Emergency fund",
        "kind": "emergency_fund",
        "target_amount": "120000000",
        "current_amount": "0",
        "currency": "VND",
        "deadline": resolve_deadline("12 months", today=today).isoformat(),
        "status": "active",
        "progress_pct": "0.0",
        "monthly_needed": "10000000",
        "on_track": True,
    }


def test_a_goal_with_an_absolute_deadline_and_progress(alice_api, alice):
    deadline = (user_today(alice) + dt.timedelta(days=800)).isoformat()
    body = alice_api.post(
        "/api/v1/goals",
        {
            "name": "House",
            "kind": "house",
            "target_amount": 2000,
            "current_amount": "500",
            "deadline": deadline,
            "currency": "USD",
        },
        format="json",
    ).json()
    assert (body["target_amount"], body["current_amount"], body["currency"]) == ("2000.00", "500.00", "USD")
    assert body["deadline"] == deadline
    assert body["progress_pct"] == "25.0"


def test_reaching_the_target_marks_the_goal_achieved(alice_api, alice):
    goal = factories.goal(alice, target_amount="1000000")
    body = alice_api.patch(f"/api/v1/goals/{goal.id}", {"current_amount": "1tr"}, format="json").json()
    assert (body["status"], body["progress_pct"], body["monthly_needed"], body["on_track"]) == (
        "achieved",
        "100.0",
        "0",
        True,
    )


def test_a_goal_behind_its_straight_line_is_not_on_track(alice_api, alice):
    today = user_today(alice)
    goal = factories.goal(
        alice,
        target_amount="1200000",
        current_amount="0",
        started_on=today - dt.timedelta(days=180),
        deadline=today + dt.timedelta(days=185),
    )
    body = alice_api.get(f"/api/v1/goals/{goal.id}").json()
    assert body["on_track"] is False
    assert int(body["monthly_needed"]) >= 1200000 // 7


def test_it_lists_goals_newest_first_and_filters_by_status(alice_api, alice, bob):
    old = factories.goal(alice, name="Old")
    done = factories.goal(alice, name="Done", target_amount="100", current_amount="100")
    Goal.objects.filter(id=done.id).update(status="achieved")
    factories.goal(bob)
    assert [g["id"] for g in alice_api.get("/api/v1/goals").json()["results"]] == [done.id, old.id]
    assert [g["id"] for g in alice_api.get("/api/v1/goals?status=active").json()["results"]] == [old.id]
    assert [g["id"] for g in alice_api.get("/api/v1/goals?status=achieved").json()["results"]] == [done.id]
    assert_error(alice_api.get("/api/v1/goals?status=lost"), 400)


def test_the_goal_list_does_a_bounded_number_of_queries(alice_api, alice, django_assert_max_num_queries):
    for i in range(20):
        factories.goal(alice, name=f"G{i}")
    with django_assert_max_num_queries(4):
        assert len(alice_api.get("/api/v1/goals").json()["results"]) == 20


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "house", "target_amount": "1tr", "deadline": "5 years"}, "name"),
        ({"name": "X", "kind": "yacht", "target_amount": "1tr", "deadline": "5 years"}, "kind"),
        ({"name": "X", "kind": "house", "deadline": "5 years"}, "target_amount"),
        ({"name": "X", "kind": "house", "target_amount": "0", "deadline": "5 years"}, "target_amount"),
        ({"name": "X", "kind": "house", "target_amount": "-1", "deadline": "5 years"}, "target_amount"),
        ({"name": "X", "kind": "house", "target_amount": "1tr"}, "deadline"),
        ({"name": "X", "kind": "house", "target_amount": "1tr", "deadline": "someday"}, "deadline"),
        ({"name": "X", "kind": "house", "target_amount": "1tr", "deadline": "2020-01-01"}, "deadline"),
        ({"name": "X", "kind": "house", "target_amount": "1tr", "deadline": "2030-02-30"}, "deadline"),
        ({"name": "X", "kind": "house", "target_amount": "1tr", "deadline": "0 days"}, "deadline"),
        ({"name": "X", "kind": "house", "target_amount": "1tr", "deadline": "5 years", "currency": "Q"}, "currency"),
        (
            {"name": "X", "kind": "house", "target_amount": "1tr", "deadline": "5 years", "current_amount": "x"},
            "current_amount",
        ),
    ],
)
def test_it_refuses_a_bad_goal(alice_api, body, field):
    error = assert_error(alice_api.post("/api/v1/goals", body, format="json"), 400)
    assert field in error["fields"], error
    assert not Goal.objects.exists()


def test_a_bad_patch_changes_nothing(alice_api, alice):
    goal = factories.goal(alice, name="House", target_amount="1000000")
    response = alice_api.patch(f"/api/v1/goals/{goal.id}", {"name": "Flat", "deadline": "yesterday"}, format="json")
    assert_error(response, 400)
    goal.refresh_from_db()
    assert goal.name == "House"


def test_it_updates_the_deadline_relatively_and_deletes(alice_api, alice):
    goal = factories.goal(alice)
    body = alice_api.patch(f"/api/v1/goals/{goal.id}", {"deadline": "18 months"}, format="json").json()
    assert body["deadline"] == resolve_deadline("18 months", today=user_today(alice)).isoformat()
    assert alice_api.delete(f"/api/v1/goals/{goal.id}").status_code == 204
    assert not Goal.objects.exists()


@pytest.mark.parametrize("method", ["get", "patch", "delete"])
def test_it_answers_404_for_another_users_goal(alice_api, bob, method):
    goal = factories.goal(bob, name="Bob's")
    response = getattr(alice_api, method)(f"/api/v1/goals/{goal.id}", {"name": "Mine"}, format="json")
    assert_error(response, 404, "NOT_FOUND")
    goal.refresh_from_db()
    assert goal.name == "Bob's"
