import datetime as dt
import uuid

import pytest
from django.utils import timezone

from assets.models import Asset, Source, Transaction
from chat.models import Approval, ToolExecution
from tests import factories
from tests.chat.tools.helpers import call, ctx_for, decide
from tests.race import at_once

pytestmark = pytest.mark.django_db(transaction=True)


def ask_delete(ctx, txn, call_id=None):
    return call(ctx, "delete_manual_transaction", {"transaction_id": txn.id}, call_id=call_id)


def test_the_first_delete_call_only_asks(alice, alice_ctx):
    txn = factories.txn(alice, description="KFC", amount="150000")

    outcome = ask_delete(alice_ctx, txn)

    assert not outcome.is_error
    assert Transaction.objects.filter(id=txn.id).exists()
    card = outcome.card
    assert card["kind"] == "confirm" and card["event"] == "confirm"
    assert card["approval_id"] == outcome.output["approval_id"]
    assert "KFC" in card["message"] and "150,000" in card["message"]
    approval = Approval.objects.get(id=card["approval_id"])
    assert (approval.user, approval.thread_id, approval.tool) == (
        alice,
        alice_ctx.thread_id,
        "delete_manual_transaction",
    )
    assert approval.arguments == {"transaction_id": txn.id}
    assert approval.expires_at - timezone.now() <= dt.timedelta(minutes=10)


def test_approve_runs_the_stored_arguments_once(alice, alice_ctx):
    txn = factories.txn(alice, description="KFC")
    approval_id = ask_delete(alice_ctx, txn).output["approval_id"]

    approved = decide(alice_ctx, approval_id, "approve")
    again = decide(alice_ctx, approval_id, "approve")
    rejected_late = decide(alice_ctx, approval_id, "reject")

    assert not approved.is_error and approved.output["deleted"] is True
    assert approved.card["kind"] == "result_summary" and approved.card["status"] == "deleted"
    assert not Transaction.objects.filter(id=txn.id).exists()
    assert again.output["error"]["code"] == "APPROVAL_USED"
    assert rejected_late.output["error"]["code"] == "APPROVAL_USED"


def test_reject_records_the_refusal_and_deletes_nothing(alice, alice_ctx):
    txn = factories.txn(alice)
    approval_id = ask_delete(alice_ctx, txn).output["approval_id"]

    outcome = decide(alice_ctx, approval_id, "reject")

    assert outcome.output["status"] == "rejected"
    assert outcome.card["status"] == "cancelled"
    assert Transaction.objects.filter(id=txn.id).exists()
    assert Approval.objects.get(id=approval_id).status == "rejected"
    assert decide(alice_ctx, approval_id, "approve").output["error"]["code"] == "APPROVAL_USED"


def test_an_expired_approval_does_nothing(alice, alice_ctx):
    txn = factories.txn(alice)
    approval_id = ask_delete(alice_ctx, txn).output["approval_id"]
    Approval.objects.filter(id=approval_id).update(expires_at=timezone.now() - dt.timedelta(seconds=1))

    assert decide(alice_ctx, approval_id, "approve").output["error"]["code"] == "APPROVAL_EXPIRED"
    assert Transaction.objects.filter(id=txn.id).exists()


def test_another_user_or_another_thread_cannot_use_it(alice, bob, alice_ctx, bob_ctx):
    txn = factories.txn(alice)
    approval_id = ask_delete(alice_ctx, txn).output["approval_id"]
    other_thread = ctx_for(alice, thread_id=uuid.uuid4())

    assert decide(bob_ctx, approval_id, "approve").output["error"]["code"] == "NOT_FOUND"
    assert decide(other_thread, approval_id, "approve").output["error"]["code"] == "NOT_FOUND"
    assert decide(alice_ctx, str(uuid.uuid4()), "approve").output["error"]["code"] == "NOT_FOUND"
    assert decide(alice_ctx, "not-a-uuid", "approve").output["error"]["code"] == "NOT_FOUND"
    assert decide(alice_ctx, approval_id, "maybe").is_error
    assert Transaction.objects.filter(id=txn.id).exists()
    assert not decide(alice_ctx, approval_id, "approve").is_error


def test_a_record_gone_before_the_click_is_a_clear_error(alice, alice_ctx):
    txn = factories.txn(alice)
    approval_id = ask_delete(alice_ctx, txn).output["approval_id"]
    txn.delete()

    outcome = decide(alice_ctx, approval_id, "approve")

    assert outcome.is_error and outcome.output["error"]["code"] == "NOT_FOUND"
    assert outcome.card is None


def test_deletes_refuse_synced_and_foreign_records_before_asking(alice, bob, alice_ctx):
    synced = factories.txn(alice, source=Source.SYNCED, external_id="e1")
    bobs = factories.txn(bob)
    synced_asset = factories.asset(alice, source=Source.SYNCED)

    assert ask_delete(alice_ctx, synced).output["error"]["code"] == "SYNCED_READ_ONLY"
    assert ask_delete(alice_ctx, bobs).output["error"]["code"] == "NOT_FOUND"
    assert call(alice_ctx, "delete_manual_asset", {"asset_id": synced_asset.id}).output["error"]["code"] == (
        "SYNCED_READ_ONLY"
    )
    assert not Approval.objects.exists()


def test_delete_manual_asset_after_approval(alice, alice_ctx):
    asset = factories.asset(alice, name="Old wallet", balance="10000")
    asked = call(alice_ctx, "delete_manual_asset", {"asset_id": asset.id})
    assert asked.card["kind"] == "confirm" and "Old wallet" in asked.card["message"]
    assert Asset.objects.filter(id=asset.id).exists()

    done = decide(alice_ctx, asked.output["approval_id"], "approve")

    assert done.output["asset"]["name"] == "Old wallet" and done.card["status"] == "deleted"
    assert not Asset.objects.filter(id=asset.id).exists()


def test_replaying_the_delete_call_returns_the_same_approval(alice, alice_ctx):
    txn = factories.txn(alice)
    first = ask_delete(alice_ctx, txn, call_id="toolu_del1")
    second = ask_delete(alice_ctx, txn, call_id="toolu_del1")

    assert first.output == second.output and first.card == second.card
    assert Approval.objects.count() == 1


def test_two_concurrent_approvals_run_once(alice, alice_ctx):
    txn = factories.txn(alice)
    approval_id = ask_delete(alice_ctx, txn).output["approval_id"]

    def click():
        return decide(alice_ctx, approval_id, "approve")

    outcomes = at_once(click, click)
    assert sorted(o.is_error for o in outcomes) == [False, True]
    assert [o.output["error"]["code"] for o in outcomes if o.is_error] == ["APPROVAL_USED"]
    assert not Transaction.objects.filter(id=txn.id).exists()
    assert ToolExecution.objects.count() == 1
