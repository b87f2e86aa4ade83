"""The /chat view itself, without a browser: login required, config for the page, no inline script."""

import json
import uuid

import pytest
from django.test import Client

from tests import factories


@pytest.fixture
def alice_web(alice):
    client = Client()
    client.force_login(alice)
    return client


def page_config(response):
    html = response.content.decode()
    start = html.index('<script id="chat-config" type="application/json">') + len(
        '<script id="chat-config" type="application/json">'
    )
    return json.loads(html[start : html.index("</script>", start)])


def test_it_sends_anonymous_visitors_to_the_login_page(db):
    response = Client().get("/chat")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/chat"


def test_it_renders_the_page_with_the_users_currency(alice_web, alice):
    response = alice_web.get("/chat?prompt=KFC%20150k")
    assert response.status_code == 200
    assert page_config(response) == {"threadId": None, "currency": "VND", "username": "alice"}
    html = response.content.decode()
    assert 'type="module" src="/static/chat/app.js"' in html
    assert 'data-csrf="' in html


def test_a_thread_url_passes_its_id_to_the_page(alice_web):
    thread_id = uuid.uuid4()
    response = alice_web.get(f"/chat/{thread_id}")
    assert page_config(response)["threadId"] == str(thread_id)


def test_a_usd_user_gets_usd_amounts(db):
    client = Client()
    client.force_login(factories.user("dollar", currency="USD"))
    assert page_config(client.get("/chat"))["currency"] == "USD"


def test_it_refuses_a_post(alice_web):
    assert alice_web.post("/chat").status_code == 405
