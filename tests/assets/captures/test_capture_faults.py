"""What the model says or fails to say: nothing is stored unless its answer is whole and sensible."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from assets.captures.models import Capture
from assets.models import BankTextDraft
from tests.assets.captures.conftest import answer, row, sample, stored_files
from tests.assets.helpers import assert_error
from tests.chat.fake_anthropic import Reply, Status, overloaded, text


def send(api, name="receipt.jpg", data=None):
    data = sample("receipt.jpg") if data is None else data
    return api.post("/api/v1/captures", {"file": SimpleUploadedFile(name, data)}, format="multipart")


def nothing_kept(media):
    return not Capture.objects.exists() and not BankTextDraft.objects.exists() and stored_files(media) == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    "reply",
    [
        text("I think it is a receipt for coffee."),
        text(json.dumps({"kind": "receipt", "issuer": None, "account_mask": None})),
        answer(rows=[{**row(), "tip": "5000"}]),
        answer(rows=[row(amount="-83000")]),
        answer(rows=[row(amount="0")]),
        answer(rows=[row(amount="83000000000000000")]),
        answer(rows=[row(amount=83000)]),
        answer(rows=[row(currency="XYZ")]),
        answer(rows=[row(day="2031-01-01")]),
        answer(rows=[row(day="1999-12-31")]),
        answer(rows=[row(day="2026-02-30")]),
        answer(rows=[row(time="25:00")]),
        answer(rows=[row(), row()]),
        answer("statement", [row()] * 101),
        answer(kind="invoice"),
        Reply(blocks=[("text", '{"kind": "receipt", "iss')], stop_reason="max_tokens"),
        Reply(blocks=[("text", "")], stop_reason="refusal"),
        text('{"kind": ' + "[" * 100_000 + "}"),  # json.loads recursed: a RecursionError and a 500 before
    ],
    ids=[
        "prose",
        "no-rows-key",
        "extra-key",
        "negative",
        "zero",
        "astronomic",
        "number-not-text",
        "unknown-currency",
        "future",
        "ancient",
        "no-such-day",
        "no-such-time",
        "receipt-of-two",
        "too-many-rows",
        "unknown-kind",
        "cut-off",
        "refusal",
        "nested-too-deep",
    ],
)
def test_an_answer_that_is_not_whole_and_sensible_is_refused_with_nothing_kept(alice_api, model, media, reply):
    model.script(reply)
    assert_error(send(alice_api), 422, "CAPTURE_MODEL_INVALID")
    assert nothing_kept(media)


@pytest.mark.django_db
def test_no_provider_key_is_a_clear_refusal(settings, alice_api, media):
    settings.ANTHROPIC_API_KEY = ""
    assert_error(send(alice_api), 503, "AI_PROVIDER_REQUIRED")
    assert nothing_kept(media)


@pytest.mark.django_db
def test_a_provider_that_stays_overloaded_is_a_clear_error(alice_api, model, media):
    model.script(overloaded(), overloaded(), overloaded())
    assert_error(send(alice_api), 503, "PROVIDER_UNAVAILABLE")
    assert len(model.requests) == 3 and nothing_kept(media)


@pytest.mark.django_db
def test_a_refused_key_says_so(alice_api, model, media):
    model.script(Status(401, "authentication_error"))
    assert_error(send(alice_api), 503, "AI_PROVIDER_REQUIRED")
    assert nothing_kept(media)


@pytest.mark.django_db
def test_a_model_that_does_not_answer_in_time_is_a_clear_error(settings, alice_api, model, media):
    settings.ZEUS_CAPTURE_TIMEOUT = 0.3
    model.responder = lambda body: Reply(blocks=[("text", "{}")], delay=2.0)
    assert_error(send(alice_api), 503, "PROVIDER_TIMEOUT")
    assert nothing_kept(media)


@pytest.mark.django_db
def test_a_file_the_provider_cannot_open_is_a_clear_refusal(alice_api, model, media):
    broken = b"%PDF-1.4\n" + b"\x00" * 64
    model.script(Status(400, "invalid_request_error"))
    assert_error(send(alice_api, "broken.pdf", broken), 422, "CAPTURE_UNREADABLE")
    assert nothing_kept(media)


@pytest.mark.django_db
def test_a_database_failure_after_the_file_is_stored_removes_the_file(alice_api, model, media, monkeypatch):
    from assets.captures import services

    def fail(**kwargs):
        raise RuntimeError("the drafts could not be written")

    monkeypatch.setattr(services, "bank_text_draft_from_parsed", fail)
    model.script(answer())
    with pytest.raises(RuntimeError):
        send(alice_api)
    assert nothing_kept(media)


@pytest.mark.django_db
def test_a_reading_counts_against_the_daily_allowance_and_a_spent_day_refuses_the_next(
    settings, alice, alice_api, model, media
):
    from chat.models import DailyUsage

    settings.ZEUS_DAILY_TOKEN_BUDGET = 10
    model.script(answer())
    assert send(alice_api).status_code == 201
    spent = DailyUsage.objects.get(user=alice)
    assert spent.tokens > 10 and spent.cost_usd > 0
    error = assert_error(send(alice_api, "other.png", _other_png()), 429, "USAGE_LIMIT")
    assert "allowance" in error["message"] and len(model.requests) == 1


def _other_png() -> bytes:
    from tests.assets.captures.samples import receipt_png

    return receipt_png()


@pytest.mark.django_db
def test_the_users_own_key_reads_their_file(settings, alice, alice_api, model):
    from chat.services import provider_key_set

    settings.ANTHROPIC_API_KEY = ""
    provider_key_set(user=alice, api_key="sk-ant-personal-key-of-alice")
    model.script(answer())
    assert send(alice_api).status_code == 201
    assert model.requests[0]["api_key"] == "sk-ant-personal-key-of-alice"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "reply",
    [
        answer(rows=[row(description="Cong\x00Ca Phe")]),
        answer(issuer="Cong\x00Ca Phe"),
        answer(rows=[row(description="Cong Ca Phe \ud800")]),
    ],
    ids=["nul-description", "nul-issuer", "lone-surrogate"],
)
def test_a_nul_or_a_lone_surrogate_in_the_models_text_is_made_storable_not_a_500(alice_api, model, media, reply):
    """The model's text is kept as its output, never refused for a character (zeus.text, "The text rule"): its
    NUL or lone surrogate becomes U+FFFD, where before the drafts' insert failed with a 500."""
    model.script(reply)
    response = send(alice_api)
    assert response.status_code == 201, response.content
    draft = BankTextDraft.objects.get()
    assert "\x00" not in draft.description + draft.bank and "\ud800" not in draft.description
    assert "Cong" in draft.description
