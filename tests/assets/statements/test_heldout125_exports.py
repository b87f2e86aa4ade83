"""Table tests of the readers on what heldout125 and heldout129 showed after their one measurement: a Japanese
prepaid card's kinds of line say each line's way (`お買い物`, a purchase; `チャージ`, a top-up); Seven Bank's
debit-card statement, its uses debited (`お振替日`, `お振替金額`) and, in a second table, the rebates on them written
as negative charges (`差額発生日`, `差額`); and USAA's older headerless CSV, whose pending lines say so only in their
category (`PENDING DEBIT CARD PURCHASE`). Figures made up."""

import datetime as dt
from decimal import Decimal

from tests.assets.statements.test_heldout109_exports import booked


def test_a_japanese_prepaid_cards_kinds_say_each_lines_way():
    raw = (
        '"行","取引種別","取引日","ご利用店舗","取引金額","通貨コード"\n'
        '"1","お買い物","2020/04/17 20:16","ローソン 川崎上野川","469","JPY"\n'
        '"2","チャージ","2020/04/17 20:16","ファミリーマート 梶ケ谷","3,000","JPY"\n'
    )
    assert booked(raw, "JPY") == [
        (dt.date(2020, 4, 17), "expense", Decimal("469")),
        (dt.date(2020, 4, 17), "income", Decimal("3000")),
    ]


def test_a_debit_cards_uses_and_the_rebates_on_them_in_two_tables():
    raw = (
        '"2020/04/16"\n"対象期間","2020年3月16日-2020年4月15日"\n\n"◆ご利用明細内訳(お振替済分)"\n'
        '"ご利用者","お振替日","ご利用先など","お振替金額(￥)","摘要","承認番号"\n'
        '"1089","2020/03/25","FUJI上野川","2,068","","[903821]"\n\n\n'
        '"◆ご利用明細内訳(差額分・お振替未済分)"\n'
        '"ご利用者","差額発生日","ご利用先など","差額(￥)","摘要","お取引結果","承認番号"\n'
        '"1089","2020/03/30","5%還元)FUJI上野川","-103","(利用日)2020年3月25日","銀行振替済","[903821]"\n'
    )
    assert booked(raw, "JPY", encoding="cp932") == [
        (dt.date(2020, 3, 25), "expense", Decimal("2068")),
        (dt.date(2020, 3, 30), "income", Decimal("103")),
    ]


def test_a_line_whose_category_says_pending_is_not_booked_yet():
    raw = (
        ',,"12/15/2014",,"DTV*DIRECTV SERV            43805******2356  ","PENDING DEBIT CARD PURCHASE",-164.6\n'
        "posted,,12/15/2014,,ACS LOANS PAYMENT 000123456,Loans,-64.46\n"
        "posted,,12/12/2014,,EMPLOYER INC DIRECT DEPOSIT PAYROLL,Paycheck,1200.00\n"
    )
    assert booked(raw, "USD") == [
        (dt.date(2014, 12, 15), "expense", Decimal("64.46")),
        (dt.date(2014, 12, 12), "income", Decimal("1200.00")),
    ]
