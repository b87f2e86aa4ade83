"""A person uploads a receipt photo from the import page in Chromium, sees what Zeus read beside the photo,
checks the draft and adds it (screenshots in artifacts/pages/)."""

import pytest

from tests.assets.captures.conftest import answer
from tests.assets.captures.samples import DATA
from tests.chat.browser.conftest import CHROMIUM, IN_CI, browser  # noqa: F401
from tests.pages.browser.conftest import minh_with_a_month, site  # noqa: F401

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists() and not IN_CI, reason=f"{CHROMIUM} is missing"),
]


def test_a_receipt_uploaded_on_the_import_page_is_read_checked_and_added(site, model):  # noqa: F811
    from assets.models import Transaction

    minh = minh_with_a_month()
    model.script(answer())
    page = site.log_in(site.page(), minh)
    site.go(page, "/import")
    page.set_input_files("#capture-file", str(DATA / "receipt.jpg"))
    page.click("#capture-form button[type=submit]")
    page.wait_for_url("**/share/capture/*")
    page.wait_for_load_state("networkidle")
    assert page.eval_on_selector("img.capture-image", "img => img.naturalWidth") > 0
    assert "Cong Ca Phe" in page.inner_text("table.capture-drafts")
    site.shot(page, "capture-receipt")
    page.click("table.capture-drafts a")
    page.click("form[action$='/confirm'] button")
    page.wait_for_url("**/share/capture/*")
    assert Transaction.objects.filter(user=minh, amount=83000).exists()
    assert "Đã thêm" in page.inner_text("table.capture-drafts")
