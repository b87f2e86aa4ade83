"""The assistant's transfers: list_transfers and mark_transfer through the ledger's services (docs/ledger.md)."""

import pytest

from assets.ledger.models import RejectedPair, Transfer
from assets.models import Transaction
from chat.tools.reads import summarize_spending
from tests import factories
from tests.chat.tools.helpers import call

pytestmark = pytest.mark.django_db(transaction=True)


def _top_up(user, day):
    bank = factories.asset(user, name="Vietcombank", kind="bank_account")
    momo = factories.asset(user, name="MoMo", kind="e_wallet")
    out = factories.txn(user, amount="2000000", category="other", description="Nap MoMo", occurred_on=day, asset=bank)
    inc = factories.txn(
        user, amount="2000000", direction="income", category="other_income", occurred_on=day, asset=momo
    )
    return out, inc


def test_mark_transfer_pairs_two_rows_and_they_stop_counting(alice, alice_ctx):
    out, inc = _top_up(alice, alice_ctx.today)
    before = summarize_spending(alice_ctx, {"period": "this_month"})
    assert before["total"] == "2000000"

    done = call(alice_ctx, "mark_transfer", {"outgoing_id": out.id, "incoming_id": inc.id}, call_id="mt1")

    assert not done.is_error and done.output["marked"] is True
    transfer = Transfer.objects.get(user=alice, status="paired")
    assert set(Transaction.objects.filter(transfer=transfer).values_list("id", flat=True)) == {out.id, inc.id}
    assert summarize_spending(alice_ctx, {"period": "this_month"})["total"] == "0"
    listed = call(alice_ctx, "list_transfers", {}).output
    assert [(t["outgoing"]["id"], t["incoming"]["id"]) for t in listed["transfers"]] == [(out.id, inc.id)]
    # The same call id again is the stored outcome: no second transfer.
    again = call(alice_ctx, "mark_transfer", {"outgoing_id": out.id, "incoming_id": inc.id}, call_id="mt1")
    assert again == done and Transfer.objects.filter(user=alice).count() == 1


def test_a_suggestion_is_accepted_or_rejected_and_a_rejection_is_remembered(alice, alice_ctx):
    out, inc = _top_up(alice, alice_ctx.today)
    suggestion = Transfer.objects.create(user=alice, outgoing=out, incoming=inc, status="suggested")
    listed = call(alice_ctx, "list_transfers", {"status": "suggested"}).output
    assert [t["id"] for t in listed["transfers"]] == [suggestion.id]

    rejected = call(alice_ctx, "mark_transfer", {"transfer_id": suggestion.id, "decision": "reject"})

    assert not rejected.is_error and rejected.output["rejected"] is True
    assert RejectedPair.objects.filter(user=alice).exists()
    assert not Transfer.objects.filter(user=alice, status="paired").exists()


def test_another_users_rows_are_refused_and_nothing_changes(alice, alice_ctx, bob):
    theirs, _ = _top_up(bob, alice_ctx.today)
    refused = call(alice_ctx, "mark_transfer", {"outgoing_id": theirs.id})
    assert refused.is_error
    assert not Transfer.objects.exists()
    assert call(alice_ctx, "mark_transfer", {}).is_error


def test_the_assistant_corrects_a_synced_row_but_not_its_facts(alice, alice_ctx):
    synced = factories.txn(alice, amount="300000", category="other", source="synced")
    fixed = call(alice_ctx, "update_manual_transaction", {"transaction_id": synced.id, "category": "groceries"})
    assert not fixed.is_error and fixed.output["transaction"]["category"] == "groceries"
    excluded = call(alice_ctx, "update_manual_transaction", {"transaction_id": synced.id, "excluded": True})
    assert excluded.output["transaction"]["excluded"] is True
    refused = call(alice_ctx, "update_manual_transaction", {"transaction_id": synced.id, "amount": "1k"})
    assert refused.is_error and refused.output["error"]["code"] == "SYNCED_READ_ONLY"
    synced.refresh_from_db()
    assert synced.amount == 300000
