"""A photo or PDF capture whose drafts are all discarded takes its file out of storage (the real
FileSystemStorage in this test's own MEDIA_ROOT, conftest.media); one confirmed draft keeps it."""

import threading

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection, transaction

from assets.banktexts.services import bank_text_draft_discard
from assets.captures.models import Capture
from tests.assets.captures.conftest import STATEMENT_ROWS, answer, sample, stored_files


def upload(api, name: str, data: bytes):
    return api.post("/api/v1/captures", {"file": SimpleUploadedFile(name, data)}, format="multipart")


def _statement(api, model) -> dict:
    model.script(answer("statement", STATEMENT_ROWS, issuer="Vietcombank", account_mask="0071000123456"))
    body = upload(api, "saoke.pdf", sample("statement.pdf")).json()
    assert len(body["drafts"]) == 3
    return body


@pytest.mark.django_db
def test_the_last_draft_discarded_takes_the_file_and_the_same_file_may_be_shared_again(
    alice_api, model, media, django_capture_on_commit_callbacks
):
    capture = _statement(alice_api, model)
    first, second, last = (d["id"] for d in capture["drafts"])
    with django_capture_on_commit_callbacks(execute=True):
        for draft_id in (first, second):
            assert alice_api.post(f"/api/v1/bank-texts/{draft_id}/discard").status_code == 200
    [kept] = stored_files(media)
    assert kept.read_bytes() == sample("statement.pdf")
    assert alice_api.get(capture["file_url"]).status_code == 200

    with django_capture_on_commit_callbacks(execute=True):
        assert alice_api.post(f"/api/v1/bank-texts/{last}/discard").status_code == 200
    assert stored_files(media) == []
    closed = alice_api.get(f"/api/v1/captures/{capture['id']}").json()
    assert closed["status"] == "discarded" and {d["status"] for d in closed["drafts"]} == {"discarded"}
    assert alice_api.get(capture["file_url"]).status_code == 404
    # Nothing of it stands any more: sharing the same file again reads it anew.
    model.script(answer())
    assert upload(alice_api, "saoke.pdf", sample("statement.pdf")).status_code == 201


@pytest.mark.django_db
def test_a_photo_whose_one_draft_is_discarded_leaves_no_file(
    alice_api, model, media, django_capture_on_commit_callbacks
):
    model.script(answer())
    capture = upload(alice_api, "receipt.jpg", sample("receipt.jpg")).json()
    assert len(stored_files(media)) == 1
    with django_capture_on_commit_callbacks(execute=True):
        alice_api.post(f"/api/v1/bank-texts/{capture['drafts'][0]['id']}/discard")
    assert stored_files(media) == [] and Capture.objects.get().status == "discarded"


@pytest.mark.django_db
def test_one_confirmed_draft_keeps_the_file_with_its_transaction(
    alice_api, model, media, django_capture_on_commit_callbacks
):
    capture = _statement(alice_api, model)
    first, *rest = (d["id"] for d in capture["drafts"])
    with django_capture_on_commit_callbacks(execute=True):
        assert alice_api.post(f"/api/v1/bank-texts/{first}/confirm", {}, format="json").status_code == 201
        for draft_id in rest:
            alice_api.post(f"/api/v1/bank-texts/{draft_id}/discard")
    assert len(stored_files(media)) == 1 and Capture.objects.get().status == "drafted"
    assert alice_api.get(capture["file_url"]).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_the_last_two_drafts_discarded_at_once_close_the_capture_once(alice, alice_api, model, media):
    capture = _statement(alice_api, model)
    first, second, last = (d["id"] for d in capture["drafts"])
    bank_text_draft_discard(user=alice, draft_id=first)
    errors = []

    def discard_last():
        try:
            bank_text_draft_discard(user=alice, draft_id=last)
        except Exception as exc:
            errors.append(exc)
        finally:
            connection.close()

    other = threading.Thread(target=discard_last)
    with transaction.atomic():
        # `second` is discarded and not committed yet: this discard now holds the capture's row lock.
        bank_text_draft_discard(user=alice, draft_id=second)
        other.start()
        other.join(1)
        # The other discard waits for that lock; without it, it would have counted `second` as still open and
        # finished, and neither discard would close the capture.
        waited = other.is_alive()
    other.join(30)
    assert waited and errors == []
    assert Capture.objects.get().status == "discarded" and stored_files(media) == []
