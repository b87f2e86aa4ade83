"""At a phone's width (390 px) every section of the navigation is on screen, Inbox and Settings included."""

import pytest

pytestmark = pytest.mark.browser

PHONE_390 = {"width": 390, "height": 844}


def test_every_navigation_link_is_on_screen_at_390_px(site, minh):
    page = site.log_in(site.page(viewport=PHONE_390), minh)
    links = page.locator(".mainnav a")
    assert links.count() >= 6
    hrefs = []
    for i in range(links.count()):
        box = links.nth(i).bounding_box()
        hrefs.append(links.nth(i).get_attribute("href"))
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE_390["width"], hrefs[-1]
    assert "/inbox" in hrefs and "/settings" in hrefs
    assert page.evaluate("() => document.documentElement.scrollWidth <= 390")
    site.shot(page, "phone_nav")


def test_the_page_registers_the_service_worker_and_offers_the_offline_page(site, minh):
    page = site.log_in(site.page(viewport=PHONE_390), minh)
    scope = page.evaluate("() => navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == f"{site.base_url}/"
    page.wait_for_function("() => caches.keys().then((k) => k.some((n) => n.startsWith('zeus-shell-')))")
    cached = page.evaluate(
        "() => caches.keys().then((k) => caches.open(k[0])).then((c) => c.keys()).then((r) => r.map((q) => q.url))"
    )
    assert f"{site.base_url}/offline" in cached
    assert not [u for u in cached if "/api/" in u or u.rstrip("/") == site.base_url]
    page.context.set_offline(True)
    page.goto(f"{site.base_url}/transactions")
    assert "Bạn đang ngoại tuyến" in page.content()
    page.context.set_offline(False)
