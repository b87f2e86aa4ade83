"""The web app as a person uses it, in a real browser."""

from urllib.parse import parse_qs, urlparse

import pytest

from assets.models import Transaction
from goals.models import Budget
from tests.chat.browser.conftest import PHONE

pytestmark = pytest.mark.browser


def no_sideways_scroll(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def test_logging_in_lands_on_home_which_reads_at_desktop_and_phone_width(site, minh):
    for name, viewport in [("desktop", None), ("phone", PHONE)]:
        page = site.page(**({"viewport": viewport} if viewport else {}))
        site.log_in(page, minh)
        assert page.locator("h1").inner_text() == "Tiền của bạn đang ở đâu"
        assert "43.750.000\xa0₫" in page.locator("#net-worth .big").inner_text()
        # The chart is drawn from its JSON; its table stays for screen readers.
        page.wait_for_selector("#net-worth figure.chart-figure.drawn canvas")
        assert page.locator("#net-worth table tbody tr").count() == 12
        assert page.locator("#budgets progress.bar").count() == 1
        assert "Quỹ khẩn cấp" in page.locator("#goals").inner_text()
        assert page.locator('#insights a[href="/inbox"]').count() == 1
        assert page.locator('#this-month a[href^="/chat?prompt="]').count() == 1
        assert no_sideways_scroll(page)
        site.shot(page, f"person_home_{name}")


def test_finding_last_weeks_coffee_and_recategorizing_it(site, minh):
    page = site.log_in(site.page(), minh)
    page.click('nav.mainnav a[href="/transactions"]')
    page.fill("input[type=search]", "coffee")
    page.press("input[type=search]", "Enter")
    page.wait_for_url("**/transactions?q=coffee*")
    rows = page.locator("#transactions tbody tr")
    assert rows.count() == 1 and "Highlands Coffee" in rows.first.inner_text()
    coffee = Transaction.objects.get(user=minh, description="Highlands Coffee")
    # Two clicks: open the row's category menu, pick "Ăn uống" (dining); it is saved in place.
    page.select_option(f"#txn-{coffee.id} select", "dining")
    page.locator(f"#txn-{coffee.id} .recat-status").filter(has_text="Đã chuyển sang Ăn uống.").wait_for()
    coffee.refresh_from_db()
    assert coffee.category == "dining"
    site.shot(page, "person_recategorized")


def test_creating_a_budget_and_seeing_its_bar(site, minh):
    page = site.log_in(site.page(), minh)
    site.go(page, "/budgets")
    page.select_option("#id_new-category", "dining")
    page.fill("#id_new-amount", "2tr")
    page.click("form[action='/budgets'] button[type=submit]")
    page.wait_for_url("**/budgets")
    budget = Budget.objects.get(user=minh, category="dining")
    bar = page.locator(f"#budget-{budget.id} progress.bar")
    assert bar.get_attribute("max") == "100" and bar.get_attribute("value") is not None
    assert "2.000.000\xa0₫" in page.locator(f"#budget-{budget.id}").inner_text()
    # A bad amount is named next to its field, in Vietnamese, and nothing is saved.
    page.select_option("#id_new-category", "travel")
    page.fill("#id_new-amount", "nhiều lắm")
    page.click("form[action='/budgets'] button[type=submit]")
    assert "Hãy nhập số tiền" in page.locator("#id_new-amount_error").inner_text()
    assert not Budget.objects.filter(user=minh, category="travel").exists()
    site.shot(page, "person_budget_error")


def test_switching_to_english_and_back(site, minh):
    page = site.log_in(site.page(), minh)
    site.go(page, "/settings")
    page.check("input[name=language][value=en]")
    page.click("form[action='/settings'] button[type=submit]")
    page.wait_for_url("**/settings")
    assert page.locator("html").get_attribute("lang") == "en"
    assert "Settings saved." in page.locator(".notices").inner_text()
    site.go(page, "/")
    assert page.locator("h1").inner_text() == "Where your money stands"
    assert "₫43,750,000" in page.locator("#net-worth .big").inner_text()
    site.go(page, "/settings")
    page.check("input[name=language][value=vi]")
    page.click("form[action='/settings'] button[type=submit]")
    page.wait_for_url("**/settings")
    assert page.locator("html").get_attribute("lang") == "vi"
    assert "Đã lưu cài đặt." in page.locator(".notices").inner_text()


def test_opening_an_insight_from_the_inbox_into_the_chat(site, minh):
    page = site.log_in(site.page(), minh)
    assert page.locator("#nav-unread").inner_text().endswith("1")
    page.click('nav.mainnav a[href="/inbox"]')
    note = page.locator(".inbox-list li.unread").first
    assert "Chi ăn uống tăng tuần này" in note.inner_text()
    note.locator("button[name=open]").click()
    page.wait_for_url("**/chat?prompt=*")
    prompt = parse_qs(urlparse(page.url).query)["prompt"][0]
    page.wait_for_function("p => document.getElementById('input').value === p", arg=prompt)
    assert prompt == "Tại sao tôi chi ăn uống nhiều?"
    site.go(page, "/inbox")
    assert page.locator(".inbox-list li.unread").count() == 0
