"""End to end: headless Chromium against the running app (daphne serving zeus.asgi:application with the real
websocket consumer, agent loop, tool catalog and cards) and the offline Anthropic-compatible model server.
Nothing is faked in the page: the model's replies are scripted as a function of what it is sent.
Here: what arrives live on an open page: a notification as a toast and on the bell, a staff reply."""

import re

import pytest

from chat.admin_reply import admin_reply_send
from tests import factories
from tests.chat import factories as chat_factories
from tests.chat.fake_anthropic import text
from zeus.services import notification_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_notification_arrives_live_as_a_toast_and_on_the_bell(open_app, model, daphne_server, settings):
    user = factories.user("e2e_notify")
    app = open_app(user)
    assert app.page.locator("#bell-count").is_hidden()
    run_everywhere(daphne_server, settings, notification_create, user=user, kind="reminder", title="Rent is due")
    toast = app.page.locator(".toast", has_text="Rent is due")
    toast.wait_for()
    assert app.page.locator("#bell-count").inner_text() == "1"
    app.shot("13_notification")

    # The inbox the page reads over REST agrees after a reload.
    app.page.reload()
    app.wait_ready()
    app.page.wait_for_function("() => document.getElementById('bell-count').textContent === '1'")
    app.page.click("#bell")
    assert "Rent is due" in app.page.locator("#inbox-list").inner_text()
    app.shot("14_inbox_after_reload")


def test_a_staff_reply_reaches_the_open_page_and_its_notification_opens_that_thread(
    open_app, model, daphne_server, settings
):
    user = factories.user("e2e_staff_reply")
    # Staff who hold the reply permission (chat.admin_reply.may_reply).
    staff = factories.user("e2e_staff", is_staff=True, is_superuser=True)
    older = chat_factories.thread(user)
    chat_factories.user_message(older, "Why was my card declined?")
    model.responder = lambda body: text("Our team checked: the bank declined it; nothing was charged.")
    app = open_app(user)
    app.page.click("#new-thread")
    app.page.wait_for_url(re.compile(rf"/chat/(?!{older.id})"))
    app.wait_ready()

    run_everywhere(daphne_server, settings, admin_reply_send, staff_user=staff, thread_id=older.id, prompt="Explain")
    app.page.locator(".toast", has_text="Zeus has a new reply for you").wait_for()
    app.page.click("#bell")
    app.page.locator("#inbox-list a", has_text="Open").click()
    app.page.wait_for_url(f"**/chat/{older.id}")
    app.wait_ready()
    reply = app.page.locator("#messages .msg-assistant.from-staff")
    reply.wait_for()
    assert "nothing was charged" in reply.inner_text()
    assert "from the Zeus team" in reply.locator(".msg-meta").inner_text()
    app.shot("17_staff_reply")

    # Open on that thread, the next staff reply arrives live as a message.
    model.responder = lambda body: text("One more thing: the refund is on its way.")
    run_everywhere(daphne_server, settings, admin_reply_send, staff_user=staff, thread_id=older.id, prompt="More")
    app.page.locator(".msg-assistant.from-staff", has_text="refund is on its way").wait_for()
    assert app.page.locator(".msg-assistant.from-staff").count() == 2


def run_everywhere(daphne_server, settings, fn, **kwargs):
    """Runs a service whose push travels the channel layer to the server's sockets: through Redis when it is
    configured (from a thread of its own, like a Celery worker), else on the server's loop, where the
    in-memory layer lives."""
    if settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("RedisChannelLayer"):
        return in_a_worker_thread(fn, **kwargs)
    return daphne_server.call(fn, **kwargs)


def in_a_worker_thread(fn, **kwargs):
    # Playwright keeps an event loop on the test's thread, where async_to_sync (the push) cannot run.
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connections

    def run():
        try:
            return fn(**kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result(10)
