import json

import pytest

from tests.assets.captures.samples import DATA
from tests.chat.fake_anthropic import FakeAnthropic, text


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    """Each test's files in its own folder, on the default file-system storage."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.STORAGES = {**settings.STORAGES, "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"}}
    return settings.MEDIA_ROOT


@pytest.fixture
def model(settings):
    with FakeAnthropic() as server:
        settings.ANTHROPIC_BASE_URL = server.url
        settings.ANTHROPIC_API_KEY = "sk-test-server"
        settings.ZEUS_MODEL = "claude-sonnet-5-5"
        server.max_tokens_limit = 8192
        yield server


def sample(name: str) -> bytes:
    return (DATA / name).read_bytes()


def row(day="2026-12-01", amount="83000", direction="expense", description="Cong Ca Phe", **more) -> dict:
    return {
        "occurred_on": day,
        "time": more.pop("time", "08:42"),
        "amount": amount,
        "currency": more.pop("currency", "VND"),
        "direction": direction,
        "description": description,
        "balance_after": more.pop("balance_after", None),
        **more,
    }


def answer(kind="receipt", rows=None, issuer="Cong Ca Phe", account_mask=None, **more):
    """The model's structured answer, as the offline server sends it back."""
    body = {
        "kind": kind,
        "issuer": issuer,
        "account_mask": account_mask,
        "transactions": [row()] if rows is None else rows,
        **more,
    }
    return text(json.dumps(body))


RECEIPT_ANSWER = {"kind": "receipt", "issuer": "Cong Ca Phe", "account_mask": None, "transactions": [row()]}
STATEMENT_ROWS = [
    row("2026-11-03", "25000000", "income", "LUONG THANG 10 CONG TY ABC", time=None, balance_after="37500000"),
    row("2026-11-05", "850000", "expense", "THANH TOAN DIEN EVN HCMC", time=None, balance_after="36650000"),
    row("2026-11-12", "6000000", "expense", "CHUYEN TIEN NGUYEN VAN A TIEN NHA", time=None, balance_after="30650000"),
]


def stored_files(media) -> list:
    return [p for p in media.rglob("*") if p.is_file()] if media.exists() else []
