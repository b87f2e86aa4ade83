"""/plans in a real browser: a spending entry logged there is a row on /transactions, and the active plan is edited
in place with its figures recomputed."""

import datetime as dt

import pytest

from tests.plans import factories as plan_factories

pytestmark = pytest.mark.browser


def test_an_entry_reaches_the_ledger_and_the_plan_is_edited(site, minh):
    plan = plan_factories.plan(minh, month=f"{dt.date.today():%Y-%m}", active=True)
    page = site.log_in(site.page(), minh)
    site.go(page, "/plans")
    entry = page.locator(f"form[action='/plans/{plan.id}/entries']")
    entry.locator("select[name=kind]").select_option("discretionary")
    entry.locator("input[name=amount]").fill("65k")
    entry.locator("select[name=category]").select_option("dining")
    entry.locator("input[name=note]").fill("Bún chả Hàng Mành")
    entry.locator("button[type=submit]").click()
    page.wait_for_url("**/plans")
    site.go(page, "/transactions")
    row = page.locator("tr", has_text="Bún chả Hàng Mành")
    assert row.count() == 1 and "65.000" in row.inner_text()

    site.go(page, "/plans")
    page.locator("#edit-plan summary").click()
    page.fill("#id_edit-expected_income", "30tr")
    page.locator(f"form[action='/plans/{plan.id}/edit'] button[type=submit]").click()
    page.wait_for_url("**/plans")
    # 30,000,000 less 7,300,000 fixed leaves 22,700,000; balanced keeps 30 % safe to spend.
    notice = page.locator(".notices").inner_text().replace("\xa0", " ")
    assert "6.810.000 ₫" in notice
    figures = page.locator(f"#plan-{plan.id} .figures").inner_text().replace("\xa0", " ")
    assert "30.000.000 ₫" in figures and "6.810.000 ₫" in figures
    site.shot(page, "plans-edited")
