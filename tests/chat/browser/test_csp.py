"""The Content-Security-Policy in a real browser: pages work under it, and the suite's watch catches a breach."""

import datetime as dt

import pytest

from tests import factories
from tests.chat.browser.conftest import DESKTOP, watch_csp
from tests.plans import factories as plan_factories

pytestmark = pytest.mark.browser


@pytest.fixture
def context(browser):
    context = browser.new_context(viewport=DESKTOP, locale="en-US", timezone_id="Asia/Ho_Chi_Minh")
    yield context
    context.close()


def _login(page, base_url, user):
    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_login", user.username)
    page.fill("#id_password", factories.PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login" not in url)  # signing in lands on the home page


def test_the_watch_catches_an_inline_script_and_a_foreign_image(context, live_server, transactional_db):
    violations = watch_csp(context)
    page = context.new_page()
    response = page.goto(f"{live_server.url}/accounts/login/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.evaluate(
        """() => {
      const s = document.createElement("script"); s.textContent = "window.__ran = true"; document.body.append(s);
      const i = document.createElement("img"); i.src = "https://example.invalid/x.png"; document.body.append(i);
      const d = document.createElement("div"); d.setAttribute("style", "color: red"); document.body.append(d);
    }"""
    )
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.__ran") is None
    assert any("script-src" in v for v in violations), violations
    assert any("img-src" in v for v in violations), violations


def test_the_plan_page_draws_its_bars_under_the_policy(context, live_server, transactional_db):
    violations = watch_csp(context)
    alice = factories.user("csp_alice")
    month = dt.date.today().strftime("%Y-%m")
    plan_factories.plan(alice, month=month, active=True)
    page = context.new_page()
    _login(page, live_server.url, alice)
    page.goto(f"{live_server.url}/plans")
    # The bars are <progress> elements: drawn by the browser from their value, no script or style attribute.
    bar = page.locator("progress.bar").first
    bar.wait_for(state="attached")
    assert bar.get_attribute("max") == "100" and bar.get_attribute("value") is not None
    assert violations == []
