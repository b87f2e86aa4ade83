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
