import base64
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from assets.captures.answer import ANSWER_SCHEMA
from assets.captures.models import Capture
from assets.captures.services import capture_for_transaction
from assets.models import BankTextDraft, Transaction
from tests.assets.captures.conftest import RECEIPT_ANSWER, STATEMENT_ROWS, answer, row, sample, stored_files
from tests.assets.helpers import assert_error
from tests.chat.fake_anthropic import Reply
from tests.race import at_once


def upload(api, name: str, data: bytes, content_type: str = "application/octet-stream"):
    return api.post("/api/v1/captures", {"file": SimpleUploadedFile(name, data, content_type)}, format="multipart")


@pytest.mark.django_db
def test_a_receipt_photo_becomes_one_draft_read_by_the_model_and_the_file_is_kept(alice, alice_api, model, media):
    model.script(answer())
    response = upload(alice_api, "IMG_0042.jpg", sample("receipt.jpg"), "image/jpeg")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["kind"], body["media_type"], body["status"], body["read_as"]) == (
        "image",
        "image/jpeg",
        "drafted",
        "receipt",
    )
    assert body["name"] == "IMG_0042.jpg" and body["size"] == len(sample("receipt.jpg"))
    [draft] = body["drafts"]
    assert (draft["amount"], draft["currency"], draft["direction"], draft["parsed_by"]) == (
        "83000",
        "VND",
        "expense",
        "model",
    )
    assert draft["status"] == "draft" and draft["capture"] == body["id"] and draft["bank"] == "Cong Ca Phe"
    assert draft["occurred_at"] == "2026-12-01T01:42:00Z"  # 08:42 in Hanoi
    assert not Transaction.objects.exists()
    [request] = model.model_requests
    image, ask = request["body"]["messages"][0]["content"]
    assert image["type"] == "image" and image["source"]["media_type"] == "image/jpeg"
    assert base64.b64decode(image["source"]["data"]) == sample("receipt.jpg") and ask["type"] == "text"
    assert request["body"]["output_config"]["format"] == {"type": "json_schema", "schema": ANSWER_SCHEMA}
    [kept] = stored_files(media)
    assert kept.read_bytes() == sample("receipt.jpg")
    assert kept.parent.name == str(alice.id) and "IMG_0042" not in kept.name and kept.suffix == ".jpg"


@pytest.mark.django_db
def test_confirming_a_captured_draft_makes_the_transaction_with_its_file_for_its_owner_only(
    alice, alice_api, bob_api, model
):
    model.script(answer())
    capture = upload(alice_api, "receipt.jpg", sample("receipt.jpg")).json()
    draft_id = capture["drafts"][0]["id"]
    confirmed = alice_api.post(f"/api/v1/bank-texts/{draft_id}/confirm", {"category": "dining"}, format="json")
    assert confirmed.status_code == 201, confirmed.content
    txn = Transaction.objects.get()
    assert (txn.amount, txn.category) == (83000, "dining")
    assert capture_for_transaction(user=alice, transaction_id=txn.id).id == capture["id"]
    shown = alice_api.get(capture["file_url"])
    assert shown.status_code == 200 and shown["Content-Type"] == "image/jpeg"
    assert b"".join(shown.streaming_content) == sample("receipt.jpg")
    assert shown["X-Content-Type-Options"] == "nosniff" and "sandbox" in shown["Content-Security-Policy"]
    assert bob_api.get(capture["file_url"]).status_code == 404
    by_transaction = alice_api.get(f"/api/v1/transactions/{txn.id}/file")
    assert by_transaction.status_code == 200 and b"".join(by_transaction.streaming_content) == sample("receipt.jpg")
    assert bob_api.get(f"/api/v1/transactions/{txn.id}/file").status_code == 404
    assert bob_api.get(f"/api/v1/captures/{capture['id']}").status_code == 404
    after = alice_api.get(f"/api/v1/captures/{capture['id']}").json()
    assert after["drafts"][0]["status"] == "confirmed" and after["drafts"][0]["transaction"] == txn.id


@pytest.mark.django_db
def test_a_pdf_statement_becomes_a_draft_per_row_through_a_document_block(alice_api, model):
    model.script(answer("statement", STATEMENT_ROWS, issuer="Vietcombank", account_mask="0071000123456"))
    response = upload(alice_api, "saoke-11-2026.pdf", sample("statement.pdf"), "application/pdf")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["kind"], body["read_as"]) == ("pdf", "statement")
    got = [(d["occurred_at"][:10], d["amount"], d["direction"], d["balance_after"]) for d in body["drafts"]]
    assert got == [
        ("2026-11-03", "25000000", "income", "37500000"),
        ("2026-11-05", "850000", "expense", "36650000"),
        ("2026-11-12", "6000000", "expense", "30650000"),
    ]
    assert {d["account_mask"] for d in body["drafts"]} == {"•••• 3456"}
    document = model.model_requests[0]["body"]["messages"][0]["content"][0]
    assert document["type"] == "document" and document["source"]["media_type"] == "application/pdf"
    assert base64.b64decode(document["source"]["data"]) == sample("statement.pdf")


@pytest.mark.django_db
def test_a_pdf_that_is_not_a_statement_is_refused_and_nothing_is_kept(alice_api, model, media):
    model.script(answer("not_financial", [], issuer=None))
    response = upload(alice_api, "letter.pdf", sample("letter.pdf"), "application/pdf")
    assert_error(response, 422, "CAPTURE_NOT_FINANCIAL")
    assert not Capture.objects.exists() and not BankTextDraft.objects.exists() and stored_files(media) == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "data", "code"),
    [
        ("statement.pdf", lambda: sample("receipt.jpg"), "CAPTURE_TYPE_MISMATCH"),
        ("receipt.png", lambda: sample("receipt.jpg"), "CAPTURE_TYPE_MISMATCH"),
        ("receipt.jpg", lambda: sample("statement.pdf"), "CAPTURE_TYPE_MISMATCH"),
        ("receipt.jpg", lambda: b"MZ\x90\x00" + b"\x00" * 500, "CAPTURE_UNSUPPORTED"),
        ("movie", lambda: b"\x00\x00\x00\x18ftypmp42" + b"\x00" * 500, "CAPTURE_UNSUPPORTED"),
        # An old Excel workbook is imported from /import, not kept as a capture.
        ("statement.xls", lambda: b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 500, "CAPTURE_UNSUPPORTED"),
        # So is a bank's HTML table under an .xls name.
        ("movimientos.xls", lambda: b"<html><body><table><tr><td>Fecha</td></tr></table>", "CAPTURE_UNSUPPORTED"),
        ("empty.jpg", lambda: b"", "CAPTURE_EMPTY"),
    ],
    ids=["jpeg-named-pdf", "jpeg-named-png", "pdf-named-jpeg", "exe-named-jpeg", "video", "xls", "html", "empty"],
)
def test_bytes_that_are_not_what_the_file_says_are_refused_before_the_model(alice_api, model, media, name, data, code):
    response = upload(alice_api, name, data())
    assert_error(response, 400, code)
    assert model.requests == [] and not Capture.objects.exists() and stored_files(media) == []


@pytest.mark.django_db
def test_a_50_mb_body_is_refused_before_it_is_read(alice_api, model):
    response = alice_api.generic(
        "POST",
        "/api/v1/captures",
        b"--x\r\n",
        content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(50 * 1024 * 1024),
    )
    assert_error(response, 413, "PAYLOAD_TOO_LARGE")
    assert model.requests == []


@pytest.mark.django_db
def test_an_image_over_the_providers_limit_is_refused_by_its_kind(alice_api, model, media):
    big = sample("receipt.jpg") + b"\x00" * 3_800_000
    assert_error(upload(alice_api, "big.jpg", big), 413, "CAPTURE_TOO_LARGE")
    assert model.requests == [] and stored_files(media) == []


@pytest.mark.django_db
def test_two_files_at_once_are_refused(alice_api, model):
    response = alice_api.post(
        "/api/v1/captures",
        {
            "file": [
                SimpleUploadedFile("a.jpg", sample("receipt.jpg")),
                SimpleUploadedFile("b.jpg", sample("receipt.jpg")),
            ]
        },
        format="multipart",
    )
    assert_error(response, 400, "CAPTURE_MISSING")
    assert model.requests == []


def test_the_sample_pdfs_cross_references_point_at_their_objects():
    for name in ("statement.pdf", "letter.pdf"):
        raw = sample(name)
        xref = int(raw.rsplit(b"startxref\n", 1)[1].split(b"\n")[0])
        assert raw[xref:].startswith(b"xref\n")
        entries = raw[xref:].split(b"\n")[3:]
        offsets = [int(e[:10]) for e in entries if e.endswith(b" n ")]
        assert offsets and all(raw[o:].startswith(b"%d 0 obj" % n) for n, o in enumerate(offsets, 1))


@pytest.mark.django_db
def test_a_draft_row_with_the_first_rows_shape_keeps_its_time(alice_api, model):
    model.script(answer("transfer", [row(time="23:05", direction="income", description="NGUYEN VAN B chuyen")]))
    body = upload(alice_api, "Screenshot.png", _png()).json()
    assert body["read_as"] == "transfer" and body["drafts"][0]["occurred_at"] == "2026-12-01T16:05:00Z"
    assert model.model_requests[0]["body"]["messages"][0]["content"][0]["source"]["media_type"] == "image/png"


def _png() -> bytes:
    from tests.assets.captures.samples import receipt_png

    return receipt_png()


@pytest.mark.django_db(transaction=True)
def test_a_users_account_deleted_takes_their_kept_files_with_it(alice, alice_api, model, media):
    model.script(answer())
    assert upload(alice_api, "receipt.jpg", sample("receipt.jpg")).status_code == 201
    assert len(stored_files(media)) == 1
    alice.delete()
    assert not Capture.objects.exists() and stored_files(media) == []


def test_production_keeps_files_in_an_s3_compatible_bucket_when_one_is_configured(tmp_path):
    import json
    import os
    import subprocess
    import sys

    probe = (
        "import json, django; django.setup()\n"
        "from django.conf import settings\n"
        "from django.core.files.storage import default_storage\n"
        "print(json.dumps([settings.STORAGES['default']['BACKEND'], default_storage.bucket_name,"
        " default_storage.location, default_storage.url('captures/1/a.jpg')]))\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "zeus.settings.test",
        "CAPTURE_S3_BUCKET": "zeus-files",
        "CAPTURE_S3_ENDPOINT_URL": "http://127.0.0.1:9",
        "CAPTURE_S3_REGION": "ap-southeast-1",
        "CAPTURE_S3_ACCESS_KEY_ID": "AKIDEXAMPLE",
        "CAPTURE_S3_SECRET_ACCESS_KEY": "secret",
    }
    result = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    backend, bucket, location, url = json.loads(result.stdout.strip().splitlines()[-1])
    assert backend == "storages.backends.s3.S3Storage" and (bucket, location) == ("zeus-files", "zeus")
    assert url.startswith("http://127.0.0.1:9/zeus-files/zeus/captures/1/a.jpg?") and "Signature" in url


@pytest.mark.django_db
def test_the_same_file_shared_again_points_at_its_first_capture_without_reading_it_twice(alice_api, model):
    model.script(answer())
    first = upload(alice_api, "receipt.jpg", sample("receipt.jpg")).json()
    again = upload(alice_api, "IMG_0042 copy.jpg", sample("receipt.jpg"))
    error = assert_error(again, 409, "CAPTURE_DUPLICATE")
    assert error["fields"] == {"capture": [str(first["id"])]} and len(model.requests) == 1
    assert Capture.objects.count() == 1 and BankTextDraft.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_shares_of_one_file_at_the_same_moment_keep_one_capture(alice, model, media):
    from assets.captures.services import CaptureDuplicate, capture_create

    model.responder = lambda body: Reply(blocks=[("text", json.dumps(RECEIPT_ANSWER))], delay=0.5)

    def share():
        try:
            capture_create(user=alice, upload=SimpleUploadedFile("r.jpg", sample("receipt.jpg")))
        except CaptureDuplicate:
            return "duplicate"
        return "kept"

    outcomes = at_once(share, share)
    assert sorted(outcomes) == ["duplicate", "kept"] and len(model.requests) == 2
    assert Capture.objects.count() == 1 and BankTextDraft.objects.count() == 1 and len(stored_files(media)) == 1


@pytest.mark.django_db
def test_the_openapi_schema_describes_the_capture_routes(alice_api):
    import yaml

    paths = yaml.safe_load(alice_api.get("/api/v1/schema").content)["paths"]
    create = paths["/api/v1/captures"]["post"]
    assert "multipart/form-data" in create["requestBody"]["content"] and "201" in create["responses"]
    for path in ("{capture_id}", "{capture_id}/file", "{capture_id}/import", "{capture_id}/discard"):
        assert f"/api/v1/captures/{path}" in paths
    assert "/api/v1/transactions/{transaction_id}/file" in paths


@pytest.mark.django_db
def test_a_statement_of_a_hundred_rows_becomes_a_hundred_drafts(alice_api, model):
    rows = [row(f"2026-11-{1 + n % 28:02d}", str(10000 + n), "expense", f"Row {n}", time=None) for n in range(100)]
    model.script(answer("statement", rows, issuer="Vietcombank"))
    body = upload(alice_api, "long.pdf", sample("statement.pdf")).json()
    assert len(body["drafts"]) == 100 and model.model_requests[0]["body"]["max_tokens"] >= 8192
