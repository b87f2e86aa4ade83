"""Browser tests of the web app's pages: Debian's Chromium through Playwright against the real app (live_server),
with the real database behind it. The chat's websocket is the only fake (tests/chat/browser/fake_ws.js)."""

import datetime as dt
from pathlib import Path

import pytest

from tests import factories
from tests.chat.browser.conftest import CHROMIUM, DESKTOP, FAKE_WS, IN_CI, PHONE, browser  # noqa: F401
from zeus.services import notification_create

ARTIFACTS = Path(__file__).resolve().parents[3] / "artifacts" / "pages"


def pytest_collection_modifyitems(config, items):
    if CHROMIUM.exists() or IN_CI:
        return
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(pytest.mark.skip(reason=f"{CHROMIUM} is missing (apt-get install chromium)"))


def minh_with_a_month(username="minh", language="vi"):
    """A person with a ledger worth looking at: balances, a salary, last week's coffee, a budget, a goal, an
    insight in the inbox."""
    user = factories.user(username, language=language)
    today = dt.date.today()
    factories.asset(user, name="Vietcombank", kind="bank_account", balance="42500000")
    factories.asset(user, name="Ví tiền mặt", balance="1250000")
    factories.txn(user, direction="income", category="salary", amount="25000000", description="Lương tháng",
                  occurred_on=today.replace(day=1))  # fmt: skip
    factories.txn(user, description="Highlands Coffee", category="other", amount="55000",
                  occurred_on=today - dt.timedelta(days=7))  # fmt: skip
    for i in range(1, 40):
        factories.txn(user, description=f"Chợ {i}", category="groceries", amount=str(80000 + 1000 * i),
                      occurred_on=today - dt.timedelta(days=i * 2))  # fmt: skip
    factories.budget(user, category="groceries", amount="3000000")
    factories.goal(
        user, name="Quỹ khẩn cấp", kind="emergency_fund", target_amount="60000000", current_amount="18000000"
    )
    notification_create(
        user=user, kind="insight", title="Chi ăn uống tăng tuần này", body="Phần lớn là giao đồ ăn.",
        cta_url="/chat?prompt=" + "T%E1%BA%A1i%20sao%20t%C3%B4i%20chi%20%C4%83n%20u%E1%BB%91ng%20nhi%E1%BB%81u%3F",
    )  # fmt: skip
    return user


class Site:
    def __init__(self, chromium, base_url):
        self.browser = chromium
        self.base_url = base_url
        self.contexts = []

    def page(self, *, viewport=DESKTOP, scheme="light"):
        context = self.browser.new_context(
            viewport=viewport, locale="vi-VN", timezone_id="Asia/Ho_Chi_Minh", color_scheme=scheme
        )
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(8000)
        page.add_init_script(path=str(FAKE_WS))
        return page

    def log_in(self, page, user):
        page.goto(f"{self.base_url}/accounts/login/")
        page.fill("#id_login", user.username)
        page.fill("#id_password", factories.PASSWORD)
        page.click("main form button[type=submit]")
        page.wait_for_url(f"{self.base_url}/")
        return page

    def go(self, page, path):
        page.goto(f"{self.base_url}{path}")
        page.wait_for_load_state("networkidle")

    @staticmethod
    def shot(page, name):
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

    def close(self):
        for context in self.contexts:
            context.close()


@pytest.fixture
def site(browser, live_server, transactional_db):  # noqa: F811
    s = Site(browser, live_server.url)
    yield s
    s.close()


@pytest.fixture
def minh(transactional_db):
    return minh_with_a_month()
