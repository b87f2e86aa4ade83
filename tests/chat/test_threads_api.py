import pytest

from chat.models import ProviderKey
from tests.chat import factories as chat


@pytest.mark.django_db
def test_it_creates_a_thread_without_a_title(alice_api):
    response = alice_api.post("/api/v1/chat/threads")
    assert response.status_code == 201
    body = response.json()
    assert body["title"] is None
    assert set(body) >= {"id", "title", "created_at"}


@pytest.mark.django_db
def test_it_lists_only_the_users_threads_newest_activity_first(alice, bob, alice_api):
    older = chat.thread(alice)
    newer = chat.thread(alice)
    chat.thread(bob)
    chat.user_message(older, "now the oldest is the newest")
    ids = [t["id"] for t in alice_api.get("/api/v1/chat/threads").json()["results"]]
    assert ids == [str(older.id), str(newer.id)]


@pytest.mark.django_db
def test_history_pages_go_back_in_time_oldest_first_within_a_page(alice, alice_api):
    thread = chat.thread(alice)
    for n in range(5):
        chat.user_message(thread, f"m{n}")
    first = alice_api.get(f"/api/v1/chat/threads/{thread.id}/messages?limit=2").json()
    assert [m["parts"][0]["text"] for m in first["messages"]] == ["m3", "m4"]
    assert first["has_more"] is True
    assert first["context_limit"] == 10
    second = alice_api.get(f"/api/v1/chat/threads/{thread.id}/messages?limit=2&before={first['prev_cursor']}").json()
    assert [m["parts"][0]["text"] for m in second["messages"]] == ["m1", "m2"]
    third = alice_api.get(f"/api/v1/chat/threads/{thread.id}/messages?limit=2&before={second['prev_cursor']}").json()
    assert [m["parts"][0]["text"] for m in third["messages"]] == ["m0"]
    assert third["has_more"] is False
    assert third["prev_cursor"] is None
    assert set(third["messages"][0]) == {"id", "role", "parts", "metadata", "created_at"}


@pytest.mark.django_db
@pytest.mark.parametrize("query", ["before=%%%", "before=bm90LWEtY3Vyc29y", "limit=0", "limit=101", "limit=ten"])
def test_it_refuses_a_bad_cursor_or_limit(alice, alice_api, query):
    thread = chat.thread(alice)
    response = alice_api.get(f"/api/v1/chat/threads/{thread.id}/messages?{query}")
    assert response.status_code == 400
    assert "code" in response.json()["error"]


@pytest.mark.django_db
@pytest.mark.parametrize("thread_id", ["bobs", "not-a-uuid", "00000000-0000-0000-0000-000000000000"])
def test_it_refuses_another_users_thread_or_an_unknown_one(alice_api, bob, thread_id):
    if thread_id == "bobs":
        thread_id = chat.thread(bob).id
    response = alice_api.get(f"/api/v1/chat/threads/{thread_id}/messages")
    assert response.status_code == 404


@pytest.mark.django_db
def test_the_provider_key_is_stored_encrypted_and_never_returned(alice, alice_api):
    secret = "sk-ant-test-0123456789abcdefghij"
    response = alice_api.put("/api/v1/chat/provider-key", {"api_key": secret}, format="json")
    assert response.json() == {"has_key": True}
    assert secret not in ProviderKey.objects.get(user=alice).ciphertext
    assert alice_api.get("/api/v1/chat/provider-key").json() == {"has_key": True}
    assert alice_api.delete("/api/v1/chat/provider-key").json() == {"has_key": False}
    assert not ProviderKey.objects.filter(user=alice).exists()


@pytest.mark.django_db
def test_it_refuses_something_that_is_not_a_key(alice_api):
    response = alice_api.put("/api/v1/chat/provider-key", {"api_key": "short"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_API_KEY"


@pytest.mark.django_db
def test_the_settings_page_saves_and_clears_the_key_with_csrf(alice):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    page = client.get("/chat/settings")
    assert page.status_code == 200
    token = page.cookies["csrftoken"].value
    assert client.post("/chat/settings", {"api_key": "sk-ant-x" * 4}).status_code == 403
    saved = client.post("/chat/settings", {"api_key": "sk-ant-x" * 4, "csrfmiddlewaretoken": token})
    assert saved.status_code == 302
    assert ProviderKey.objects.filter(user=alice).exists()
    assert "sk-ant-x" not in client.get("/chat/settings").content.decode()
    client.post("/chat/settings", {"action": "clear", "csrfmiddlewaretoken": token})
    assert not ProviderKey.objects.filter(user=alice).exists()


@pytest.mark.django_db
def test_the_settings_page_needs_a_login(client):
    assert client.get("/chat/settings").status_code == 302


@pytest.mark.django_db
def test_a_history_page_costs_a_fixed_number_of_queries(alice, alice_api, django_assert_max_num_queries):
    thread = chat.thread(alice)
    for n in range(30):
        chat.user_message(thread, f"m{n}")
        chat.assistant_message(thread, f"a{n}")
    with django_assert_max_num_queries(4):
        response = alice_api.get(f"/api/v1/chat/threads/{thread.id}/messages?limit=50")
    assert len(response.json()["messages"]) == 50


@pytest.mark.django_db
def test_the_first_message_names_the_thread_and_later_ones_do_not(alice, alice_api):
    thread = chat.thread(alice)
    chat.user_message(thread, "  How much   did I spend on food?  ")
    chat.user_message(thread, "and on transport?")
    listed = alice_api.get("/api/v1/chat/threads").json()["results"][0]
    assert listed["title"] == "How much did I spend on food?"
