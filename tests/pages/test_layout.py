"""The shared layout: navigation to every page, the unread count on Inbox, the current page marked."""

import pytest

from tests import factories
from zeus.services import notification_create

pytestmark = pytest.mark.django_db


def test_every_page_is_one_link_away(alice_web):
    html = alice_web.get("/plans").content.decode()
    for url in ["/", "/chat", "/transactions", "/budgets", "/goals", "/plans", "/inbox", "/settings"]:
        assert f'<a href="{url}"' in html
    assert '<a href="/plans" aria-current="page">' in html
    assert '<a href="/" aria-current' not in html


def test_the_inbox_link_counts_unread_notifications(alice_web, alice):
    for title in ["One", "Two"]:
        notification_create(user=alice, kind="insight", title=title)
    other = factories.user("bob")
    notification_create(user=other, kind="insight", title="Not alice's")
    html = alice_web.get("/plans").content.decode()
    assert 'id="nav-unread" data-count="2">' in html


def test_no_unread_hides_the_count(alice_web):
    html = alice_web.get("/plans").content.decode()
    assert 'data-count="0" hidden' in html


def test_signed_out_pages_have_no_navigation(client):
    html = client.get("/accounts/login/").content.decode()
    assert "mainnav" not in html
