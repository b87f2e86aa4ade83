# ruff: noqa: E501 -- a table of whole notification texts, one per line, as the banks send them
"""The bank-text readers against real-shaped notifications (numbers and names invented)."""

import datetime as dt
import zoneinfo
from decimal import Decimal

import pytest

from assets.banktexts.parsers import looks_like_bank_text, parse

TZ = zoneinfo.ZoneInfo("Asia/Ho_Chi_Minh")
NOW = dt.datetime(2026, 12, 1, 12, 0, tzinfo=TZ)

# (text, bank, direction, amount, local time "YYYY-MM-DD HH:MM", account mask, balance, description start)
CASES = [
    # Vietcombank
    ("SD TK 0121000891319 +4,100,000VND luc 29-11-2026 00:11:31. SD 112,734,090VND. Ref MBVCB351883554.BX16BX9701G.CT tu 0881000450606 LE HUU TRUONG",
     "Vietcombank", "income", 4100000, "2026-11-29 00:11", "•••• 1319", 112734090, "MBVCB351883554"),
    ("SD TK 0071000123456 -150,000VND luc 01-12-2026 10:15:20. SD 2,345,000VND. Ref 123456.011226.101520.KFC NGUYEN HUE",
     "Vietcombank", "expense", 150000, "2026-12-01 10:15", "•••• 3456", 2345000, "123456.011226.101520.KFC"),
    ("SD TK 0071000123456 -2,500,000VND luc 30-11-2026 21:05:00. SD 10,000,000VND. Ref MBVCB.1234.Thanh toan tien nha T12",
     "Vietcombank", "expense", 2500000, "2026-11-30 21:05", "•••• 3456", 10000000, "MBVCB.1234.Thanh toan tien nha"),
    ("SD TK 0071000123456 +25,000,000VND luc 25-11-2026 09:00:01. SD 35,000,000VND. Ref CTY ABC CHUYEN LUONG THANG 11",
     "Vietcombank", "income", 25000000, "2026-11-25 09:00", "•••• 3456", 35000000, "CTY ABC CHUYEN LUONG"),
    ("Vietcombank: SD TK 0071000123456 -45,000VND luc 28-11-2026 07:45:12. SD 9,955,000VND. Ref GRAB*FOOD 5521",
     "Vietcombank", "expense", 45000, "2026-11-28 07:45", "•••• 3456", 9955000, "GRAB*FOOD"),
    ("SD TK 0071000123456 -89,000VND luc 27-11-2026 19:30:45. SD 9,000,000VND.",
     "Vietcombank", "expense", 89000, "2026-11-27 19:30", "•••• 3456", 9000000, ""),
    ("sd tk 0071000123456 +1,000,000vnd luc 26-11-2026 08:00:00. sd 8,000,000vnd. ref chuyen tien",
     "Vietcombank", "income", 1000000, "2026-11-26 08:00", "•••• 3456", 8000000, "chuyen tien"),
    # Techcombank
    ("TK 19034589147017\nSo tien GD:+10,000,000\nSo du:734,571,040\nVND_TGTT_NGUYEN TRONG HIEN",
     "Techcombank", "income", 10000000, "2026-12-01 12:00", "•••• 7017", 734571040, "VND_TGTT_NGUYEN TRONG HIEN"),
    ("TK 19034589147017\nSo tien GD:-150,000\nSo du:2,345,000\nKFC NGUYEN HUE",
     "Techcombank", "expense", 150000, "2026-12-01 12:00", "•••• 7017", 2345000, "KFC NGUYEN HUE"),
    ("Techcombank: TK 1903xxxx7017\n So tien GD:-260,000 VND\n So du:5,000,000 VND\n NETFLIX.COM",
     "Techcombank", "expense", 260000, "2026-12-01 12:00", "•••• 7017", 5000000, "NETFLIX.COM"),
    ("TK 19034589147017 So tien GD:+500,000 So du:1,500,000 HOAN TIEN SHOPEE",
     "Techcombank", "income", 500000, "2026-12-01 12:00", "•••• 7017", 1500000, "HOAN TIEN SHOPEE"),
    ("TK 1903xxxx7017 -62,000 VND luc 30/11/26 18:20. SD: 4,938,000 VND. ND: GRAB*RIDE 8812",
     "Techcombank", "expense", 62000, "2026-11-30 18:20", "•••• 7017", 4938000, "GRAB*RIDE 8812"),
    ("TK 1903xxxx7017 +3,000,000 VND luc 29/11/2026 11:11. So du 7,938,000 VND. ND: ME CHUYEN TIEN",
     "Techcombank", "income", 3000000, "2026-11-29 11:11", "•••• 7017", 7938000, "ME CHUYEN TIEN"),
    # MB
    ("TK 7220xxxx2005|GD: +5,000,000VND 29/11/26 01:15|SD:151,495,520VND|ND: Mua hang Tu: PHAM VIET HUNG",
     "MB", "income", 5000000, "2026-11-29 01:15", "•••• 2005", 151495520, "Mua hang Tu: PHAM VIET HUNG"),
    ("TK 7220xxxx2005|GD: -150,000VND 01/12/26 10:15|SD:2,345,000VND|ND: KFC NGUYEN HUE",
     "MB", "expense", 150000, "2026-12-01 10:15", "•••• 2005", 2345000, "KFC NGUYEN HUE"),
    ("TK 0123xxx789 -150,000VND 01/12 10:15 SD 2,345,000VND ND: KFC NGUYEN HUE",
     "MB", "expense", 150000, "2026-12-01 10:15", "•••• x789", 2345000, "KFC NGUYEN HUE"),
    ("MB: TK 0123xxx789 +2,000,000VND 30/11 20:00 SD 4,345,000VND ND: TRAN THI B chuyen tien",
     "MB", "income", 2000000, "2026-11-30 20:00", "•••• x789", 4345000, "TRAN THI B chuyen tien"),
    ("TK 0123xxx789 -35,000VND 31/12 23:59 SD 100,000VND ND: Circle K",
     "MB", "expense", 35000, "2025-12-31 23:59", "•••• x789", 100000, "Circle K"),
    ("TK 7220xxxx2005|GD: -1,200,000VND 28/11/2026 14:00|SD:900,000VND|ND: Tien dien EVN HCMC T11",
     "MB", "expense", 1200000, "2026-11-28 14:00", "•••• 2005", 900000, "Tien dien EVN HCMC"),
    ("TK 7220xxxx2005|GD: -99,000VND 27/11/26 09:09|SD:801,000VND|ND: Spotify",
     "MB", "expense", 99000, "2026-11-27 09:09", "•••• 2005", 801000, "Spotify"),
    ("MBBank: TK 7220xxxx2005 +700,000VND 26/11/26 16:45 SD: 1,501,000VND ND: hoan tien",
     "MB", "income", 700000, "2026-11-26 16:45", "•••• 2005", 1501000, "hoan tien"),
    # BIDV
    ("TK670xxx7492 tai BIDV +30,000,000VND vao 02:11 29/11/2026. So du:921,301,529VND. ND: CK31310000806217 TRAN HUYNH DUY Chuyen tien",
     "BIDV", "income", 30000000, "2026-11-29 02:11", "•••• 7492", 921301529, "CK31310000806217"),
    ("TK12010001234567 tai BIDV -150,000VND vao 10:15 01/12/2026. So du:2,345,000VND. ND: TT KFC NGUYEN HUE",
     "BIDV", "expense", 150000, "2026-12-01 10:15", "•••• 4567", 2345000, "TT KFC NGUYEN HUE"),
    ("BIDV: TK 12010001234567 tai BIDV -480,000VND vao 19:00 30/11/2026. So du:1,865,000VND. ND: WinMart Thao Dien",
     "BIDV", "expense", 480000, "2026-11-30 19:00", "•••• 4567", 1865000, "WinMart Thao Dien"),
    ("TK670xxx7492 tai BIDV -5,000,000VND vao 08:30 25/11/2026. So du:916,301,529VND.",
     "BIDV", "expense", 5000000, "2026-11-25 08:30", "•••• 7492", 916301529, ""),
    ("TK670xxx7492 tai BIDV +120,000VND vao 12:00 24/11/2026. So du:916,421,529VND. ND: Lai tien gui",
     "BIDV", "income", 120000, "2026-11-24 12:00", "•••• 7492", 916421529, "Lai tien gui"),
    # VPBank
    ("TK 186708598 tai VPB tang 500,000VND do KHACH HANG CMT 141785020 NOP TIEN TAI MAY CDM. So du TK sau GD la 553,115,403VND",
     "VPBank", "income", 500000, "2026-12-01 12:00", "•••• 8598", 553115403, "KHACH HANG CMT"),
    ("TK 186708598 tai VPB giam 150,000VND do TT KFC NGUYEN HUE. So du TK sau GD la 552,965,403VND",
     "VPBank", "expense", 150000, "2026-12-01 12:00", "•••• 8598", 552965403, "TT KFC NGUYEN HUE"),
    ("VPBank: TK 186708598 tai VPB giam 2,000,000VND luc 09:30 30/11/2026 do CHUYEN TIEN NHA. So du TK sau GD la 550,965,403VND.",
     "VPBank", "expense", 2000000, "2026-11-30 09:30", "•••• 8598", 550965403, "CHUYEN TIEN NHA"),
    ("TK 1867xxx598 tai VPB tang 15,000,000VND luc 08:00 25/11/2026 do LUONG THANG 11. So du TK sau GD la 565,965,403VND",
     "VPBank", "income", 15000000, "2026-11-25 08:00", "•••• x598", 565965403, "LUONG THANG 11"),
    ("TK 186708598 tai VPB giam 75.000VND do Highlands Coffee. So du TK sau GD la 565.890.403VND",
     "VPBank", "expense", 75000, "2026-12-01 12:00", "•••• 8598", 565890403, "Highlands Coffee"),
    # ACB
    ("ACB: TK 7241387(VND) + 2,000,000 luc 08:24 29/11/2026. So du 763,222,700. GD: HOANG TRONG NHAN CK, IBHOANG TRONG NHAN CHUYEN KHOAN",
     "ACB", "income", 2000000, "2026-11-29 08:24", "•••• 1387", 763222700, "HOANG TRONG NHAN CK"),
    ("ACB: TK 7241387(VND) - 150,000 luc 10:15 01/12/2026. So du 763,072,700. GD: KFC NGUYEN HUE",
     "ACB", "expense", 150000, "2026-12-01 10:15", "•••• 1387", 763072700, "KFC NGUYEN HUE"),
    ("ACB: TK 7241387(VND) - 1,500,000 luc 20:00 30/11/2026. So du 761,572,700. GD: Thanh toan the tin dung",
     "ACB", "expense", 1500000, "2026-11-30 20:00", "•••• 1387", 761572700, "Thanh toan the"),
    ("ACB: TK 7241387(VND) + 50,000 luc 07:00 28/11/2026. So du 761,622,700.",
     "ACB", "income", 50000, "2026-11-28 07:00", "•••• 1387", 761622700, ""),
    ("ACB: TK 12345678(VND) -320,000 luc 18:30 27/11/2026. So du 5,000,000. GD: BACH HOA XANH",
     "ACB", "expense", 320000, "2026-11-27 18:30", "•••• 5678", 5000000, "BACH HOA XANH"),
    # MoMo
    ("Bạn vừa nhận được 500.000đ từ NGUYEN VAN A. Lời nhắn: tra tien an trua",
     "MoMo", "income", 500000, "2026-12-01 12:00", "", None, "NGUYEN VAN A tra tien an trua"),
    ("Thanh toán thành công 150.000đ cho KFC Nguyễn Huệ lúc 10:15 01/12/2026",
     "MoMo", "expense", 150000, "2026-12-01 10:15", "", None, "KFC Nguyễn Huệ"),
    ("Nhận tiền thành công. Bạn đã nhận 200.000đ từ TRAN THI B lúc 09:00 30/11/2026",
     "MoMo", "income", 200000, "2026-11-30 09:00", "", None, "TRAN THI B"),
    ("Chuyển tiền thành công 1.000.000đ tới LE VAN C lúc 21:10 29/11/2026. Tien nha thang 12",
     "MoMo", "expense", 1000000, "2026-11-29 21:10", "", None, "LE VAN C Tien nha"),
    ("MoMo: Thanh toán thành công 99.000đ cho Galaxy Play",
     "MoMo", "expense", 99000, "2026-12-01 12:00", "", None, "Galaxy Play"),
    ("Ban vua nhan duoc 50.000d tu PHAM D", "MoMo", "income", 50000, "2026-12-01 12:00", "", None, "PHAM D"),
]  # fmt: skip


def test_there_are_at_least_forty_real_shaped_texts():
    assert len(CASES) >= 40
    assert {case[1] for case in CASES} == {"Vietcombank", "Techcombank", "MB", "BIDV", "VPBank", "ACB", "MoMo"}


@pytest.mark.parametrize(("text", "bank", "direction", "amount", "when", "mask", "balance", "description"), CASES)
def test_each_known_format_is_read(text, bank, direction, amount, when, mask, balance, description):
    parsed = parse(text, now=NOW, tz=TZ)
    assert parsed is not None, text
    assert parsed.bank == bank
    assert parsed.direction == direction
    assert parsed.amount == Decimal(amount)
    assert parsed.occurred_at.astimezone(TZ).strftime("%Y-%m-%d %H:%M") == when
    assert parsed.account_mask == mask
    assert parsed.balance_after == (Decimal(balance) if balance is not None else None)
    assert parsed.description.startswith(description), parsed.description
    assert parsed.currency == "VND"
    assert looks_like_bank_text(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "how much did I spend on dining?",
        "TK 0123xxx789 -0VND 01/12 10:15 SD 2,345,000VND ND: zero",
        "TK 0123xxx789 -150,000VND 31/02 10:15 SD 2,345,000VND ND: no such day",
        "SD TK 0071000123456 -5,000,000,000,000VND luc 01-12-2026 10:15:20. SD 1VND. Ref absurd",
        "Your OTP is 123456. Do not share it.",
        "Tài khoản của bạn đã được nạp 50.000đ khuyến mãi",
    ],
)
def test_text_no_reader_knows_is_none(text):
    assert parse(text, now=NOW, tz=TZ) is None


def test_a_bank_looking_text_the_reader_cannot_place_is_still_recognised_as_one():
    text = "Sacombank 29/11/2026 10:14 TK: 050109499355 PS: +1,200,000 VND So du kha dung: 414,546,016 VND"
    assert parse(text, now=NOW, tz=TZ).bank == "Sacombank"
    assert looks_like_bank_text(text)
    unplaced = "TK 050109499355: +1,200,000 (bien dong). SD 414,546,016"
    assert parse(unplaced, now=NOW, tz=TZ) is None
    assert looks_like_bank_text(unplaced)
    assert not looks_like_bank_text("Is 150,000 VND a lot for dinner?")
