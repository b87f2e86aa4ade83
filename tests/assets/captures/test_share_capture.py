"""The share target and the import page with a file: a photo or a PDF becomes model-read drafts confirmed one
by one, a statement file waits for its import, a bank text stays a bank-text draft; the file is its owner's."""

import io
import json
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from assets.captures.models import Capture
from assets.models import BankTextDraft, Transaction
from tests.assets.captures.conftest import STATEMENT_ROWS, answer, sample, stored_files

pytestmark = pytest.mark.django_db
XLSX = Path(__file__).parents[1] / "statements" / "corpus" / "tune" / "haiyen2002__techcombank_statement.xlsx"


@pytest.fixture
def share_sheet(alice):
    """The operating system's share sheet: the user's session, no CSRF token."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    return client


def share(client, name: str, data: bytes, **fields):
    return client.post("/share", {"file": SimpleUploadedFile(name, data), **fields})


def test_a_shared_receipt_photo_becomes_drafts_confirmed_on_the_site(alice, share_sheet, model):
    model.script(answer())
    response = share(share_sheet, "IMG_0042.jpg", sample("receipt.jpg"), title="Photos")
    capture = Capture.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/share/capture/{capture.id}"
    page = share_sheet.get(response["Location"]).content.decode()
    draft = BankTextDraft.objects.get()
    assert f'src="/captures/{capture.id}/file"' in page and f'href="/share/{draft.id}"' in page
    assert "Cong Ca Phe" in page and not Transaction.objects.exists()
    shown = share_sheet.get(f"/captures/{capture.id}/file")
    assert shown.status_code == 200 and b"".join(shown.streaming_content) == sample("receipt.jpg")
    web = Client()
    web.force_login(alice)
    draft_page = web.get(f"/share/{draft.id}").content.decode()
    assert f'href="/share/capture/{capture.id}"' in draft_page and "Shared file" in draft_page
    confirmed = web.post(f"/share/{draft.id}/confirm", {"csrfmiddlewaretoken": web.cookies["csrftoken"].value})
    assert confirmed.status_code == 302 and confirmed["Location"] == f"/share/capture/{capture.id}"
    assert Transaction.objects.get().amount == 83000
    assert "Added" in web.get(f"/share/capture/{capture.id}").content.decode()


def test_another_user_never_sees_the_file(alice, bob, share_sheet, model):
    model.script(answer())
    share(share_sheet, "receipt.jpg", sample("receipt.jpg"))
    capture = Capture.objects.get()
    other = Client()
    other.force_login(bob)
    assert other.get(f"/captures/{capture.id}/file").status_code == 404
    assert other.get(f"/share/capture/{capture.id}").status_code == 404
    assert Client().get(f"/captures/{capture.id}/file").status_code == 302  # to the login page


def test_a_shared_pdf_statement_lists_a_draft_per_row(share_sheet, model):
    model.script(answer("statement", STATEMENT_ROWS, issuer="Vietcombank"))
    response = share(share_sheet, "saoke.pdf", sample("statement.pdf"))
    page = share_sheet.get(response["Location"]).content.decode()
    assert page.count('href="/share/') == 3 and "EVN HCMC" in page and "/captures/" in page
    assert BankTextDraft.objects.filter(capture__isnull=False, status="draft").count() == 3


def test_a_shared_letter_is_refused_in_words_and_nothing_is_kept(share_sheet, model, media):
    model.script(answer("not_financial", [], issuer=None))
    response = share(share_sheet, "letter.pdf", sample("letter.pdf"))
    assert response.status_code == 422 and "no payment" in response.content.decode()
    assert not Capture.objects.exists() and stored_files(media) == []


def test_a_shared_file_that_lies_about_itself_is_refused(share_sheet, model):
    response = share(share_sheet, "statement.pdf", sample("receipt.jpg"))
    assert response.status_code == 400 and "not what its name says" in response.content.decode()
    assert model.requests == []


def test_a_shared_body_of_50_mb_is_refused_before_it_is_read(share_sheet):
    response = share_sheet.generic(
        "POST", "/share", b"--x\r\n", content_type="multipart/form-data; boundary=x", CONTENT_LENGTH=str(50 << 20)
    )
    assert response.status_code == 413


def test_a_shared_xlsx_statement_waits_for_its_import_then_lands_through_the_importers(alice, share_sheet, model):
    response = share(share_sheet, "techcombank.xlsx", XLSX.read_bytes())
    capture = Capture.objects.get()
    assert (capture.kind, capture.status, capture.imported, capture.skipped) == ("statement", "pending", 6, 0)
    assert not Transaction.objects.exists() and model.requests == []
    page = share_sheet.get(response["Location"]).content.decode()
    assert f'action="/share/capture/{capture.id}/import"' in page
    web = Client()
    web.force_login(alice)
    web.get(response["Location"])
    token = web.cookies["csrftoken"].value
    assert share_sheet.post(f"/share/capture/{capture.id}/import").status_code == 403  # no token
    assert web.post(f"/share/capture/{capture.id}/import", {"csrfmiddlewaretoken": token}).status_code == 302
    assert Transaction.objects.count() == 6
    capture.refresh_from_db()
    assert (capture.status, capture.imported) == ("imported", 6)
    web.post(f"/share/capture/{capture.id}/import", {"csrfmiddlewaretoken": token})
    assert Transaction.objects.count() == 6  # once


def test_a_zip_bomb_shared_as_xlsx_is_refused_by_the_importers_limits(share_sheet, media):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/worksheets/sheet1.xml", b"\x00" * (200 * 1024 * 1024))
    response = share(share_sheet, "sao-ke.xlsx", out.getvalue())
    assert response.status_code == 400 and "cannot be imported" in response.content.decode()
    assert not Capture.objects.exists() and not Transaction.objects.exists() and stored_files(media) == []


def test_a_shared_bank_text_stays_a_bank_text_draft(share_sheet, model):
    text = "SD TK 0071000123456 -150,000VND luc 01-12-2026 10:15:20. SD 2,345,000VND. Ref 1.KFC NGUYEN HUE"
    response = share_sheet.post("/share", {"title": "Vietcombank", "text": text})
    draft = BankTextDraft.objects.get()
    assert response["Location"] == f"/share/{draft.id}" and draft.capture is None and model.requests == []


def test_the_manifest_accepts_photos_pdfs_and_statements_as_files(client):
    target = json.loads(client.get("/manifest.webmanifest").content)["share_target"]
    assert target["enctype"] == "multipart/form-data"
    [files] = target["params"]["files"]
    assert files["name"] == "file" and {"image/jpeg", "application/pdf", ".xlsx"} <= set(files["accept"])


def test_the_import_page_offers_a_receipt_upload_to_the_share_target(alice):
    web = Client()
    web.force_login(alice)
    page = web.get("/import").content.decode()
    assert 'id="capture-form" method="post" action="/share" enctype="multipart/form-data"' in page


def test_rest_statement_capture_import_and_discard(alice_api, model):
    created = alice_api.post(
        "/api/v1/captures", {"file": SimpleUploadedFile("t.xlsx", XLSX.read_bytes())}, format="multipart"
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert (body["kind"], body["status"], body["imported"], body["drafts"]) == ("statement", "pending", 6, [])
    imported = alice_api.post(f"/api/v1/captures/{body['id']}/import")
    assert imported.status_code == 201 and imported.json()["status"] == "imported"
    again = alice_api.post(f"/api/v1/captures/{body['id']}/discard")
    assert again.status_code == 409 and again.json()["error"]["code"] == "CAPTURE_CLOSED"


def test_sharing_the_same_photo_again_opens_its_first_capture(share_sheet, model):
    model.script(answer())
    first = share(share_sheet, "receipt.jpg", sample("receipt.jpg"))
    again = share(share_sheet, "receipt (1).jpg", sample("receipt.jpg"))
    assert again.status_code == 302 and again["Location"] == first["Location"] and len(model.requests) == 1


@pytest.mark.django_db(transaction=True)
def test_a_discarded_statement_file_is_removed_and_its_row_kept(alice_api, media):
    body = alice_api.post(
        "/api/v1/captures", {"file": SimpleUploadedFile("t.xlsx", XLSX.read_bytes())}, format="multipart"
    ).json()
    assert len(stored_files(media)) == 1
    discarded = alice_api.post(f"/api/v1/captures/{body['id']}/discard")
    assert discarded.status_code == 200 and discarded.json()["status"] == "discarded"
    assert stored_files(media) == [] and Capture.objects.filter(status="discarded").count() == 1
    assert alice_api.get(body["file_url"]).status_code == 404
    assert not Transaction.objects.exists()
