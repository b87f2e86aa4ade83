"""Table tests of the field finders and sender layouts added for real Shinhan and DongA texts: pure functions
over folded text, each case the smallest text that shows the rule."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.banktexts import fields
from assets.banktexts.banks import bank_of
from assets.banktexts.parsers import parse
from tests.assets.banktexts.corpus_check import NOW, TZ


@pytest.mark.parametrize(
    ("folded", "amount", "direction"),
    [
        ("acc no. **8468 debit vnd 15,175,650. available balance: vnd 52,110,727.", Decimal(15175650), "expense"),
        ("acc no. **8468 credit vnd 15,242,700. available balance: vnd 112,479,449.", Decimal(15242700), "income"),
        (
            "transaction approved a b(**40) 17-02-2022/19:17/857,000/shop,remaining credit limit: 4",
            Decimal(857000),
            "expense",
        ),
    ],
    ids=["debit", "credit", "card-approval"],
)
def test_english_figures(folded, amount, direction):
    found = fields.figure(folded)
    assert (found.amount, found.direction) == (amount, direction)


@pytest.mark.parametrize(
    ("folded", "balance"),
    [
        ("debit vnd 1,000. available balance: vnd 52,110,727. x", Decimal(52110727)),
        ("1,000/shop,available balance: 42,565,704(vnd)", Decimal(42565704)),
        ("1,000/shop,remaining credit limit: 47,695,778", None),
    ],
    ids=["available", "currency-after", "credit-limit-is-no-balance"],
)
def test_balances(folded, balance):
    assert fields.balance(folded)[0] == balance


@pytest.mark.parametrize(
    ("folded", "bank"),
    [
        ("donga bank thong bao: tk 0110666501 da thay doi: +200,000 vnd.", "DongA Bank"),
        ("tk **0080 thay doi - vnd 990,000. so du kha dung: vnd 118,737,599.", "Shinhan"),
        ("acc no. **8468 debit vnd 1,000.", "Shinhan"),
        ("transaction approved park(**40) 17-02-2022/19:17/857,000/x", "Shinhan"),
        ("tk 123456 +1,000 vnd. so du 2,000 vnd. cap cho don vi 1", ""),
    ],
    ids=["donga", "shinhan-sms", "shinhan-english", "shinhan-card", "unit-is-no-wallet"],
)
def test_senders(folded, bank):
    assert bank_of(folded) == bank
    if bank == "":
        assert parse(folded, now=NOW, tz=TZ).bank == ""


def test_an_english_day_and_month_is_the_last_such_day_and_a_card_mask_is_the_account():
    got = parse("Acc no. **8468 debit VND 1,000. Available balance: VND 2,000. SHOP (15 Feb)", now=NOW, tz=TZ)
    assert got.occurred_at == dt.datetime(2026, 2, 15, tzinfo=TZ) and got.description == "SHOP"
    assert fields.account("transaction approved park(**40) 1/2") == "•••• 40"


def test_a_bare_gd_inside_a_note_is_no_label():
    assert fields.note_start("tk 1 +5 vnd. so du 9 vnd. tgian ttoan gd theo bke") is None
    assert fields.note_start("tk 1|gd: mua hang") is not None


@pytest.mark.parametrize(
    ("text", "amount", "direction", "balance", "description"),
    [
        ("OCB 11/06 09:03 TK 0068100000815007 (+) 1,200,000 VND N/dung: TIEN NHA So du: 1,264,907 VND",
         1200000, "income", 1264907, "TIEN NHA"),
        ("16:54;11/06/2018 TK:041704060058013VND PS:-155,595 ND:TIEN DIEN SODU:+1,524,080",
         155595, "expense", 1524080, "TIEN DIEN"),
        ("SeABank: Date 05/06/2018 Account: 4300001436 Change: -23,855 VND. Balance: 24,344,258 VND. Detail: tien dien",
         23855, "expense", 24344258, "tien dien"),
        ("TK 005704070017847 ngay 01/06/2018 09:08:32 RUT RA: 2,152,480VND SO DU: 485,413,210VND ND: GIU XE",
         2152480, "expense", 485413210, "GIU XE"),
        ("EIB Q7 TK 1403149 08/06/18 12:38 THANH TOAN TIEN DIEN, MA KH PE05000104061 529,441VND SD 53,494,523VND",
         529441, "expense", 53494523, "THANH TOAN TIEN DIEN, MA KH PE05000104061"),
        ("VietinBank:11/06/2018 00:59|TK:103867259242|GD:-1,200,000VND|SDC:5,334,409VND|ND:So GD: 94 tien nuoc",
         1200000, "expense", 5334409, "So GD: 94 tien nuoc"),
        ("Agribank: 11h28p 11/06 TK 5003205178742: -93,995VND (BPMENT: tien dien T5/18(...). SD: 203,719VND.",
         93995, "expense", 203719, "BPMENT: tien dien T5/18(...)"),
    ],
    ids=["bracketed-sign", "sodu-signed", "english", "rut-ra", "unsigned-after-words", "so-gd", "bracketed-note"],
)  # fmt: skip
def test_more_real_2018_shapes(text, amount, direction, balance, description):
    got = parse(text, now=NOW, tz=TZ)
    assert (got.amount, got.direction, got.balance_after, got.description) == (
        Decimal(amount),
        direction,
        Decimal(balance),
        description,
    )


def test_an_unsigned_figure_with_both_ways_said_is_not_guessed():
    assert fields.figure("tk 1 nhan tien 2 lan, thanh toan hd 12345678 so 5,000 vnd") is None
    assert fields.figure("tk 1 thanh toan hd 12345678 so 5,000 vnd").direction == "expense"
