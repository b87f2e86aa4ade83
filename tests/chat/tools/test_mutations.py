import datetime as dt
from decimal import Decimal

import pytest

from assets.models import Asset, Source, Transaction
from goals.models import Goal
from tests import factories
from tests.chat.tools.helpers import call

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    ("amount", "stored"),
    [
        ("150k", Decimal("150000")),
        ("1.5m", Decimal("1500000")),
        ("2tr", Decimal("2000000")),
        ("2 triệu", Decimal("2000000")),
        ("150.000", Decimal("150000")),
        ("150,000đ", Decimal("150000")),
        (45000, Decimal("45000")),
    ],
)
def test_create_manual_transaction_reads_amount_shorthand(alice, alice_ctx, amount, stored):
    outcome = call(alice_ctx, "create_manual_transaction", {"amount": amount, "description": "KFC"})

    assert not outcome.is_error, outcome.output
    txn = Transaction.objects.get(user=alice)
    assert txn.amount == stored
    assert (txn.direction, txn.category, txn.occurred_on, txn.currency) == ("expense", "other", alice_ctx.today, "VND")
    assert outcome.output["transaction"]["amount"] == str(stored)
    assert outcome.card["kind"] == "result_summary" and outcome.card["status"] == "created"


def test_create_manual_transaction_in_dollars(alice_ctx, alice):
    outcome = call(
        alice_ctx,
        "create_manual_transaction",
        {"amount": "$12.50", "description": "Sandwich", "currency": "USD", "category": "dining"},
    )
    assert outcome.output["transaction"]["amount"] == "12.50"
    assert Transaction.objects.get(user=alice).currency == "USD"


def test_income_with_a_date(alice, alice_ctx):
    outcome = call(
        alice_ctx,
        "create_manual_transaction",
        {
            "amount": "25tr",
            "description": "Salary",
            "direction": "income",
            "category": "salary",
            "occurred_on": "2026-11-01",
        },
    )
    assert not outcome.is_error
    txn = Transaction.objects.get(user=alice)
    assert (txn.direction, txn.occurred_on) == ("income", dt.date(2026, 11, 1))


@pytest.mark.parametrize(
    "bad",
    [
        {"description": "no amount"},
        {"amount": "lots", "description": "x"},
        {"amount": "-5", "description": "x"},
        {"amount": 0, "description": "x"},
        {"amount": True, "description": "x"},
        {"amount": "150k", "description": "x", "direction": "sideways"},
        {"amount": "150k", "description": "x", "category": "salary"},
        {"amount": "150k", "description": "x", "occurred_on": "29/11/2026"},
        {"amount": "150k", "description": "x", "currency": "XYZ"},
        {"amount": "150k", "description": "x" * 201},
        {"amount": "150k", "description": "x", "user_id": 1},
    ],
)
def test_create_manual_transaction_refuses_bad_input_and_writes_nothing(alice, alice_ctx, bad):
    outcome = call(alice_ctx, "create_manual_transaction", bad)
    assert outcome.is_error and outcome.card is None
    assert outcome.output["error"]["code"] and outcome.output["error"]["message"]
    assert not Transaction.objects.exists()


def test_it_asks_which_asset_when_the_user_has_several(alice, alice_ctx):
    cash = factories.asset(alice, name="Cash")
    factories.asset(alice, name="MoMo", kind="e_wallet")
    factories.asset(alice, name="Bank", kind="bank_account", source=Source.SYNCED)

    outcome = call(alice_ctx, "create_manual_transaction", {"amount": "150k", "description": "KFC"})

    assert not outcome.is_error
    assert outcome.output["status"] == "asset_required"
    assert not Transaction.objects.exists()
    card = outcome.card
    assert card["kind"] == "asset_selector" and card["event"] == "existing_asset_selected"
    assert {a["name"] for a in card["assets"]} == {"Cash", "MoMo"}
    assert card["pending"] == {"description": "KFC", "amount": "150000", "currency": "VND"}

    picked = call(alice_ctx, "create_manual_transaction", {"amount": "150k", "description": "KFC", "asset_id": cash.id})
    assert Transaction.objects.get(user=alice).asset == cash
    assert picked.card["kind"] == "result_summary"


def test_a_bad_amount_fails_before_the_asset_question(alice, alice_ctx):
    factories.asset(alice, name="Cash")
    factories.asset(alice, name="MoMo")
    assert call(alice_ctx, "create_manual_transaction", {"amount": "lots", "description": "KFC"}).is_error


def test_a_sole_manual_asset_is_used_and_none_means_none(alice, alice_ctx):
    cash = factories.asset(alice, name="Cash")
    call(alice_ctx, "create_manual_transaction", {"amount": "50k", "description": "phở"})
    factories.asset(alice, name="MoMo")
    call(alice_ctx, "create_manual_transaction", {"amount": "20k", "description": "tea", "asset_id": None})

    assert Transaction.objects.get(description="phở").asset == cash
    assert Transaction.objects.get(description="tea").asset is None


def test_another_users_asset_is_not_found(alice_ctx, bob):
    bobs = factories.asset(bob, name="Bob cash")
    outcome = call(alice_ctx, "create_manual_transaction", {"amount": "1k", "description": "x", "asset_id": bobs.id})
    assert outcome.output["error"]["code"] == "NOT_FOUND"
    assert not Transaction.objects.exists()


def test_update_manual_transaction(alice, alice_ctx):
    txn = factories.txn(alice, amount="150000", description="KFC", category="other")

    outcome = call(
        alice_ctx, "update_manual_transaction", {"transaction_id": txn.id, "amount": "120k", "category": "dining"}
    )

    txn.refresh_from_db()
    assert (txn.amount, txn.category) == (Decimal("120000"), "dining")
    assert outcome.card["status"] == "updated"


def test_update_refuses_synced_others_and_empty_changes(alice, bob, alice_ctx):
    synced = factories.txn(alice, source=Source.SYNCED, external_id="s1")
    bobs = factories.txn(bob)
    mine = factories.txn(alice)

    assert (
        call(alice_ctx, "update_manual_transaction", {"transaction_id": synced.id, "amount": "1k"}).output["error"][
            "code"
        ]
        == "SYNCED_READ_ONLY"
    )
    assert (
        call(alice_ctx, "update_manual_transaction", {"transaction_id": bobs.id, "amount": "1k"}).output["error"][
            "code"
        ]
        == "NOT_FOUND"
    )
    assert call(alice_ctx, "update_manual_transaction", {"transaction_id": mine.id}).is_error
    assert call(alice_ctx, "update_manual_transaction", {"transaction_id": "abc", "amount": "1k"}).is_error
    bobs.refresh_from_db()
    assert bobs.amount == Decimal("100000")


def test_create_and_update_manual_asset(alice, alice_ctx):
    created = call(alice_ctx, "create_manual_asset", {"name": "MoMo", "kind": "e_wallet", "balance": "500k"})
    asset_id = created.output["asset"]["id"]
    updated = call(alice_ctx, "update_manual_asset", {"asset_id": asset_id, "balance": "1.2m", "name": "Ví MoMo"})

    asset = Asset.objects.get(user=alice)
    assert (asset.name, asset.balance, asset.source) == ("Ví MoMo", Decimal("1200000"), "manual")
    assert created.card["status"] == "created" and updated.card["status"] == "updated"
    assert call(alice_ctx, "create_manual_asset", {"name": "Gold", "kind": "jewels"}).is_error
    assert call(alice_ctx, "create_manual_asset", {"name": "", "kind": "cash"}).is_error
    assert call(alice_ctx, "update_manual_asset", {"asset_id": asset_id}).is_error


def test_synced_and_foreign_assets_refuse_updates(alice, bob, alice_ctx):
    synced = factories.asset(alice, source=Source.SYNCED)
    bobs = factories.asset(bob)
    assert (
        call(alice_ctx, "update_manual_asset", {"asset_id": synced.id, "name": "x"}).output["error"]["code"]
        == "SYNCED_READ_ONLY"
    )
    assert (
        call(alice_ctx, "update_manual_asset", {"asset_id": bobs.id, "name": "x"}).output["error"]["code"]
        == "NOT_FOUND"
    )


@pytest.mark.parametrize("deadline", ["10 years", "18 months", "2040-01-01"])
def test_create_goal_with_relative_or_absolute_deadline(alice, alice_ctx, deadline):
    outcome = call(
        alice_ctx,
        "create_goal",
        {"name": "House", "kind": "house", "target_amount": "2 tỷ", "deadline": deadline, "current_amount": "100tr"},
    )

    assert not outcome.is_error, outcome.output
    goal = Goal.objects.get(user=alice)
    assert (goal.target_amount, goal.current_amount) == (Decimal("2000000000"), Decimal("100000000"))
    assert goal.deadline > alice_ctx.today
    assert outcome.output["goal"]["monthly_needed"]
    assert outcome.card["kind"] == "result_summary" and outcome.card["record"]["type"] == "goal"


@pytest.mark.parametrize(
    "bad",
    [
        {"name": "House", "kind": "castle", "target_amount": "1m", "deadline": "10 years"},
        {"name": "House", "kind": "house", "target_amount": "1m", "deadline": "someday"},
        {"name": "House", "kind": "house", "target_amount": "1m", "deadline": "2001-01-01"},
        {"name": "House", "kind": "house", "target_amount": "0", "deadline": "10 years"},
        {"name": "House", "kind": "house", "deadline": "10 years"},
    ],
)
def test_create_goal_refuses_bad_input(alice, alice_ctx, bad):
    assert call(alice_ctx, "create_goal", bad).is_error
    assert not Goal.objects.exists()
