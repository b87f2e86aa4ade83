"""Table tests of the readers on the bank exports found on heldout23 and heldout24 after their one measurement: a
CSV opening with `#` lines padded with runs of spaces (China Merchants Bank's), which held the format detection for
ever; ACB's `Số tiền rút ra`/`Số tiền gửi vào` beside a `TK đối ứng` (the counterparty's account, not a company's
own book); VPBank's `Số tiền chi tiêu`/`Tăng` with `--` for nothing; China Merchants Bank's `交易备注`. Each case a
few lines as such a file has them (figures made up), and what it must give; and the guards the rules must not
catch."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.statements import detect
from assets.statements.headers import auto_mapping
from tests.assets.statements.test_heldout17_exports import rows_of

SPACES = " " * 40
PADDED = f"# 招商银行交易记录\r\n# 导出时间: [{SPACES}2022-05-08 21:50:48]\r\n# 币    种: [{SPACES}人民币]\r\n"


def test_comment_lines_padded_with_spaces_are_read_as_the_csv_they_open():
    # Before, the QIF pattern tried every split of each run of spaces: this head never came back.
    head = (PADDED + "\r\n交易日期,交易时间,收入,支出,余额,交易类型,交易备注\r\n").encode()
    assert detect.detect(head) == detect.CSV


@pytest.mark.parametrize(
    "head",
    [
        "!Type:Bank\nD01/02/2026\n",
        "# exported by the bank\n\n!Type:Bank\nD01/02/2026\n",
        "^\r\n   !Account\nNChecking\n",
    ],
    ids=["plain", "after-a-comment", "after-a-record-end"],
)
def test_a_qif_after_blank_comment_or_record_end_lines_is_still_a_qif(head):
    assert detect.detect(head.encode()) == detect.QIF


def test_china_merchants_banks_remark_is_the_line_text():
    raw = (
        PADDED + "\r\n交易日期,交易时间,收入,支出,余额,交易类型,交易备注\r\n"
        '"\t20220508","\t21:50:12","177.57","","249871.21","\t朝朝宝赎回","\t8924|20220508"\r\n'
        '"\t20220508","\t18:13:11","","200.00","249693.64","\tN5CP","\t财付通 - 微信红包"\r\n'
    ).encode()
    assert rows_of(raw, "CNY") == [
        (dt.date(2022, 5, 8), "income", Decimal("177.57"), {}),
        (dt.date(2022, 5, 8), "expense", Decimal("200.00"), {}),
    ]


ACB = [
    "Ngày hiệu lực", "Ngày giao dịch", "Số GD", "Nội dung giao dịch", "Số tiền rút ra", "Số tiền gửi vào", "Số dư",
    "Tên TK đối ứng", "TK đối ứng",
]  # fmt: skip


def test_a_bank_statement_naming_the_counterpartys_account_keeps_withdrawn_as_money_out():
    assert auto_mapping(ACB) == {
        "date": "Ngày giao dịch",
        "external_id": "Số GD",
        "description": "Nội dung giao dịch",
        "debit": "Số tiền rút ra",
        "credit": "Số tiền gửi vào",
    }


def test_a_companys_own_book_still_reads_no_as_money_in():
    header = ["Ngày hạch toán", "Diễn giải", "TK đối ứng", "Nợ", "Có"]
    assert auto_mapping(header) == {"date": "Ngày hạch toán", "description": "Diễn giải", "credit": "Nợ", "debit": "Có"}


def test_vpbanks_spent_and_increase_columns_with_dashes_for_nothing():
    raw = (
        '""," SAO KÊ TÀI KHOẢN"\n"Số tài khoản:","150106508"\n"Tiền tệ:","VND"\n'
        '"Ngày giao dịch","Ngày hiệu lực","Nội dung giao dịch","Mã GD","Số tiền chi tiêu","Tăng",'
        '"Số dư sau giao dịch"\n'
        '"01/01/2021 03:11:00","01/01/2021","Hach toan lai","150106508-20201231","--","1,337 VND","3,219,033 VND"\n'
        '"31/12/2020 18:53:00","31/12/2020","3tr","FT20366109392162","3,000,000 VND","--","3,217,696 VND"\n'
    ).encode()
    assert rows_of(raw, "VND") == [
        (dt.date(2021, 1, 1), "income", Decimal("1337"), {}),
        (dt.date(2020, 12, 31), "expense", Decimal("3000000"), {}),
    ]
