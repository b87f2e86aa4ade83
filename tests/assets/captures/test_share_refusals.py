"""What the phone's share sheet (and any page's form) shows when the middleware refuses a body before its view:
words in the reader's language, never the API's English."""

import pytest
from django.test import Client

from assets.models import BankTextDraft
from tests import factories

pytestmark = pytest.mark.django_db


def sheet(language: str) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(factories.user(f"user_{language}", language=language))
    return client


def too_large(client):
    return client.generic(
        "POST", "/share", b"--x\r\n", content_type="multipart/form-data; boundary=x", CONTENT_LENGTH=str(50 << 20)
    )


@pytest.mark.parametrize(
    ("language", "words"), [("vi", "quá lớn: tối đa 16 MB"), ("en", "too large: at most 16 MB")]
)  # fmt: skip
def test_a_50_mb_share_is_refused_in_the_readers_language(language, words):
    response = too_large(sheet(language))
    assert response.status_code == 413
    assert words in response.content.decode()


@pytest.mark.parametrize(("language", "words"), [("vi", "không thể lưu"), ("en", "cannot be stored")])
def test_a_nul_in_a_shared_text_is_refused_in_the_readers_language(language, words):
    response = sheet(language).post("/share", {"text": "TK 0123 -150,000VND\x00"})
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not BankTextDraft.objects.exists()
