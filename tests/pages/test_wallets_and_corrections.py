"""/wallets and the ledger's corrections on /transactions and in the inbox, as a person uses them."""

import datetime as dt
from decimal import Decimal

import pytest

from assets import services
from assets.ledger.models import TransactionSplit, Transfer
from assets.models import Asset, Source, Transaction
from tests import factories

pytestmark = pytest.mark.django_db
DAY = dt.date(2026, 11, 10)


def _payment_picker(html: str) -> str:
    """The new transaction form's account <select>."""
    picker = html[html.index('name="new-asset"') :]
    return picker[: picker.index("</select>")]


def test_wallets_answers_with_and_without_the_slash_in_both_languages(alice, alice_web):
    factories.asset(alice, name="Thẻ tín dụng VIB", kind="credit_card", balance="3000000")
    page = alice_web.get("/wallets")
    assert page.status_code == 200 and alice_web.get("/wallets/").status_code == 200
    assert "Thẻ tín dụng VIB" in page.content.decode() and "\u22123,000,000" in page.content.decode()
    alice.profile.language = "vi"
    alice.profile.save()
    assert "Ví &amp; tài khoản" in alice_web.get("/wallets", HTTP_ACCEPT_LANGUAGE="vi").content.decode()


def test_wallets_needs_a_login(client):
    assert client.get("/wallets").status_code == 302


def test_an_account_is_created_edited_reconciled_archived_and_restored(alice, alice_web):
    response = alice_web.post("/wallets", {"name": "MoMo", "kind": "e_wallet", "balance": "500k", "currency": "VND"})
    assert response.status_code == 302
    momo = Asset.objects.get(user=alice, name="MoMo")
    alice_web.post(f"/wallets/{momo.id}/edit", {"name": "Ví MoMo", "kind": "e_wallet"})
    alice_web.post(f"/wallets/{momo.id}/reconcile", {"balance": "450000"})
    momo.refresh_from_db()
    assert (momo.name, momo.balance) == ("Ví MoMo", Decimal("450000"))
    adjustment = Transaction.objects.get(user=alice, asset=momo)
    assert (adjustment.direction, adjustment.amount, adjustment.excluded) == ("expense", Decimal("50000"), True)
    assert (adjustment.description, adjustment.note) == ("Balance adjustment: Ví MoMo", "Reconciled to ₫450,000")
    alice_web.post(f"/wallets/{momo.id}/archive", {"archived": "1"})
    assert Asset.objects.get(pk=momo.pk).archived_at is not None
    assert "Ví MoMo" not in _payment_picker(alice_web.get("/transactions").content.decode())
    alice_web.post(f"/wallets/{momo.id}/archive", {"archived": "0"})
    assert Asset.objects.get(pk=momo.pk).archived_at is None


def test_a_reconciled_accounts_adjustment_is_worded_in_its_owners_language(alice, alice_web):
    alice.profile.language = "vi"
    alice.profile.save(update_fields=["language"])
    momo = factories.asset(alice, name="Ví MoMo", kind="e_wallet", balance="500000")
    alice_web.post(f"/wallets/{momo.id}/reconcile", {"balance": "450000"})
    adjustment = Transaction.objects.get(user=alice, asset=momo)
    assert (adjustment.description, adjustment.note) == ("Điều chỉnh số dư: Ví MoMo", "Đối chiếu về 450.000\xa0₫")


def test_another_users_account_is_untouched(alice, bob, alice_web):
    bobs = factories.asset(bob, name="Bob's cash", balance="100")
    alice_web.post(f"/wallets/{bobs.id}/reconcile", {"balance": "0"})
    alice_web.post(f"/wallets/{bobs.id}/archive", {"archived": "1"})
    bobs.refresh_from_db()
    assert (bobs.balance, bobs.archived_at) == (Decimal("100"), None)


def test_the_payment_picker_offers_only_spendable_accounts(alice, alice_web):
    factories.asset(alice, name="Honda Vision", kind="vehicle")
    card = factories.asset(alice, name="VIB card", kind="credit_card")
    picker = _payment_picker(alice_web.get("/transactions").content.decode())
    assert "VIB card" in picker and "Honda Vision" not in picker
    assert str(card.id) in picker


def test_a_synced_row_is_corrected_split_and_marked_as_a_transfer(alice, alice_web):
    row = factories.txn(alice, amount="300000", category="groceries", source=Source.SYNCED, external_id="s1")
    alice_web.post(
        f"/transactions/{row.id}/correct",
        {"category": "shopping", "note": "for mum", "excluded": "1", "description": "Co.op"},
    )
    row.refresh_from_db()
    assert (row.category, row.note, row.excluded, row.description) == ("shopping", "for mum", True, "Co.op")
    alice_web.post(
        f"/transactions/{row.id}/split",
        {
            "part_amount": ["200000", "100000", ""],
            "part_category": ["groceries", "shopping", "other"],
            "part_note": ["", "", ""],
        },
    )
    assert list(TransactionSplit.objects.values_list("category", flat=True)) == ["groceries", "shopping"]
    html = alice_web.get("/transactions").content.decode()
    assert "Left out of totals" in html and "for mum" in html
    alice_web.post(f"/transactions/{row.id}/split", {"unsplit": "1"})
    assert not TransactionSplit.objects.exists()
    alice_web.post(f"/transactions/{row.id}/transfer", {})
    row.refresh_from_db()
    assert row.transfer_id is not None
    assert "Transfer" in alice_web.get("/transactions").content.decode()
    alice_web.post(f"/transactions/{row.id}/transfer", {"undo": str(row.transfer_id)})
    row.refresh_from_db()
    assert row.transfer_id is None


def test_a_split_that_does_not_add_up_changes_nothing(alice, alice_web):
    row = factories.txn(alice, amount="300000")
    response = alice_web.post(
        f"/transactions/{row.id}/split",
        {"part_amount": ["200000", "1"], "part_category": ["groceries", "shopping"], "part_note": ["", ""]},
        follow=True,
    )
    assert "add up to" in response.content.decode()
    assert not TransactionSplit.objects.exists()


def test_transfer_suggestions_wait_in_the_inbox_and_take_one_tap(alice, alice_web):
    a, b, c = (factories.asset(alice, name=n, kind="bank_account") for n in ("VCB", "TCB", "MoMo"))
    services.transaction_create(user=alice, amount="700000", occurred_on=DAY, asset_id=a.id, description="to momo")
    services.transaction_create(user=alice, amount="700000", occurred_on=DAY, asset_id=b.id)
    services.transaction_create(user=alice, amount="700000", direction="income", occurred_on=DAY, asset_id=c.id)
    first, second = Transfer.objects.filter(status="suggested").order_by("id")
    html = alice_web.get("/inbox").content.decode()
    assert f"transfer-suggestion-{first.id}" in html and f"transfer-suggestion-{second.id}" in html
    alice_web.post(f"/transfers/suggestions/{second.id}/reject", {"back": "/inbox"})
    response = alice_web.post(f"/transfers/suggestions/{first.id}/accept", {"back": "/inbox"})
    assert response.status_code == 302 and response["Location"] == "/inbox"
    assert list(Transfer.objects.values_list("status", flat=True)) == ["paired"]
    assert "transfer-suggestion-" not in alice_web.get("/inbox").content.decode()


def test_the_csv_export_has_a_transfer_column(alice, alice_web):
    out = factories.txn(alice, amount="1000000")
    factories.txn(alice, amount="5000")
    services.transaction_create(user=alice, amount="1", description="warm-up")
    from assets.ledger.transfers import transfer_create

    transfer = transfer_create(user=alice, out_id=out.id)
    lines = b"".join(alice_web.get("/transactions.csv").streaming_content).decode().splitlines()
    assert lines[0].endswith(",transfer")
    assert sum(1 for line in lines[1:] if line.endswith(f",{transfer.id}")) == 1
