"""Every page, at desktop and phone width and in both themes: an axe-core audit (the copy shipped inside the
pinned axe-playwright-python package) with no serious or critical violation, and a screenshot of each kept
under artifacts/pages/."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.chat.browser.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.browser

PAGES = {
    "home": "/",
    "transactions": "/transactions",
    "transactions_edit": None,  # the inline edit form of a row, filled in below
    "budgets": "/budgets",
    "goals": "/goals",
    "inbox": "/inbox",
    "settings": "/settings",
    "plans": "/plans",
    "chat": "/chat",
}
SIGNED_OUT = {"login": "/accounts/login/", "signup": "/accounts/signup/"}
BLOCKING = {"serious", "critical"}


def blocking(results) -> list[str]:
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in BLOCKING
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_passes_the_audit_at_both_widths(site, minh, scheme):
    from assets.models import Transaction

    coffee = Transaction.objects.get(user=minh, description="Highlands Coffee")
    pages = {**PAGES, "transactions_edit": f"/transactions?edit={coffee.id}"}
    axe = Axe()
    found = {}
    for width, viewport in [("desktop", DESKTOP), ("phone", PHONE)]:
        signed_out = site.page(viewport=viewport, scheme=scheme)
        for name, path in SIGNED_OUT.items():
            site.go(signed_out, path)
            site.shot(signed_out, f"{name}_{width}_{scheme}")
            found[f"{name} {width}"] = blocking(axe.run(signed_out))
        page = site.log_in(site.page(viewport=viewport, scheme=scheme), minh)
        for name, path in pages.items():
            site.go(page, path)
            if name == "home":
                page.wait_for_selector("figure.chart-figure.drawn")
            site.shot(page, f"{name}_{width}_{scheme}")
            found[f"{name} {width}"] = blocking(axe.run(page))
    assert {k: v for k, v in found.items() if v} == {}


def test_a_form_with_errors_passes_the_audit(site, minh):
    page = site.log_in(site.page(), minh)
    site.go(page, "/goals")
    page.click("#new-goal summary")
    page.fill("#id_new-name", "")
    page.fill("#id_new-target_amount", "rất nhiều")
    page.click("form[action='/goals'] button[type=submit]")
    page.wait_for_selector("#id_new-target_amount_error")
    site.shot(page, "goals_errors_desktop_light")
    assert blocking(Axe().run(page)) == []


def test_the_audit_does_see_a_violation(site, minh):
    """The net can fail: an unlabelled image button on a page is reported."""
    page = site.log_in(site.page(), minh)
    page.evaluate(
        "() => document.querySelector('main')"
        ".append(Object.assign(document.createElement('input'), {type: 'image', src: 'x'}))"
    )
    assert any("input-image-alt" in v for v in blocking(Axe().run(page)))
