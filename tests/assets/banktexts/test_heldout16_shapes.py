"""Table tests of the rules added for the real texts of `heldout16.jsonl` (measured before them): text written with
combining tone marks (NFD), a push recorded `body ║ title`, English labels (BIDV's and Techcombank's app pushes, VIB's
SMS: `Accounts:`, `ACCT:`, `Amount:`, `SUBJECT:`, `Transaction note:`, `Transaction code:`), a figure labelled with what
it is for (`SMS FEE:-…`), Vietcombank's accented card balance and VIB's card payment. Figures and names made up."""

import datetime as dt
import unicodedata
from decimal import Decimal

import pytest

from assets.banktexts import fields
from assets.banktexts.parsers import parse
from assets.rules.text import fold
from tests.assets.banktexts.corpus_check import NOW, TZ

VCB_PUSH = (
    "Số dư TK VCB 0071000123456 -12,000 VND lúc 02-12-2026 08:15:02. Số dư 9,876,000 VND. Ref MBVCB.111.Trả tiền"
    " ăn trưa"
)


@pytest.mark.parametrize("form", ["NFD", "NFC"])
def test_combining_tone_marks_give_the_note_in_the_users_own_words(form):
    got = parse(unicodedata.normalize(form, VCB_PUSH), now=NOW, tz=TZ)
    assert (got.bank, got.amount, got.balance_after) == ("Vietcombank", Decimal(12000), Decimal(9876000))
    assert got.description == "MBVCB.111.Trả tiền ăn trưa"  # not folded: case and tones kept


@pytest.mark.parametrize(
    ("text", "note"),
    [
        (VCB_PUSH + " ║ Thông báo VCB", "MBVCB.111.Trả tiền ăn trưa"),
        ("TK 12510000123 tai BIDV +5,000VND vao 08:30 02/12/2026. So du:9,000VND. ND: an trua ║ BIDV", "an trua"),
        ("Account 1234 Amount: - 7,000 Balance: 8,000 TIEN NUOC ║ Techcombank", "TIEN NUOC"),
    ],
    ids=["labelled-ref", "labelled-nd", "unlabelled-after-balance"],
)
def test_a_title_recorded_after_the_body_ends_the_note(text, note):
    assert parse(text, now=NOW, tz=TZ).description == note


BIDV_EN = (
    "Transaction time: 09:05 01/12/2026 Accounts: 1200012345 Transaction amount: -120,000 VND Ending balance: 3,000 VND"
    " Transaction note: 9990001112 Com trua Transaction code: 12abCD-34efGH ║ Thông báo BIDV"
)


def test_bidvs_english_push_gives_its_account_and_its_note_without_the_code():
    got = parse(BIDV_EN, now=NOW, tz=TZ)
    assert (got.bank, got.amount, got.direction) == ("BIDV", Decimal(120000), "expense")
    assert got.balance_after == Decimal(3000)
    assert got.occurred_at == dt.datetime(2026, 12, 1, 9, 5, tzinfo=TZ)
    assert (got.account_mask, got.description) == ("•••• 2345", "9990001112 Com trua")


@pytest.mark.parametrize(
    ("folded", "tail"),
    [
        ("accounts: 1200012345 transaction amount: -1 vnd", "•••• 2345"),
        ("acct:012300456vnd amount:+1", "•••• 0456"),
        ("account 9876543210 amount: + 1", "•••• 3210"),
    ],
    ids=["accounts", "acct", "account"],
)
def test_english_account_labels(folded, tail):
    assert fields.account(folded) == tail


@pytest.mark.parametrize(
    ("folded", "amount", "direction"),
    [
        ("account 1 amount: + 1,247 balance: 5,000 x", Decimal(1247), "income"),
        ("account 1 amount: - 14,000 balance: 5,000 x", Decimal(14000), "expense"),
        ("acct:1vnd amount:+2,500 subject:x balance:+2,500", Decimal(2500), "income"),
    ],
    ids=["plus-spaced", "minus-spaced", "glued"],
)
def test_a_signed_figure_after_amount_is_the_amount(folded, amount, direction):
    got = fields.figure(folded)
    assert (got.amount, got.direction) == (amount, direction)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Account 5550001234\nAmount: + 250,000\nBalance: 1,250,000\nNGUYEN VAN A chuyen tien",
            ("income", Decimal(250000), Decimal(1250000), "•••• 1234", "NGUYEN VAN A chuyen tien", NOW),
        ),
        (
            "Account 5550001234 Amount: - 30,000 Balance: 1,220,000 GD THE QUA POS SO THE 400000...1111 NGAY 05/11/2026"
            " TAI CUA HANG A HA NOI VN APPCODE 123 TID 456",
            (
                "expense",
                Decimal(30000),
                Decimal(1220000),
                "•••• 1234",
                "GD THE QUA POS SO THE 400000...1111 TAI CUA HANG A HA NOI VN APPCODE 123 TID 456",
                dt.datetime(2026, 11, 5, tzinfo=TZ),
            ),
        ),
    ],
    ids=["lines-no-date", "one-line-date-in-note"],
)
def test_techcombanks_english_app_notification(text, expected):
    got = parse(text, now=NOW, tz=TZ, sender="Techcombank")
    assert (got.direction, got.amount, got.balance_after, got.account_mask, got.description, got.occurred_at) == (
        expected
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "10:01;02/11/2026 ACCT:012300456VND AMOUNT:+3,000,000 SUBJECT:TIEN NHA BALANCE:+3,500,000",
            ("income", Decimal(3000000), Decimal(3500000), "•••• 0456", "TIEN NHA"),
        ),
        (
            "10:01;02/11/2026 ACCT:012300456VND PERIOD TRAN: SMS FEE:-9,900 VND BALANCE:1,000,100",
            ("expense", Decimal(9900), Decimal(1000100), "•••• 0456", "SMS FEE"),
        ),
        (
            "10:01;02/11/2026 ACCT:012300456VND CARD FEE:-50,000 VND BALANCE:950,100",
            ("expense", Decimal(50000), Decimal(950100), "•••• 0456", "CARD FEE"),
        ),
        (
            "10:01;02/11/2026 THE TT VIB:****1234 GIATRI:45,000 VND TAI:shop a,ha noi SDKD:+955,000 LH 1800 de duoc"
            " ho tro",
            ("expense", Decimal(45000), Decimal(955000), "•••• 1234", "shop a,ha noi"),
        ),
    ],
    ids=["subject", "fee-named-by-its-label", "fee-after-account", "card-payment-at-merchant"],
)
def test_vibs_english_labelled_sms(text, expected):
    got = parse(text, now=NOW, tz=TZ, sender="VIB")
    assert got.bank == "VIB" and got.occurred_at == dt.datetime(2026, 11, 2, 10, 1, tzinfo=TZ)
    assert (got.direction, got.amount, got.balance_after, got.account_mask, got.description) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Số dư TK trích nợ tạm tính 1000123456: 7,654,321VND",
        "So du TK trich no tam tinh 1000123456: 7,654,321VND",
        "SD TK trich no 1000123456: 7,654,321VND",
    ],
    ids=["accented", "unaccented", "short"],
)
def test_a_card_uses_debited_accounts_balance(text):
    assert fields.balance(fold(text))[0] == Decimal(7654321)


def test_vietcombanks_accented_card_use_with_combining_marks_gives_its_balance():
    text = unicodedata.normalize(
        "NFD",
        "Thẻ VCB MasterCard 111111...2222 sử dụng tại Shop A SGP số tiền 90,000 VND lúc 01-02-2026 02:44:24. "
        "Số dư TK trích nợ tạm tính 1000123456: 1,910,000VND",
    )
    got = parse(text, now=NOW, tz=TZ)
    assert (got.bank, got.amount, got.direction) == ("Vietcombank", Decimal(90000), "expense")
    assert (got.balance_after, got.description) == (Decimal(1910000), "Shop A SGP")
