"""/inbox (read state, opening into the chat, the live feed) and /settings (profile, key, MCP token)."""

import pytest

from chat.models import McpToken
from zeus.models import Notification
from zeus.services import notification_create

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/inbox", "/inbox/", "/settings", "/settings/", "/chat/", "/plans/"])
def test_pages_answer_with_and_without_the_slash(alice_web, url):
    assert alice_web.get(url).status_code == 200


def test_the_inbox_shows_read_state_and_opens_an_insight_into_the_chat(alice_web, alice, bob):
    insight = notification_create(user=alice, kind="insight", title="Dining is up", cta_url="/chat?prompt=Why%3F")
    notification_create(user=alice, kind="plan_reminder", title="Check in")
    notification_create(user=bob, kind="insight", title="Bob's")
    html = alice_web.get("/inbox").content.decode()
    assert "Dining is up" in html and "Bob's" not in html
    assert html.count('class="unread"') == 2
    opened = alice_web.post(f"/inbox/{insight.id}/read", {"open": "1"})
    assert opened.status_code == 302 and opened["Location"] == "/chat?prompt=Why%3F"
    insight.refresh_from_db()
    assert insight.read_at is not None
    assert alice_web.get("/inbox").content.decode().count('class="unread"') == 1


def test_a_notification_link_elsewhere_is_not_followed(alice_web, alice):
    note = notification_create(user=alice, kind="insight", title="x", cta_url="https://evil.example/")
    assert alice_web.post(f"/inbox/{note.id}/read", {"open": "1"})["Location"] == "/inbox"


def test_mark_all_read_and_the_live_feed(alice_web, alice):
    for i in range(3):
        notification_create(user=alice, kind="insight", title=f"n{i}")
    feed = alice_web.get("/inbox/feed").json()
    assert feed["unread"] == 3 and [n["title"] for n in feed["results"]] == ["n2", "n1", "n0"]
    alice_web.post("/inbox/read-all")
    assert not Notification.objects.filter(user=alice, read_at__isnull=True).exists()
    assert alice_web.get("/inbox/feed").json()["unread"] == 0


def test_settings_saves_the_profile_and_speaks_the_new_language(alice_web, alice):
    form = {"display_name": "Alice N.", "currency": "USD", "timezone": "Europe/Paris", "language": "vi"}
    response = alice_web.post("/settings", form, follow=True)
    alice.profile.refresh_from_db()
    assert (alice.profile.display_name, alice.profile.currency, alice.profile.timezone, alice.profile.language) == (
        "Alice N.", "USD", "Europe/Paris", "vi"
    )  # fmt: skip
    assert "Đã lưu cài đặt." in response.content.decode()


@pytest.mark.parametrize(
    "change,field",
    [({"timezone": "Mars/Base"}, "timezone"), ({"currency": "XYZ"}, "currency"), ({"currency": "XDR"}, "currency"),
     ({"language": "fr"}, "language"),
     ({"display_name": "x" * 101}, "display_name")],
)  # fmt: skip
def test_bad_settings_are_named_next_to_the_field_and_nothing_saved(alice_web, alice, change, field):
    form = {"display_name": "A", "currency": "VND", "timezone": "Asia/Ho_Chi_Minh", "language": "en", **change}
    response = alice_web.post("/settings", form)
    assert response.status_code == 400 and f'id="id_{field}_error"' in response.content.decode()
    alice.profile.refresh_from_db()
    assert (alice.profile.display_name, alice.profile.currency) == ("", "VND")


def test_settings_holds_the_model_key_and_the_mcp_token(alice_web, alice):
    html = alice_web.get("/settings").content.decode()
    assert 'action="/chat/settings"' in html and 'action="/chat/mcp-token"' in html
    for link in ["/settings/notifications", "/settings/bank-feeds", "/settings/rules"]:
        assert f'href="{link}"' in html
    created = alice_web.post("/chat/mcp-token", {"action": "create", "next": "/settings"})
    raw = created.context["raw_token"]
    assert raw.startswith(McpToken.PREFIX) and raw in created.content.decode()
    assert "no-store" in created["Cache-Control"] or "max-age=0" in created["Cache-Control"]
    assert raw not in alice_web.get("/settings").content.decode()
    alice_web.post("/chat/mcp-token", {"action": "revoke", "next": "/settings"})
    assert not McpToken.objects.filter(user=alice, revoked_at__isnull=True).exists()
