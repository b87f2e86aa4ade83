from suggestions.models import Suggestion
from tests.suggestions.factories import suggestion

FIELDS = {"id", "kind", "title", "body", "cta_url", "prompt", "status", "created_at"}


def test_it_lists_the_active_suggestions_newest_first(alice, alice_api):
    older = suggestion(alice, key="a")
    newer = suggestion(alice, key="b", kind="goal_nudge", title="House is behind schedule")
    suggestion(alice, key="c", status="dismissed")

    response = alice_api.get("/api/v1/suggestions")

    assert response.status_code == 200
    body = response.json()
    assert [s["id"] for s in body["results"]] == [newer.id, older.id]
    assert set(body["results"][0]) == FIELDS
    assert body["results"][0]["kind"] == "goal_nudge"
    assert body["next"] is None


def test_it_filters_by_status(alice, alice_api):
    suggestion(alice, key="a")
    dismissed = suggestion(alice, key="b", status="dismissed")
    assert [s["id"] for s in alice_api.get("/api/v1/suggestions?status=dismissed").json()["results"]] == [dismissed.id]
    assert len(alice_api.get("/api/v1/suggestions?status=all").json()["results"]) == 2


def test_it_refuses_an_unknown_status(alice_api):
    response = alice_api.get("/api/v1/suggestions?status=later")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"


def test_it_pages_with_a_cursor(alice, alice_api):
    for n in range(3):
        suggestion(alice, key=f"k{n}")
    first = alice_api.get("/api/v1/suggestions?page_size=2").json()
    assert len(first["results"]) == 2
    second = alice_api.get(first["next"]).json()
    assert len(second["results"]) == 1
    assert {s["id"] for s in first["results"]}.isdisjoint(s["id"] for s in second["results"])


def test_it_shows_only_the_users_own_suggestions(alice, bob, bob_api):
    suggestion(alice, key="a")
    assert bob_api.get("/api/v1/suggestions").json()["results"] == []


def test_it_needs_authentication(anon_api):
    assert anon_api.get("/api/v1/suggestions").status_code in (401, 403)


def test_dismiss_hides_it_from_the_active_list(alice, alice_api):
    s = suggestion(alice, key="a")
    response = alice_api.post(f"/api/v1/suggestions/{s.id}/dismiss")
    assert response.status_code == 200
    assert response.json()["status"] == "dismissed"
    assert alice_api.get("/api/v1/suggestions").json()["results"] == []


def test_complete_marks_it_completed(alice, alice_api):
    s = suggestion(alice, key="a")
    response = alice_api.post(f"/api/v1/suggestions/{s.id}/complete")
    assert response.status_code == 200
    assert response.json()["status"] == "completed"
    s.refresh_from_db()
    assert s.status == Suggestion.Status.COMPLETED


def test_repeating_the_same_close_is_harmless(alice, alice_api):
    s = suggestion(alice, key="a")
    alice_api.post(f"/api/v1/suggestions/{s.id}/dismiss")
    response = alice_api.post(f"/api/v1/suggestions/{s.id}/dismiss")
    assert response.status_code == 200
    assert response.json()["status"] == "dismissed"


def test_dismissing_a_completed_suggestion_is_a_conflict(alice, alice_api):
    s = suggestion(alice, key="a", status="completed")
    response = alice_api.post(f"/api/v1/suggestions/{s.id}/dismiss")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "SUGGESTION_CLOSED"
    s.refresh_from_db()
    assert s.status == "completed"


def test_completing_a_dismissed_suggestion_is_a_conflict(alice, alice_api):
    s = suggestion(alice, key="a", status="dismissed")
    assert alice_api.post(f"/api/v1/suggestions/{s.id}/complete").status_code == 409


def test_it_refuses_another_users_suggestion(alice, bob_api):
    s = suggestion(alice, key="a")
    for action in ("dismiss", "complete"):
        response = bob_api.post(f"/api/v1/suggestions/{s.id}/{action}")
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "NOT_FOUND"
    s.refresh_from_db()
    assert s.status == "active"


def test_an_unknown_id_is_a_404(alice_api):
    assert alice_api.post("/api/v1/suggestions/999999/dismiss").status_code == 404
