"""Live notifications: a toast and a bell whose count comes from the real notifications API."""

import pytest

from zeus.models import Notification
from zeus.services import notification_create, profile_update

pytestmark = pytest.mark.browser


def test_a_live_notification_shows_a_toast_and_bumps_the_bell(open_chat, django_user_model):
    user = django_user_model.objects.create_user(username="noted", password="correct horse battery staple")
    profile_update(user=user, language="en")  # a new profile reads Vietnamese; this test reads the English
    notification_create(user=user, kind="insight", title="Dining is up 40% this week", body="Mostly delivery.")
    chat = open_chat(user=user)
    count = chat.page.locator("#bell-count")
    count.wait_for()
    assert count.inner_text() == "1"

    chat.emit(
        {
            "type": "notification",
            "notification": {
                "id": 999,
                "kind": "plan_reminder",
                "title": "Log today's spending",
                "body": "You have 180,000 ₫ left for today.",
                "cta_url": "/plans",
                "read_at": None,
                "created_at": "2026-11-29T13:00:00Z",
            },
        }
    )
    toast = chat.page.locator(".toast", has_text="Log today's spending")
    toast.wait_for()
    assert count.inner_text() == "2"
    assert chat.page.locator("#bell").get_attribute("aria-label") == "Notifications, 2 unread"
    chat.shot("21_notification_toast")

    chat.page.click("#bell")
    inbox = chat.page.locator("#inbox")
    assert "Dining is up 40% this week" in inbox.inner_text()
    assert inbox.get_by_role("link", name="Open").get_attribute("href").endswith("/plans")
    chat.shot("22_inbox")
    chat.page.keyboard.press("Escape")
    assert inbox.is_hidden()
    assert chat.page.evaluate("() => document.activeElement.id") == "bell"

    chat.page.click("#bell")
    chat.page.click("#read-all")
    count.wait_for(state="hidden")
    assert not Notification.objects.filter(user=user, read_at__isnull=True).exists()
