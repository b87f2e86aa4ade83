"""Table tests of the rules added for `heldout13.jsonl`'s Vietcombank fee SMS (read after its one measurement): an
ungrouped amount after `So tien`, `thu phi` as money out, the balance at the time of the fee, and a fee notice's
opening sentence as its note."""

from decimal import Decimal

import pytest

from assets.banktexts import fields
from assets.banktexts.banks import bank_of
from assets.banktexts.parsers import parse
from tests.assets.banktexts.corpus_check import NOW, TZ

FEE_SMS = "THU PHI DICH VU SMS X THANG 09/2015. SDT: 0919000000. So tien 8800VND. So du tai thoi diem gd 1,162,670VND"


def test_a_fee_sms_opening_with_what_it_charges_for_is_money_out_with_that_note():
    got = parse(FEE_SMS, now=NOW, tz=TZ)
    assert (got.bank, got.amount, got.direction) == ("Vietcombank", Decimal(8800), "expense")
    assert (got.balance_after, got.description) == (Decimal(1162670), "THU PHI DICH VU SMS X THANG 09/2015")
    assert got.occurred_at == NOW  # the month billed is no moment


@pytest.mark.parametrize(
    ("folded", "amount", "direction"),
    [
        ("thu phi sms. so tien 8800vnd", 8800, "expense"),
        ("thu phi sms. so tien 8,800vnd", 8800, "expense"),
        ("thu phi sms 8800vnd", None, None),  # an ungrouped figure without its `So tien` label is no amount
    ],
    ids=["so-tien-ungrouped", "so-tien-grouped", "unlabelled-ungrouped"],
)
def test_an_unsigned_amount_after_so_tien_and_a_fee_charged(folded, amount, direction):
    got = fields.figure(folded)
    read = (got.amount, got.direction) if got else (None, None)
    assert read == (Decimal(amount) if amount else None, direction)


@pytest.mark.parametrize(
    ("folded", "balance", "bank"),
    [
        ("thu phi quan ly the, no:5264...8019. so du tai thoi diem gd 36,540vnd", 36540, "Vietcombank"),
        ("so tien 8800vnd. so du tai thoi diem gd 1,162,670vnd", 1162670, "Vietcombank"),
    ],
    ids=["card-fee", "sms-fee"],
)
def test_the_balance_at_the_time_of_the_fee_is_vietcombanks(folded, balance, bank):
    assert fields.balance(folded)[0] == Decimal(balance)
    assert bank_of(folded) == bank


@pytest.mark.parametrize(
    ("text", "description"),
    [
        ("Thu phi quan ly TK thang 11. So tien 11000VND. So du 500,000VND", "Thu phi quan ly TK thang 11"),
        ("Thu phi quan ly TK thang 11. So tien 11000VND. So du 500,000VND. ND: PHI TK", "PHI TK"),
    ],
    ids=["the-opening-sentence", "a-labelled-note-wins"],
)
def test_a_fee_notice_opening_with_what_the_fee_is_for_has_its_note_there(text, description):
    assert parse(text, now=NOW, tz=TZ).description == description
