"""What the looking-ahead cards carry for the page to draw (docs/contract/cards.md): a debt's next instalments
still to pay, and the VietQR drawn by Zeus from its own payload."""

import datetime as dt

import pytest

from assets.vietqr import payload as vietqr_payload
from tests import factories
from tests.chat.tools.helpers import call

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_debt_card_carries_the_next_three_instalments_still_to_pay(alice_ctx):
    first = alice_ctx.today + dt.timedelta(days=5)
    made = call(
        alice_ctx,
        "create_debt",
        {
            "direction": "i_owe",
            "counterparty": "Lan",
            "principal": "2tr",
            "installments": 4,
            "first_due_on": first.isoformat(),
        },
    ).output["debt"]
    call(alice_ctx, "record_debt_payment", {"debt_id": made["id"], "amount": "500k"})
    [item] = call(alice_ctx, "list_debts", {"direction": "i_owe"}).card["items"]
    assert [(r["number"], r["amount"], r["remaining"]) for r in item["schedule"]] == [
        (2, "500000", "500000"),
        (3, "500000", "500000"),
        (4, "500000", "500000"),
    ]
    assert item["schedule"][0]["due_on"] == item["next_due"]["due_on"]


def test_the_vietqr_card_carries_the_svg_of_its_own_payload(alice, alice_ctx):
    debt = call(
        alice_ctx, "create_debt", {"direction": "owed_to_me", "counterparty": "Tú", "principal": "250k"}
    ).output["debt"]
    account = factories.asset(alice, kind="bank_account", bank_bin="970436", account_number="0071000012345")
    card = call(alice_ctx, "get_debt_vietqr", {"debt_id": debt["id"], "account_id": account.id}).card
    assert card["counterparty"] == "Tú"
    assert card["svg"].startswith("<svg") and card["svg"].rstrip().endswith("</svg>")
    assert "<script" not in card["svg"]
    assert vietqr_payload.parse(card["payload"]).purpose == debt["code"]
