import json
import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from assets.models import CategoryRule, SepayConnection, Transaction
from tests import factories

FIXTURES = Path(__file__).parent / "fixtures"
PAGES = ["/import", "/import/", "/settings/bank-feeds", "/settings/bank-feeds/", "/settings/rules", "/settings/rules/"]


@pytest.fixture
def browser(client, alice):
    client.force_login(alice)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("url", PAGES)
def test_the_pages_need_a_login(client, url):
    response = client.get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.django_db
@pytest.mark.parametrize("url", PAGES)
def test_the_pages_render_without_inline_script_or_style(browser, url):
    response = browser.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'style="' not in html
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.DOTALL)
    assert all("src=" in attrs or 'type="application/json"' in attrs for attrs, _ in scripts), scripts


@pytest.mark.django_db
def test_the_import_page_imports_a_file_without_javascript(browser, alice):
    upload = SimpleUploadedFile("vcb.ofx", (FIXTURES / "vcb.ofx").read_bytes())
    response = browser.post("/import", {"file": upload})
    assert response.status_code == 200
    assert "Imported 3, skipped 0" in response.content.decode()
    assert Transaction.objects.filter(user=alice).count() == 3


@pytest.mark.django_db
def test_the_import_page_lists_bad_rows_and_takes_a_mapping(browser, alice):
    bad = "date,description,amount,direction,category,external_id\n2026-11-01,x,zero,expense,,a\n"
    response = browser.post("/import", {"file": SimpleUploadedFile("bad.csv", bad.encode())})
    html = response.content.decode()
    assert "nothing was imported" in html and "<td>2</td>" in html
    upload = SimpleUploadedFile("tcb.csv", (FIXTURES / "techcombank.csv").read_bytes())
    response = browser.post(
        "/import",
        {
            "file": upload,
            "map_date": "Ngày giao dịch",
            "map_description": "Nội dung",
            "map_debit": "Ghi nợ",
            "map_credit": "Ghi có",
            "map_date_format": "DD/MM/YYYY",
        },
    )
    assert "Imported 3" in response.content.decode()
    assert "ngay giao dich" in browser.get("/import").content.decode()  # the remembered mapping, for the JS


@pytest.mark.django_db
def test_the_bank_feeds_page_connects_shows_the_secret_once_and_disconnects(browser, alice):
    response = browser.post("/settings/bank-feeds", {"auth": "hmac", "name": "Shop"})
    html = response.content.decode()
    secret = re.search(r'<code id="new-secret">([^<]+)</code>', html).group(1)
    assert "/api/v1/integrations/sepay/webhook/" in html
    listed = browser.get("/settings/bank-feeds").content.decode()
    assert secret not in listed and "Shop" in listed
    connection = SepayConnection.objects.get(user=alice)
    response = browser.post(f"/settings/bank-feeds/{connection.id}/delete")
    assert response.status_code == 302 and not SepayConnection.objects.exists()


@pytest.mark.django_db
def test_the_rules_page_adds_applies_and_deletes(browser, alice, bob):
    factories.txn(alice, description="Circle K", category="other")
    response = browser.post(
        "/settings/rules", {"match": "circle k", "category": "groceries", "apply_to_existing": "1"}, follow=True
    )
    assert "applied to 1" in response.content.decode()
    assert Transaction.objects.get(user=alice).category == "groceries"
    bad = browser.post("/settings/rules", {"match": "x", "category": "salary", "direction": "expense"})
    assert bad.status_code == 200 and CategoryRule.objects.count() == 1
    bobs = CategoryRule.objects.create(user=bob, match="x", match_folded="x", category="dining")
    browser.post(f"/settings/rules/{bobs.id}/delete")
    assert CategoryRule.objects.filter(id=bobs.id).exists()
    mine = CategoryRule.objects.get(user=alice)
    browser.post(f"/settings/rules/{mine.id}/delete")
    assert not CategoryRule.objects.filter(user=alice).exists()


@pytest.mark.django_db
def test_the_rules_page_speaks_the_users_language(browser, alice):
    alice.profile.language = "vi"
    alice.profile.save(update_fields=["language"])
    factories.txn(alice, description="Circle K", category="other")
    added = browser.post(
        "/settings/rules", {"match": "circle k", "category": "groceries", "apply_to_existing": "1"}, follow=True
    )
    assert "Đã thêm quy tắc và áp dụng cho 1 giao dịch hiện có." in added.content.decode()
    rule = CategoryRule.objects.get(user=alice)
    deleted = browser.post(f"/settings/rules/{rule.id}/delete", follow=True)
    assert "Đã xóa quy tắc." in deleted.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "pdf_words", "row_words"),
    [
        (
            "vi",
            "Tệp này là một tệp PDF, một ảnh hoặc một tệp nén, không phải sao kê Zeus đọc được. Hãy gửi "
            "CSV, OFX/QFX, QIF, CAMT.052/053/054 XML, MT940, AEB Norma 43, CODA, CFONB 120, BAI2, "
            "tệp trao đổi ngân hàng 1C (kl_to_1c.txt), XLSX hoặc XLS.",
            "Không đọc được 1 dòng, nên chưa nhập gì. Hãy sửa các dòng này trong tệp, hoặc xuất lại sao kê, rồi "
            "nhập lại.",
        ),
        (
            "en",
            "This file is a PDF, an image or a compressed archive, not a statement Zeus reads. Send "
            "CSV, OFX/QFX, QIF, CAMT.052/053/054 XML, MT940, AEB Norma 43, CODA, CFONB 120, BAI2, "
            "1C client-bank exchange (kl_to_1c.txt), XLSX or XLS.",
            "1 row could not be read, so nothing was imported. Correct these rows in the file, or export the "
            "statement again, then import it.",
        ),
    ],
)
def test_the_import_page_says_a_refusal_in_the_readers_language(client, language, pdf_words, row_words):
    """The importer's own message, in the reader's language, then what to do next on the page (docs/i18n.md)."""
    client.force_login(factories.user(f"reader_{language}", language=language))
    pdf = SimpleUploadedFile("sao-ke.pdf", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj")
    response = client.post("/import", {"file": pdf})
    assert response.status_code == 200 and pdf_words in response.content.decode()
    bad = "date,description,amount,direction,category,external_id\n2026-11-01,x,zero,expense,,a\n"
    response = client.post("/import", {"file": SimpleUploadedFile("bad.csv", bad.encode())})
    assert row_words in response.content.decode()
    assert not Transaction.objects.exists()


@pytest.mark.django_db
def test_the_import_page_keeps_the_importers_count_and_gives_the_script_the_same_next_steps(client):
    """One wording of each refusal: the page's own table once said "100 rows" for 150 bad rows (it counted the
    rows listed); the importer's message says how many, and the script adds the same next step as the page."""
    client.force_login(factories.user("reader_en", language="en"))
    header = "date,description,amount,direction,category,external_id\n"
    bad = header + "".join(f"2026-11-01,x,zero,expense,,e{i}\n" for i in range(150))
    page = client.post("/import", {"file": SimpleUploadedFile("bad.csv", bad.encode())}).content.decode()
    assert "150 rows could not be read, so nothing was imported. The first 100 are listed. Correct these rows" in page
    steps = json.loads(re.search(r'id="import-next-steps" type="application/json">(.*?)</script>', page)[1])
    assert steps["INVALID_ROWS"] == "Correct these rows in the file, or export the statement again, then import it."


@pytest.mark.django_db
def test_the_import_page_names_a_bad_row_and_its_fields_in_the_readers_language(client):
    client.force_login(factories.user("reader_vi", language="vi"))
    ofx = (
        "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>VND<BANKTRANLIST>\n"
        "<STMTTRN><TRNTYPE>DEBIT<TRNAMT>-50000<NAME>Coffee</STMTTRN>\n"
        "</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n"
    )
    page = client.post("/import", {"file": SimpleUploadedFile("sao-ke.ofx", ofx.encode())}).content.decode()
    assert "<td>giao dịch 1</td>" in page
    assert "Ngày: Thiếu DTPOSTED hoặc DTPOSTED không phải là ngày." in page
