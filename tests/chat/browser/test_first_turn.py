"""The first turn on a fresh /chat page, typed as soon as the page lets you: every frame of the turn reaches the
page (issue: on a freshly started daphne with Redis the first page saw none)."""

import pytest

from tests import factories
from tests.chat.browser.conftest import DESKTOP
from tests.chat.browser.e2e_server import DaphneThread, free_port
from tests.chat.conftest import SERVER_KEY
from tests.chat.fake_anthropic import FakeAnthropic, text

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def model(settings):
    with FakeAnthropic(port=free_port()) as server:
        settings.ANTHROPIC_BASE_URL = server.url
        settings.ANTHROPIC_API_KEY = SERVER_KEY
        server.router_model = settings.ZEUS_ROUTER_MODEL
        yield server


@pytest.fixture(scope="module")
def fresh_server():
    server = DaphneThread().start()
    yield server
    server.stop()


def test_the_first_message_on_a_fresh_page_gets_its_frames(browser, fresh_server, model):
    user = factories.user("first_turn")
    model.responder = lambda body: text("Here are your accounts.", token_delay=0.01)
    context = browser.new_context(viewport=DESKTOP, locale="en-US", timezone_id="Asia/Ho_Chi_Minh")
    page = context.new_page()
    page.set_default_timeout(15000)
    received: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: received.append(str(payload))))
    page.goto(f"{fresh_server.url}/accounts/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", factories.PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_load_state()
    page.goto(f"{fresh_server.url}/chat")
    page.wait_for_selector("#chat-app[data-ready=true]")
    page.fill("#input", "show my accounts")
    page.press("#input", "Enter")
    page.locator(".msg-assistant").filter(has_text="Here are your accounts.").wait_for()
    assert any('"type":"ack"' in frame for frame in received), received
    context.close()
