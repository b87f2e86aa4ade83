"""The router model's answer for a bank text no parser reads, as a broken or hostile model could write it: its
text is kept storable, a date no bank can have sent is unreadable (422), never a 500."""

import json

import pytest

from assets.models import BankTextDraft, Transaction
from tests.assets.feeds.test_bank_texts import model, post  # noqa: F401
from tests.assets.helpers import assert_error
from tests.chat.fake_anthropic import text

ODD = "some text no parser knows at all 100000"


def reply(**more) -> str:
    return json.dumps({"amount": 100000, "currency": "VND", "direction": "expense", **more})


@pytest.mark.django_db
@pytest.mark.parametrize(
    "more",
    [{"description": "KFC\x00NGUYEN HUE"}, {"bank": "VCB\x00"}, {"description": "KFC NGUYEN HUE \ud800"}],
    ids=["nul-description", "nul-bank", "lone-surrogate"],
)
def test_a_nul_or_a_lone_surrogate_in_the_models_answer_is_made_storable(alice_api, model, more):  # noqa: F811
    model.script(text(reply(**more)))
    draft = post(alice_api, ODD)
    assert draft.status_code == 201, draft.content
    stored = BankTextDraft.objects.get()
    assert "\x00" not in stored.description + stored.bank and "\ud800" not in stored.description
    confirmed = alice_api.post(f"/api/v1/bank-texts/{stored.id}/confirm", {}, format="json")
    assert confirmed.status_code == 201, confirmed.content


@pytest.mark.django_db
@pytest.mark.parametrize(
    "when",
    ["0001-01-01T00:00:00+14:00", "0001-01-01T00:00:00", "1999-12-31T23:00:00"],
    ids=["year-1-offset", "year-1", "1999"],
)
def test_a_date_no_bank_can_have_sent_is_unreadable(alice_api, model, when):  # noqa: F811
    model.script(text(reply(occurred_at=when)))
    assert_error(post(alice_api, ODD), 422, "BANK_TEXT_UNREADABLE")
    assert not BankTextDraft.objects.exists() and not Transaction.objects.exists()
