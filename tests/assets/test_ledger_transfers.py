"""Transfers between one's own accounts: found on arrival from every source, the ambiguity rule of
docs/ledger.md case by case, one-tap accept and reject, undo, and two SePay deliveries of the two sides
landing at once on two connections."""

import datetime as dt
import io
from functools import partial

import pytest
from django.test import Client

from assets import services
from assets.importing import transactions_import
from assets.ledger import transfers
from assets.ledger.models import RejectedPair, Transfer
from assets.ledger.pairing import transfer_pair_arrivals
from assets.models import Transaction
from tests import factories
from tests.assets.feeds.sepay import deliver, payload
from tests.race import at_once

DAY = dt.date(2026, 11, 10)


@pytest.fixture
def accounts(alice):
    return (
        factories.asset(alice, name="Vietcombank", kind="bank_account"),
        factories.asset(alice, name="MoMo", kind="e_wallet"),
        factories.asset(alice, name="Techcombank", kind="bank_account"),
    )


def _create(user, asset, direction, amount="2000000", day=DAY):
    return services.transaction_create(
        user=user, amount=amount, direction=direction, occurred_on=day, asset_id=asset.id
    )


def test_a_top_up_is_paired_on_arrival_and_counts_nowhere(alice, accounts):
    bank, momo, _ = accounts
    out = _create(alice, bank, "expense")
    top_up = _create(alice, momo, "income", day=DAY + dt.timedelta(days=1))
    assert top_up.transfer_id is not None
    out.refresh_from_db()
    assert out.transfer_id == top_up.transfer_id
    transfer = Transfer.objects.get(pk=out.transfer_id)
    assert (transfer.status, transfer.outgoing_id, transfer.incoming_id) == ("paired", out.id, top_up.id)
    assert not Transaction.objects.counted().filter(user=alice).exists()


def test_two_candidates_make_two_suggestions_and_no_pair(alice, accounts):
    bank, momo, other_bank = accounts
    first = _create(alice, bank, "expense")
    second = _create(alice, other_bank, "expense")
    arriving = _create(alice, momo, "income")
    assert arriving.transfer_id is None
    suggested = Transfer.objects.filter(user=alice, status="suggested")
    assert {(s.outgoing_id, s.incoming_id) for s in suggested} == {(first.id, arriving.id), (second.id, arriving.id)}
    assert Transaction.objects.counted().filter(user=alice).count() == 3


def test_a_candidate_with_a_rival_of_its_own_is_only_suggested(alice, accounts):
    bank, momo, other_bank = accounts
    out = _create(alice, bank, "expense")
    _create(alice, momo, "income")  # the first income pairs with `out`, being the only one
    Transfer.objects.all().delete()
    Transaction.objects.update(transfer=None)
    rival = _create(alice, other_bank, "income")
    assert rival.transfer_id is None
    assert Transfer.objects.filter(outgoing=out, status="suggested").count() == 2


def test_a_fee_folded_into_one_side_pairs_nothing(alice, accounts):
    bank, momo, _ = accounts
    _create(alice, bank, "expense", amount="2001100")
    arriving = _create(alice, momo, "income")
    assert arriving.transfer_id is None and not Transfer.objects.exists()


def test_a_fee_charged_as_its_own_row_stays_spending(alice, accounts):
    bank, momo, _ = accounts
    out = _create(alice, bank, "expense")
    fee = _create(alice, bank, "expense", amount="1100")
    arriving = _create(alice, momo, "income")
    assert arriving.transfer_id is not None
    assert list(Transaction.objects.counted().filter(user=alice).values_list("id", flat=True)) == [fee.id]
    out.refresh_from_db()
    assert out.transfer_id == arriving.transfer_id


def test_three_days_apart_pairs_and_four_days_apart_does_not(alice, accounts):
    bank, momo, _ = accounts
    _create(alice, bank, "expense", day=DAY)
    assert _create(alice, momo, "income", day=DAY + dt.timedelta(days=3)).transfer_id is not None
    _create(alice, bank, "expense", amount="500000", day=DAY)
    assert _create(alice, momo, "income", amount="500000", day=DAY + dt.timedelta(days=4)).transfer_id is None


def test_the_same_account_or_no_account_never_pairs(alice, accounts):
    bank, _, _ = accounts
    _create(alice, bank, "expense")
    assert _create(alice, bank, "income").transfer_id is None
    assert (
        services.transaction_create(user=alice, amount="2000000", direction="income", occurred_on=DAY).transfer_id
        is None
    )
    assert not Transfer.objects.exists()


def test_another_users_row_is_never_a_counterpart(alice, bob, accounts):
    bank, _, _ = accounts
    _create(alice, bank, "expense")
    bobs = factories.asset(bob, name="Bob's MoMo", kind="e_wallet")
    assert _create(bob, bobs, "income").transfer_id is None


def test_a_rejected_suggestion_is_never_proposed_again(alice, accounts):
    bank, momo, other_bank = accounts
    first = _create(alice, bank, "expense")
    _create(alice, other_bank, "expense")
    arriving = _create(alice, momo, "income")
    suggestion = Transfer.objects.get(outgoing=first, incoming=arriving)
    transfers.transfer_suggestion_reject(user=alice, transfer_id=suggestion.id)
    assert RejectedPair.objects.filter(outgoing=first, incoming=arriving).exists()
    transfer_pair_arrivals(user_id=alice.id, transaction_ids=[arriving.id, first.id])
    assert not Transfer.objects.filter(outgoing=first, incoming=arriving).exists()


def test_accepting_a_suggestion_pairs_and_drops_the_others(alice, accounts):
    bank, momo, other_bank = accounts
    first = _create(alice, bank, "expense")
    _create(alice, other_bank, "expense")
    arriving = _create(alice, momo, "income")
    suggestion = Transfer.objects.get(outgoing=first, incoming=arriving)
    transfers.transfer_suggestion_accept(user=alice, transfer_id=suggestion.id)
    assert list(Transfer.objects.values_list("status", flat=True)) == ["paired"]
    assert set(Transaction.objects.filter(transfer=suggestion).values_list("id", flat=True)) == {first.id, arriving.id}


def test_undoing_a_pair_counts_both_rows_again_and_remembers(alice, accounts):
    bank, momo, _ = accounts
    out = _create(alice, bank, "expense")
    top_up = _create(alice, momo, "income")
    transfers.transfer_delete(user=alice, transfer_id=top_up.transfer_id)
    assert Transaction.objects.counted().filter(user=alice).count() == 2
    transfer_pair_arrivals(user_id=alice.id, transaction_ids=[out.id, top_up.id])
    assert not Transfer.objects.exists()


def test_a_statement_import_into_an_account_pairs_its_rows(alice, accounts):
    bank, momo, _ = accounts
    _create(alice, momo, "expense")
    csv = b"date,description,amount,direction,category,external_id\n2026-11-11,top up,2000000,income,other_income,x1\n"
    transactions_import(user=alice, source=io.BytesIO(csv), asset_id=bank.id)
    landed = Transaction.objects.get(external_id="x1")
    assert landed.transfer_id is not None and landed.import_batch_id is not None


@pytest.mark.django_db(transaction=True)
def test_two_sepay_deliveries_of_the_two_sides_at_once_make_one_pair(alice):
    api = Client()
    api.force_login(alice)
    connections = [
        api.post("/api/v1/integrations/sepay", {"auth": "api_key"}, content_type="application/json").json()
        for _ in range(2)
    ]
    # Each account's first delivery creates it; then the two sides of one top-up land at the same moment.
    deliver(Client(), connections[0], payload(id=1, accountNumber="0111", transferAmount=5000, transferType="in"))
    deliver(Client(), connections[1], payload(id=2, accountNumber="0222", transferAmount=7000, transferType="in"))
    sides = [
        (connections[0], payload(id=3, accountNumber="0111", transferAmount=2_000_000, transferType="out")),
        (connections[1], payload(id=4, accountNumber="0222", transferAmount=2_000_000, transferType="in")),
    ]

    def land(conn, body):
        return deliver(Client(), conn, body).status_code

    answers = at_once(*(partial(land, conn, body) for conn, body in sides))
    assert answers == [200, 200]
    paired = Transfer.objects.filter(user=alice, status="paired")
    assert paired.count() == 1
    rows = Transaction.objects.filter(external_id__in=["sepay:3", "sepay:4"])
    assert {row.transfer_id for row in rows} == {paired.get().id}


def test_suggestions_waiting_put_one_notice_in_the_inbox_a_day_in_the_users_language(alice, accounts):
    from zeus.models import Notification
    from zeus.services import profile_update

    bank, momo, other_bank = accounts
    _create(alice, bank, "expense")
    _create(alice, other_bank, "expense")
    assert not Notification.objects.filter(user=alice).exists()  # nothing waits yet
    _create(alice, momo, "income")  # two candidates: two suggestions, one notice
    (notice,) = Notification.objects.filter(user=alice)
    assert (notice.kind, notice.cta_url) == ("suggestion", "/inbox#transfer-suggestions-title")
    assert notice.title == "Transfers between your accounts are waiting for you"
    _create(alice, momo, "income", amount="2000000", day=DAY + dt.timedelta(days=1))  # more the same day
    assert Notification.objects.filter(user=alice).count() == 1  # no flood

    carol = factories.user("carol")
    profile_update(user=carol, language="vi")
    a, b, c = (factories.asset(carol, name=n, kind="bank_account") for n in ("A", "B", "C"))
    _create(carol, a, "expense")
    _create(carol, b, "expense")
    _create(carol, c, "income")
    (notice,) = Notification.objects.filter(user=carol)
    assert notice.title == "Có giao dịch chuyển tiền giữa các tài khoản của bạn đang chờ xác nhận"


def test_a_pair_made_on_arrival_notifies_nobody(alice, accounts):
    from zeus.models import Notification

    bank, momo, _ = accounts
    _create(alice, bank, "expense")
    _create(alice, momo, "income")
    assert Transfer.objects.filter(status="paired").count() == 1
    assert not Notification.objects.filter(user=alice).exists()


def test_rows_with_no_possible_counterpart_cost_one_read_for_the_batch(alice, accounts, django_assert_num_queries):
    """Pairing's budget (docs/ledger.md, "Cost"): the user's lock and one look for the batch; a row gets reads
    of its own only when an opposite row of its amount lies within the window."""
    bank, momo, _ = accounts
    rows = [_create(alice, bank, "expense", amount=str(1000 + n)) for n in range(6)]
    rows.append(_create(alice, momo, "expense", amount="1000"))  # the same direction: no counterpart either
    with django_assert_num_queries(2):
        assert transfer_pair_arrivals(user_id=alice.id, transaction_ids=[row.id for row in rows]) == []
