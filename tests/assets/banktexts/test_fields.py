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


@pytest.mark.parametrize(
    ("folded", "note"),
    [
        ("tk 1 +20,000vnd. so du 1vnd. nd: nhan tu 656 trace 5 nd chuyen tien", "nhan tu 656 trace 5 nd chuyen tien"),
        ("so du tk vcb 1 -20,000 vnd. so du 8 vnd. ref pos.79900 505471.0.gd:zalopay", "pos.79900 505471.0.gd:zalopay"),
        ("bidv thoi gian gd: 16:54 21/10/2024 so tien: + 175,000 vnd noi dung giao dich: tkthe", "tkthe"),
        ("tk 040xx4593 vnd (-) 1.911.000 (gd:1.900.000,thue/phi: 11.000) nd: -801192-ck cho 049", "-801192-ck cho 049"),
        ("tk 1 +5 vnd. so du 9 vnd nd ck 123", "ck 123"),
    ],
    ids=["first-labelled-note-wins", "ref-before-gd", "time-after-gd-is-no-note", "amount-after-gd-is-no-note",
         "bare-nd"],
)  # fmt: skip
def test_where_the_note_begins(folded, note):
    assert folded[fields.note_start(folded) :] == note


@pytest.mark.parametrize(
    ("text", "description"),
    [
        ("(TPBank): 07/02/26;15:03 TK: xxxx2010205 PS:+4.000VND SD KHA DUNG: 7.003VND ND: PHAM chuyen tien "
         "SO GD: 570CTMB260380195", "PHAM chuyen tien"),
        ("BIDV: TK 1206665711 +10,000 VND. So du cuoi: 971,979 VND. Noi dung giao dich: VU XUAN HUY chuyen tien "
         "Ma giao dich: 0832ODV4", "VU XUAN HUY chuyen tien"),
        ("(TPBank): 20/04/24;09:13 TK: xxxx1662401 PS:-1.000.000VND SD: 1.023.469VND SD KHA DUNG: 1.023.469VND ", ""),
    ],
    ids=["tpbank-so-gd-ends-the-note", "bidv-ma-giao-dich-ends-the-note", "an-account-between-is-no-note"],
)  # fmt: skip
def test_the_banks_own_reference_and_account_are_no_note(text, description):
    assert parse(text, now=NOW, tz=TZ).description == description


@pytest.mark.parametrize(
    ("folded", "mask"),
    [
        ("bidv xin thong bao tai khoan thanh toan : 1206665711 so tien: + 175,000 vnd", "•••• 5711"),
        ("tacc no. **5106 debit vnd 36,734,939.", "•••• 5106"),
    ],
    ids=["bidv-app-payment-account", "stray-letter-before-acc-no"],
)
def test_accounts(folded, mask):
    assert fields.account(folded) == mask


def test_a_text_with_more_numbers_than_one_notification_holds_is_refused_before_it_is_read():
    one = "TK 1234 +1,000VND SD 5,000VND ND: x. "  # three numbers
    assert parse(one * 13, now=NOW, tz=TZ) is not None  # 39: still one long text
    assert parse(one * 14, now=NOW, tz=TZ) is None
    assert parse("TK +VND SD ND: " * 60, now=NOW, tz=TZ) is None  # no digit, no amount


def test_a_balance_with_cents_and_a_note_after_it():
    got = parse("TK 19132608283026 So tien GD:+11,762.50 So du:2,089,129.16 CORE DEVTEAM LTD", now=NOW, tz=TZ)
    assert (got.amount, got.balance_after, got.description) == (
        Decimal("11762.50"),
        Decimal("2089129.16"),
        "CORE DEVTEAM LTD",
    )


def test_noi_dung_without_its_colon_is_words_of_the_note():
    folded = "tk 1 so tien gd:-30,000 so du:1,077,366.66 nh mua usd 9. noi dung khac tieu dung noi bo"
    assert fields.note_start(folded) is None
    assert fields.note_start("tk 1 +5 vnd. noi dung: tien nha") is not None


@pytest.mark.parametrize(
    ("text", "direction"),
    [
        ("Sacombank 11/07/2018 11:36 gui 3,484,000 VND vao TK 020039754224 TIEN HANG - So du kha dung: 9 VND",
         "income"),
        ("Sacombank 11/07/2018 11:36 rut 3,484,000 VND tu TK 020039754224 TIEN HANG - So du kha dung: 9 VND",
         "expense"),
    ],
    ids=["gui-vao-tk", "rut-tu-tk"],
)  # fmt: skip
def test_a_deposit_or_withdrawal_worded_without_a_sign(text, direction):
    got = parse(text, now=NOW, tz=TZ)
    assert (got.amount, got.direction, got.description, got.account_mask) == (
        Decimal(3484000),
        direction,
        "TIEN HANG",
        "•••• 4224",
    )


def test_shb_names_its_account_and_balance_before_the_amount_and_a_colon_after_the_amount_opens_the_note():
    """SHB: `SDTK <account> den <time> ngay <date> la <balance> VND. GD moi nhat: <amount> VND: <note>`."""
    folded = "sdtk 1000006789 den 17:56:38 ngay 13/11/2022 la 8,668,033 vnd. gd moi nhat: +2,500,000 vnd: pham ck"
    assert fields.balance(folded)[0] == Decimal(8668033)
    assert folded[slice(*fields.balance(folded)[1][0])] == "la 8,668,033 vnd"  # not the account, not the moment
    assert fields.account(folded) == "•••• 6789"
    assert folded[fields.note_start(folded) :] == "pham ck"
    assert fields.note_start("tk 1 ps:+5,000vnd sd: 9vnd nd: x") == len("tk 1 ps:+5,000vnd sd: 9vnd nd: ")


@pytest.mark.parametrize(
    ("folded", "mask"),
    [
        ("tai khoan ....7213, phat sinh -30,000,000 d vao luc 11:50 02/01/2024.", "•••• 7213"),
        ("tai khoan . 7213, phat sinh -30,000,000 d", ""),
    ],
    ids=["vib-dotted-mask", "one-dot-is-punctuation"],
)
def test_an_account_masked_with_dots(folded, mask):
    assert fields.account(folded) == mask


@pytest.mark.parametrize(
    ("folded", "direction"),
    [
        ('nhan tien chuyen khoan tu a b so tien 5.000 d, kem loi nhan: "a b chuyen tien".', "income"),
        ("thanh toan cho shop, nhan tien hoan sau. so tien 5.000 d", "expense"),
        ("tk 1 nhan tien 2 lan, thanh toan hd 12345678 so 5,000 d", None),
    ],
    ids=["momo-push-opens-with-nhan-tien", "opening-way-wins-either-way", "neither-opens-the-text"],
)
def test_an_unsigned_figure_in_dong_with_both_ways_said_goes_the_way_the_text_opens_with(folded, direction):
    found = fields.figure(folded)
    assert (found.direction if found else None) == direction
    if found:
        assert found.amount == Decimal(5000)


def test_a_momo_push_names_its_counterparty_in_the_title_and_its_message_in_quotes():
    got = parse(
        'Nhận tiền chuyển khoản từ NGUYEN VAN A\nSố tiền 15.000 đ, kèm lời nhắn: "tra tien an".',
        now=NOW,
        tz=TZ,
        sender="MoMo",
    )
    assert (got.bank, got.amount, got.direction, got.description) == (
        "MoMo",
        Decimal(15000),
        "income",
        "NGUYEN VAN A tra tien an",
    )


def test_an_account_right_after_the_amount_is_no_note_but_one_inside_the_note_is():
    neo = parse("- 5,000 đ\nTài khoản: 01******23\nSố dư: 0 đ\nTRAN B chuyen tien\n", now=NOW, tz=TZ)
    assert (neo.description, neo.account_mask, neo.balance_after) == ("TRAN B chuyen tien", "•••• **23", Decimal(0))
    donga = parse(
        "DongA Bank thong bao: TK 0111099552 da thay doi: +600,000 VND. Nhan CK tu TK 0110384868 - DUONG D. "
        "So du hien tai la: 339,733,050 VND.",
        now=NOW,
        tz=TZ,
    )
    assert donga.description == "Nhan CK tu TK 0110384868 - DUONG D"


@pytest.mark.parametrize(
    ("folded", "amount", "direction"),
    [
        ("vpbank neo + 20,000 ₫ tai khoan: 77****94 so du: 860,000 ₫ nhan tu 1", Decimal(20000), "income"),
        ("techcombank 10:58 am + vnd 208,080 tai khoan: 5555047777777 so du: vnd 218,042", Decimal(208080), "income"),
        ("- vnd 45,000 tai khoan: 5555047777777", Decimal(45000), "expense"),
    ],
    ids=["dong-sign", "currency-before-a-field-label", "currency-before-minus"],
)
def test_a_signed_figure_in_the_dong_sign_or_with_its_currency_first(folded, amount, direction):
    found = fields.figure(folded)
    assert (found.amount, found.direction) == (amount, direction)
    assert fields.figure("tk 1 - 45,000 tai khoan 2") is None  # no currency on either side: not known as money


def test_a_dong_sign_balance_and_a_push_with_the_amount_in_its_title():
    got = parse(
        "VPBank NEO + 20,000 ₫\nTài khoản: 77****94\nSố dư: 860,000 ₫\nNHAN TU 0011 TRACE 519345 ND tien nha",
        now=NOW,
        tz=TZ,
    )
    assert (got.bank, got.amount, got.balance_after, got.account_mask, got.description) == (
        "VPBank",
        Decimal(20000),
        Decimal(860000),
        "•••• **94",
        "NHAN TU 0011 TRACE 519345 ND tien nha",
    )


def test_a_bare_nd_after_a_trace_number_is_a_word_of_the_note():
    assert fields.note_start("+ 1 d so du: 9 d nhan tu 1 trace 519345 nd tien nha") is None
    assert fields.note_start("tk 1 +5 vnd. so du 9 vnd nd ck 123") is not None


def test_the_moment_inside_a_note_is_no_part_of_it():
    got = parse(
        "Techcombank + VND 208,080 Tài khoản: 5555047777777 Số dư: VND 218,042 RUT VI MOMO 0402 208080 VND "
        "02/09/2026 10:57:56 144879146167",
        now=NOW,
        tz=TZ,
    )
    assert got.occurred_at.isoformat() == "2026-09-02T10:57:56+07:00"
    assert got.description == "RUT VI MOMO 0402 208080 VND 144879146167"


# Rules added for `heldout13.jsonl`'s Techcombank misses (read after its one measurement).


@pytest.mark.parametrize(
    ("text", "bank", "balance", "description"),
    [
        ("TK 19029824194881So tien GD:+300,000So du:382,668Cao duy thang", "Techcombank", 382668, "Cao duy thang"),
        ("TK 19029824194881 So tien GD:+300,000 So du:382,668 Cao duy thang", "Techcombank", 382668, "Cao duy thang"),
        ("Tài khoản 123456789Số tiền: +5,000Số dư: 9,000 an trua", "", 9000, "an trua"),
    ],
    ids=["no-spaces", "spaces", "diacritics"],
)
def test_a_label_glued_to_the_figure_before_it_is_read_as_if_spaced(text, bank, balance, description):
    got = parse(text, now=NOW, tz=TZ)
    assert (got.bank, got.balance_after, got.description) == (bank, Decimal(balance), description)


@pytest.mark.parametrize(
    ("text", "moment", "description"),
    [
        (
            "TK 19029824194881  So tien GD:-2,000,000  So du:476,220  RUT TIEN ATM SO THE 4221XX1331 NGAY 09/01/2016",
            dt.datetime(2016, 1, 9, tzinfo=TZ),
            "RUT TIEN ATM SO THE 4221XX1331",
        ),
        (
            "TK 19029824194881  So tien GD:-20,000  So du:476,220  AN TRUA luc 09/01/2016 12:30",
            dt.datetime(2016, 1, 9, 12, 30, tzinfo=TZ),
            "AN TRUA",
        ),
    ],
    ids=["ngay", "luc"],
)
def test_the_word_introducing_a_date_in_a_note_goes_with_the_date(text, moment, description):
    got = parse(text, now=NOW, tz=TZ)
    assert (got.occurred_at, got.description) == (moment, description)


@pytest.mark.parametrize(
    ("text", "description"),
    [
        ("TK 19029824194881  So tien GD:-22,900  Phi quan ly tai khoan", "Phi quan ly tai khoan"),
        ("TK 19029824194881  So tien GD:-22,900", ""),
        ("TK 19029824194881 So tien GD:-22,900 luc 02/12/2026 10:00 Phi SMS", "Phi SMS"),
    ],
    ids=["fee-note", "no-note", "after-the-moment"],
)
def test_the_note_follows_the_amount_when_no_balance_does(text, description):
    assert parse(text, now=NOW, tz=TZ).description == description
