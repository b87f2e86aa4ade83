"""Table tests of an app push read with its title and header lines (`Thông báo biến động số dư`, the shade's
`<app> • Bây giờ`): what a notification says where it opens — its bank's layout, the sender's name, a cancellation or
an advertisement, a card's approval, the way its money went — it says after them too. Found by reading every spent
part's texts again with a title line before them (numbers and names here invented)."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.banktexts import fields
from assets.banktexts.parsers import never_a_transaction, parse
from tests.assets.banktexts.corpus_check import NOW, TZ

TITLE = "Thông báo biến động số dư\n"
SHADE = "Ngân hàng • Bây giờ\n"


@pytest.mark.parametrize("title", [TITLE, SHADE, TITLE + SHADE], ids=["title", "shade", "both"])
@pytest.mark.parametrize(
    ("text", "bank", "amount", "direction", "tail"),
    [
        ("SD TK 0071000123456 -45,000VND luc 02-12-2026 12:01:44. SD 9,000VND. Ref MBVCB.1.AN", "Vietcombank", 45000,
         "expense", "3456"),
        ("TK 0123xxx789|GD: +80,000VND 02/12/26 18:20|SD:1,234,000VND|ND: AN chuyen tien", "MB", 80000, "income",
         "789"),
        ("Tài khoản 12510000123456 giảm 95,000 VND vào 16:02 02/12/2026. Số dư: 2,655,000 VND. Nội dung: AN", "BIDV",
         95000, "expense", "3456"),
        # The sender's own name opens the body: a wallet named in the note (`…MOMO.…`) is not the sender.
        ("DongA Bank thong bao: TK 0110666501 da thay doi: +200,000 VND. Ecom.EW1.MOMO.0900000000. So du hien tai "
         "la: 9,000 VND", "DongA Bank", 200000, "income", "6501"),
    ],
    ids=["vietcombank-layout", "mb-layout", "bidv-layout", "donga-named-first"],
)  # fmt: skip
def test_a_banks_opening_is_read_after_a_push_title(title, text, bank, amount, direction, tail):
    got = parse(title + text, now=NOW, tz=TZ)
    assert (got.bank, got.amount, got.direction) == (bank, Decimal(amount), direction)
    assert got.account_mask.endswith(tail)
    assert got == parse(text, now=NOW, tz=TZ)  # the title adds nothing and takes nothing


@pytest.mark.parametrize(
    "text",
    [
        TITLE + "Huy GD the VCB Visa 452404...6779 su dung tai SHOP so tien 13,608 VND luc 17-12-2022 17:37:45",
        SHADE + "(QC) Nhan 50,000d khi mo the, chi tiet 1900 0000",
    ],
    ids=["cancelled-card-payment", "advertisement"],
)
def test_a_cancellation_or_an_advertisement_after_a_push_title_is_refused(text):
    assert parse(text, now=NOW, tz=TZ, sender="Vietcombank") is None
    assert never_a_transaction(text)


def test_a_card_approval_after_a_push_title_is_money_out_at_its_merchant():
    text = SHADE + "Transaction Approved AN(**40) 17-02-2022/19:17/857,000/KIMBAP OK,Remaining Limit: VND 1"
    got = parse(text, now=NOW, tz=TZ, sender="ShinhanBank")
    assert (got.amount, got.direction, got.description) == (Decimal(857000), "expense", "KIMBAP OK")
    assert got.occurred_at == dt.datetime(2022, 2, 17, 19, 17, tzinfo=TZ)


def test_the_way_a_wallets_title_line_opens_with_is_read_behind_the_shades_header():
    """MoMo's title says the way (`Nhận tiền …`) and its body the transfer's words (`chuyển khoản`): the title's way
    wins, whether the title opens the text or follows the shade's header."""
    push = 'Nhận tiền chuyển khoản từ TRAN BINH\nSố tiền 5.000 đ, kèm lời nhắn: "TRAN BINH tra tien"'
    for text in (push, "MoMo • Bây giờ\n" + push):
        got = parse(text, now=NOW, tz=TZ, sender="MoMo")
        assert (got.amount, got.direction, got.description) == (Decimal(5000), "income", "TRAN BINH TRAN BINH tra tien")


def test_only_the_way_a_line_opens_with_decides_when_both_ways_are_said():
    # `chuyen khoan` (out) and `nhan tien` (in) both said before an unsigned figure: the way said where a line opens
    # decides; said only inside lines, no way is known and nothing is drafted.
    folded = "giao dich chuyen khoan, nguoi kia nhan tien, ma so don hang la abc: 5,000 vnd"
    assert fields.figure(folded) is None
    assert fields.figure(folded, (0, 10)).direction == "expense"
    assert fields.figure(folded, (0, folded.index("nhan tien"))).direction == "income"
