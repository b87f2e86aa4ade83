"""A credit card's statement and due days through REST assets, and the amount due they give."""

import datetime as dt

import pytest

from assets import services
from assets.cards import cycle
from assets.ledger.transfers import transfer_create
from assets.models import Asset
from tests import factories
from tests.assets.helpers import assert_error
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db


def card_days(today: dt.date) -> tuple[int, int, dt.date]:
    """A statement day five days ago (28 at most, so no month clamps it) and a due day after it."""
    statement_day = min((today - dt.timedelta(days=5)).day, 28)
    statement_on = cycle.last_statement_on(today, statement_day)
    return statement_day, statement_day, statement_on


def test_a_card_takes_its_days_and_answers_what_is_due(alice_api, alice):
    today = user_today(alice)
    statement_day, due_day, statement_on = card_days(today)
    created = alice_api.post(
        "/api/v1/assets",
        {"name": "VIB card", "kind": "credit_card", "balance": "5000000", "statement_day": statement_day,
         "due_day": due_day},
        format="json",
    )  # fmt: skip
    assert created.status_code == 201, created.content
    card = created.json()
    assert (card["statement_day"], card["due_day"]) == (statement_day, due_day)
    bank = factories.asset(alice, name="VCB", kind="bank_account", balance="9000000")
    before, after = statement_on, statement_on + dt.timedelta(days=1)

    def row(amount, direction, on, asset_id=card["id"]):
        return services.transaction_create(
            user=alice, amount=amount, direction=direction, occurred_on=on, asset_id=asset_id
        )

    row("800000", "expense", before)  # on the statement: billed
    row("1200000", "expense", after)  # since: next statement's
    excluded = row("999000", "expense", after)
    excluded.excluded = True
    excluded.save(update_fields=["excluded"])
    out = row("1000000", "expense", after, asset_id=bank.id)
    repayment = row("1000000", "income", after)
    repayment.refresh_from_db()
    if repayment.transfer_id is None:  # paired on arrival when Zeus sees both sides; else the user marks it
        transfer_create(user=alice, out_id=out.id, in_id=repayment.id)
    repayment.refresh_from_db()
    assert repayment.transfer_id is not None

    due = alice_api.get(f"/api/v1/assets/{card['id']}").json()["card_due"]
    # Owed at the statement: 5,000,000 - 1,200,000 + 1,000,000; due: that less the 1,000,000 repaid.
    assert due["statement_on"] == statement_on.isoformat()
    assert (due["statement_balance"], due["repaid"], due["amount_due"]) == ("4800000", "1000000", "3800000")
    assert due["due_on"] == cycle.due_after(statement_on, due_day).isoformat()
    assert (due["not_yet_billed"], due["overdue"]) == ("1200000", False)
    listed = {a["id"]: a for a in alice_api.get("/api/v1/assets").json()["results"]}
    assert listed[card["id"]]["card_due"] == due
    assert listed[bank.id]["card_due"] is None and listed[bank.id]["statement_day"] is None


def test_the_days_are_edited_and_cleared(alice_api, alice):
    card = factories.asset(alice, name="Card", kind="credit_card", balance="100000")
    patched = alice_api.patch(f"/api/v1/assets/{card.id}", {"statement_day": 20, "due_day": 5}, format="json")
    assert patched.status_code == 200, patched.content
    assert patched.json()["card_due"]["amount_due"] in ("100000", "0")
    cleared = alice_api.patch(f"/api/v1/assets/{card.id}", {"statement_day": None, "due_day": None}, format="json")
    assert (cleared.json()["statement_day"], cleared.json()["card_due"]) == (None, None)


def test_a_card_that_becomes_another_kind_loses_its_cycle(alice_api, alice):
    card = factories.asset(alice, name="Card", kind="credit_card", statement_day=20, due_day=5)
    changed = alice_api.patch(f"/api/v1/assets/{card.id}", {"kind": "bank_account"}, format="json").json()
    assert (changed["statement_day"], changed["due_day"]) == (None, None)


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"kind": "bank_account", "statement_day": 20, "due_day": 5}, 400, "NOT_A_CARD"),
        ({"kind": "credit_card", "statement_day": 20}, 400, "CARD_DAYS_PAIR"),
        ({"kind": "credit_card", "statement_day": 32, "due_day": 5}, 400, None),
        ({"kind": "credit_card", "statement_day": 0, "due_day": 5}, 400, None),
        ({"kind": "credit_card", "statement_day": "x", "due_day": 5}, 400, None),
    ],
)
def test_bad_days_are_refused_and_nothing_is_written(alice_api, body, status, code):
    response = alice_api.post("/api/v1/assets", {"name": "Card", **body}, format="json")
    if code:
        assert_error(response, status, code)
    else:
        assert response.status_code == status
    assert not Asset.objects.exists()


def test_the_database_refuses_a_cycle_on_another_kind(alice):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        factories.asset(alice, kind="bank_account", statement_day=20, due_day=5)
    with pytest.raises(IntegrityError), transaction.atomic():
        factories.asset(alice, kind="credit_card", statement_day=20)


def test_a_list_of_cards_reads_their_dues_in_constant_queries(alice_api, alice, django_assert_max_num_queries):
    for n in range(6):
        factories.asset(alice, name=f"Card {n}", kind="credit_card", balance="100000", statement_day=n + 1, due_day=20)
    alice_api.get("/api/v1/assets")
    with django_assert_max_num_queries(8):
        body = alice_api.get("/api/v1/assets").json()
    assert all(a["card_due"]["amount_due"] == "100000" for a in body["results"])
