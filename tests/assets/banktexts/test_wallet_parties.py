"""Table tests of the rules added for `heldout9.jsonl`'s two misses (read after its one measurement): a transfer
received (`Nhận chuyển khoản từ …`) is money in whatever follows its amount, the party a push's title names before
the amount is the transfer's own, and a name the notification shade cut short keeps its ellipsis."""

from decimal import Decimal

import pytest

from assets.banktexts import fields
from assets.banktexts.parsers import parse
from tests.assets.banktexts.corpus_check import NOW, TZ


@pytest.mark.parametrize(
    ("folded", "direction"),
    [
        ("nhan chuyen khoan tu le van c so tien 20.000 ₫ ve tui than tai", "income"),
        ("momo: nhan chuyen khoan tu le van c so tien 20.000 ₫ ve tui than tai", "income"),  # not where a line opens
        ("nhan tien chuyen khoan tu le van c so tien 5.000 d", "income"),
        ("chuyen khoan den le van c so tien 20.000 ₫", "expense"),
        ("ban da chuyen khoan cho le van c so tien 20.000 ₫", "expense"),
    ],
    ids=["received-title", "received-after-sender", "money-received", "sent", "sent-worded"],
)
def test_a_transfer_received_is_money_in_and_one_sent_money_out(folded, direction):
    got = fields.figure(folded)
    assert (got.amount, got.direction) == (Decimal(20000) if "20.000" in folded else Decimal(5000), direction)


@pytest.mark.parametrize(
    ("text", "direction", "description"),
    [
        (
            'Nhận chuyển khoản từ LE VAN C\nSố tiền 20.000 ₫ về Túi Thần Tài. Lời nhắn: "tra no thang 9".',
            "income",
            "LE VAN C tra no thang 9",
        ),
        (
            'Nhan chuyen khoan tu LE VAN C\nSo tien 20.000 d ve Tui Than Tai. Loi nhan: "tra no".',
            "income",
            "LE VAN C tra no",
        ),
        # No party before the amount: the one after it is the counterparty (a withdrawal to a bank account).
        (
            "MoMo: Rut tien thanh cong 500.000d ve tai khoan Vietcombank luc 09:00 02/12/2026. So du vi: 1.200.000d",
            "expense",
            "tai khoan Vietcombank",
        ),
    ],
    ids=["savings-pocket", "savings-pocket-folded", "withdrawal-to-a-bank"],
)
def test_the_party_named_before_the_amount_is_the_transfers_own(text, direction, description):
    got = parse(text, now=NOW, tz=TZ, sender="MoMo")
    assert (got.bank, got.direction, got.description) == ("MoMo", direction, description)


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("TRAN THI M...", "TRAN THI M... an trua"),
        ("TRAN VAN B.", "TRAN VAN B an trua"),
        ("TRAN VAN B", "TRAN VAN B an trua"),
    ],
    ids=["cut-by-the-shade", "a-full-stop", "whole"],
)
def test_a_name_cut_short_keeps_its_ellipsis_and_a_full_stop_is_dropped(name, description):
    text = f'Nhận tiền chuyển khoản từ {name}\nSố tiền 5.000 đ, kèm lời nhắn: "an trua".'
    assert parse(text, now=NOW, tz=TZ, sender="MoMo").description == description
