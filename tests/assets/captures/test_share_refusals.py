"""What the phone's share sheet (and any page's form) shows when the middleware refuses a body before its view:
words in the reader's language, never the API's English."""

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from assets.models import BankTextDraft, Transaction
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


def test_a_shared_zip_bomb_is_refused_in_the_readers_language():
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/worksheets/sheet1.xml", b"\x00" * (200 * 1024 * 1024))
    upload = SimpleUploadedFile("sao-ke.xlsx", out.getvalue())
    response = sheet("vi").post("/share", {"file": upload})
    assert response.status_code == 400
    assert "khi giải nén lớn hơn nhiều so với một sao kê" in response.content.decode()
    assert not Transaction.objects.exists()


def test_a_spent_allowance_says_when_it_comes_back_in_the_readers_language(settings):
    from chat.models import DailyUsage
    from tests.assets.captures.conftest import sample
    from zeus.timeutil import user_today

    settings.ANTHROPIC_API_KEY = "sk-test-server"
    settings.ZEUS_DAILY_TOKEN_BUDGET = 10
    user = factories.user("spent_vi", language="vi")
    DailyUsage.objects.create(user=user, day=user_today(user), tokens=50)
    client = Client()
    client.force_login(user)
    response = client.post("/share", {"file": SimpleUploadedFile("bien-lai.jpg", sample("receipt.jpg"))})
    assert response.status_code == 429
    assert "Hạn mức được đặt lại lúc nửa đêm theo múi giờ của bạn" in response.content.decode()
