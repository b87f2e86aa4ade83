"""The /import page in Debian's Chromium (Playwright) against the real app: a bank's CSV chosen, previewed,
mapped, uploaded with the progress bar, and imported; a bad file's rows listed."""

import os
from pathlib import Path

import pytest

from assets.models import Transaction
from tests import factories

CHROMIUM = Path("/usr/bin/chromium")
FIXTURES = Path(__file__).parent.parent / "fixtures"
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists() and os.environ.get("CI") != "true", reason="needs /usr/bin/chromium"),
]


@pytest.fixture
def page(live_server, transactional_db):
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    playwright = sync_playwright().start()
    browser = playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=["--headless", "--no-sandbox", "--disable-gpu"]
    )
    try:
        user = factories.user("alice")
        page = browser.new_page()
        page.goto(f"{live_server.url}/accounts/login/?next=/import")
        page.fill("#id_login", user.username)
        page.fill("#id_password", factories.PASSWORD)
        page.click("form button[type=submit]")
        page.wait_for_selector("#import-form")
        # The form is there while the page is still parsed; import.js (deferred) listens for the file only once
        # the document has loaded: a file chosen before that gets no preview.
        page.wait_for_load_state("load")
        page.user = user
        yield page
    finally:
        browser.close()
        playwright.stop()
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


def test_a_bank_csv_is_previewed_mapped_and_imported(page):
    page.set_input_files("#import-file", str(FIXTURES / "techcombank.csv"))
    page.wait_for_selector("#preview:not([hidden])")
    assert page.inner_text("#preview-table th >> nth=0") == "Ngày giao dịch"
    page.wait_for_selector("#mapping:not([hidden])")
    page.select_option("select[name=map_date]", "Ngày giao dịch")
    page.select_option("select[name=map_description]", "Nội dung")
    page.select_option("select[name=map_debit]", "Ghi nợ")
    page.select_option("select[name=map_credit]", "Ghi có")
    page.select_option("select[name=map_external_id]", "Số tham chiếu")
    page.fill("input[name=map_date_format]", "DD/MM/YYYY")
    page.click("#import-form button[type=submit]")
    page.wait_for_selector("#import-result:not([hidden]) .good")
    assert "Imported 3, skipped 0" in page.inner_text("#import-result")
    assert page.get_attribute("#import-progress", "value") == "100"
    assert Transaction.objects.filter(user=page.user).count() == 3
    # The next visit remembers the mapping for this header: the step comes prefilled.
    page.reload()
    page.set_input_files("#import-file", str(FIXTURES / "techcombank.csv"))
    page.wait_for_selector("#mapping:not([hidden])")
    assert page.input_value("select[name=map_debit]") == "Ghi nợ"


def test_a_bad_file_lists_its_rows_and_imports_nothing(page, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("date,description,amount,direction,category,external_id\n2026-11-01,x,zero,expense,,a\n")
    page.set_input_files("#import-file", str(bad))
    page.wait_for_selector("#mapping", state="hidden")
    page.click("#import-form button[type=submit]")
    page.wait_for_selector("#import-result:not([hidden]) .bad")
    assert "nothing was imported" in page.inner_text("#import-result")
    assert "amount" in page.inner_text("#import-result .row-errors")
    assert not Transaction.objects.exists()
