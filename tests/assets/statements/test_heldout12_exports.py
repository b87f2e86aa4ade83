"""Table tests of the readers on the bank exports found on heldout12 after its one measurement (Chinese
banks' headers, a title above BMO's header, a card's headless DEBIT/CREDIT column, an OFX line listed twice, and
later CMB's card: yearless days under a title naming the statement's month, repayments named `还款` written
negative beside its charges): each case a few lines of a real file, as it has them, and the rows it must give."""

import datetime as dt
import io
from decimal import Decimal

import pytest

from assets.statements import detect
from assets.statements.headers import auto_mapping, column_keys
from assets.statements.read import statement_rows
from assets.statements.rows import ImportRejected
from tests.assets.statements.tables import csv_rows

ICBC_HEADER = (
    "交易日期,摘要,交易场所,交易国家或地区简称,钞/汇,交易金额(收入),交易金额(支出),交易币种,记账金额(收入),"
    "记账金额(支出),记账币种,余额,对方户名"
)


def test_chinese_header_words_name_the_columns():
    assert auto_mapping(["交易日期", "交易时间", "交易摘要", "交易金额", "本次余额", "对手信息"]) == {
        "date": "交易日期",
        "description": "交易摘要",
        "amount": "交易金额",
    }
    # The booking day and the booked figure before the day and the figure of the purchase.
    assert auto_mapping(["交易日期", "入账日期", "交易摘要", "交易金额", "交易货币", "入账金额", "入账货币"]) == {
        "date": "入账日期",
        "description": "交易摘要",
        "amount": "入账金额",
        "currency": "入账货币",
    }
    # ICBC: the bracket says which side; the booked columns before the ones in the purchase's currency.
    assert auto_mapping(ICBC_HEADER.split(",")) == {
        "date": "交易日期",
        "description": "摘要",
        "credit": "记账金额(收入)",
        "debit": "记账金额(支出)",
        "currency": "记账币种",
    }
    assert column_keys(["记账日期", "货币", "交易金额", "联机余额", "交易摘要"]) == {
        0: "date",
        1: "currency",
        2: "amount",
        3: "balance",
        4: "description",
    }


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # ABC: YYYYMMDD dates, figures signed both ways; a `+0.00` line moves nothing.
        (
            "交易日期,交易时间,交易摘要,交易金额,本次余额,对手信息,日 志 号,交易渠道,交易附言\n"
            "20240101,123456,转存,+10000.00,11000.00,哈哈,369396693,超级网银,转账\n"
            "20240103,,正常还款,-12345.89,1943.12,12341234123412341,111222333\n"
            "20240104,,利息税,+0.00,123.35,--,0000000000,,个人活期结息\n",
            [
                (dt.date(2024, 1, 1), "income", Decimal("10000.00")),
                (dt.date(2024, 1, 3), "expense", Decimal("12345.89")),
            ],
        ),
        # CMB debit: a CNY column, figures quoted with thousands separators.
        (
            "记账日期,货币,交易金额,联机余额,交易摘要,对手信息,客户摘要\n"
            '2024-01-01,CNY,"1,234.00","1,271.66",代发住房公积金,北京住房公积金管理中心,01月01日约定提取\n'
            '2024-01-01,CNY,"-1,000.00",271.66,转账汇款,张三 66666666666666,转账\n',
            [(dt.date(2024, 1, 1), "income", Decimal("1234.00")), (dt.date(2024, 1, 1), "expense", Decimal("1000.00"))],
        ),
        # ICBC: title lines above the header, cells padded with spaces and tabs, `人民币` the currency, `-` blank.
        (
            '明细查询文件下载\n\n卡号: 1234****9876,"卡别名: 这是卡别名"\n\n' + ICBC_HEADER + "\n"
            '2023-05-02     \t,"消费   \t","麦当劳  \t","CHN \t",钞 \t,"-  \t","-  \t",- \t,"  \t","13.40  \t",'
            '人民币  \t,"xx,yyyy.zz  \t","财付通  \t",\n'
            '2023-04-22     \t,"他行汇入  \t","  \t","CHN \t",钞 \t,"-  \t","-  \t",- \t,"1,234.56  \t","  \t",'
            '人民币  \t,"xx,yyyy.zz  \t","张三  \t",\n',
            [(dt.date(2023, 5, 2), "expense", Decimal("13.40")), (dt.date(2023, 4, 22), "income", Decimal("1234.56"))],
        ),
        # CGB's card: purchases (`消费`) unsigned, a repayment (`还款`) and a refund (`退款`) negative.
        (
            "交易日期,入账日期,交易摘要,交易金额,交易货币,入账金额,入账货币\n"
            "2025/01/05,2025/01/06,\uff08消费\uff09示例商户A,15.90,人民币,15.90,人民币\n"
            "2025/01/04,2025/01/04,\uff08退款\uff09示例商户B,-97.20,人民币,-97.20,人民币\n"
            "2024/12/25,2024/12/26,\uff08还款\uff09云闪付 银联入账-张三,-1130.68,人民币,-1130.68,人民币\n",
            [
                (dt.date(2025, 1, 6), "expense", Decimal("15.90")),
                (dt.date(2025, 1, 4), "income", Decimal("97.20")),
                (dt.date(2024, 12, 26), "income", Decimal("1130.68")),
            ],
        ),
        # A bank account paying its card off: the repayment negative, but a purchase negative too: as signed.
        (
            "记账日期,交易金额,交易摘要\n2024-01-02,-50.00,消费 超市\n2024-01-03,-500.00,信用卡还款\n"
            "2024-01-04,20.00,退款\n",
            [
                (dt.date(2024, 1, 2), "expense", Decimal("50.00")),
                (dt.date(2024, 1, 3), "expense", Decimal("500.00")),
                (dt.date(2024, 1, 4), "income", Decimal("20.00")),
            ],
        ),
        # BMO: a title and blank lines above the header; `Date Posted`; the type column says the way.
        (
            "Following data is valid as of 20239810344234 (Year/Month/Day/Hour/Minute/Second)\n\n\n"
            "First Bank Card,Transaction Type,Date Posted, Transaction Amount,Description\n\n\n"
            "'5678653123124124',CREDIT,20230501,0.01,[DN]ACFS            MSP/DIV     \n"
            "'5678653123124124',DEBIT,20230518,-68.32,[CW]TELUS MOB     \n",
            [(dt.date(2023, 5, 1), "income", Decimal("0.01")), (dt.date(2023, 5, 18), "expense", Decimal("68.32"))],
        ),
        # A headless card export: DEBIT over its charges written positive, CREDIT over a payment written negative.
        (
            '2013/01/17,2013/01/16,2013011702,DEBIT,2226,"VODAFONE PREPAY VISA M   AUCKLAND      NZL",30.00\n'
            '2013/01/19,2013/01/19,2013011901,CREDIT,2226,"INTERNET PAYMENT RECEIVED                 ",-500.00\n'
            '2013/01/26,2013/01/23,2013012601,DEBIT,2226,"ITUNES NZ                CORK          IRL",64.99\n',
            [
                (dt.date(2013, 1, 17), "expense", Decimal("30.00")),
                (dt.date(2013, 1, 19), "income", Decimal("500.00")),
                (dt.date(2013, 1, 26), "expense", Decimal("64.99")),
            ],
        ),
    ],
    ids=["abc", "cmb-debit", "icbc", "cgb-card", "account-paying-card", "bmo-title", "headless-debit-credit"],
)
def test_heldout12_exports(text, want):
    assert [(r[0], r[1], r[2]) for r in csv_rows(text, "CNY" if "交易" in text or "记账" in text else "CAD")] == want


def test_a_card_whose_purchases_and_repayments_disagree_in_sign_is_read_as_signed():
    # A `+` written anywhere says the column's signs are the account's: no card convention is read into it.
    text = "记账日期,交易金额,交易摘要\n2024-01-02,15.00,消费\n2024-01-03,-500.00,还款\n2024-01-04,+2.00,利息\n"
    assert [r[1] for r in csv_rows(text, "CNY")] == ["income", "expense", "income"]


def test_a_chinese_currency_name_is_read_as_its_code():
    # `美元` is USD, never the ledger's own currency: the import's currency check sees the line's own.
    text = "记账日期,交易金额,交易摘要,币种\n2024-01-02,-15.00,超市,美元\n2024-01-03,-2.00,超市,人民币\n"
    assert [r[3] for r in csv_rows(text, "CNY")] == ["USD", "CNY"]


def test_ofx_datetimes_in_a_csv_are_dates_and_headless_signed_lines_keep_their_signs():
    from assets.statements.dates import read_date

    assert read_date("20091224120000[0:GMT]") == read_date("20091224120000.000[-5:EST]") == dt.date(2009, 12, 24)
    for text in ("20091224120000", "20091224120000[GMT", "2009122412000[0:GMT]"):
        with pytest.raises(ValueError):
            read_date(text)
    # Chase: a type column (DEBIT, CHECK, CREDIT) that is no direction (a CREDIT written negative): as signed.
    text = (
        'DEBIT,20091224120000[0:GMT],"HOST 037196321563 MO        12/22SLICEHOST",-85.00\n'
        'CHECK,20091224120000[0:GMT],"Book Store",-20.00\n'
        'CREDIT,20091223120000[0:GMT],"Some Company vendorpymt                 PPD ID: 59728JSL20",3520.00\n'
        'CREDIT,20091211120000[0:GMT],"PAYPAL           TRANSFER                   PPD ID: PAYPALSDSL",-116.22\n'
    )
    assert [(r[0], r[1], r[2]) for r in csv_rows(text, "USD")] == [
        (dt.date(2009, 12, 24), "expense", Decimal("85.00")),
        (dt.date(2009, 12, 24), "expense", Decimal("20.00")),
        (dt.date(2009, 12, 23), "income", Decimal("3520.00")),
        (dt.date(2009, 12, 11), "expense", Decimal("116.22")),
    ]


@pytest.mark.parametrize(
    "text",
    [
        # TD: debit and credit columns and a balance that runs against the order its dates run: no reading.
        "05/01/2023,DOLLARAMA # 845   _M,1.96,,13.04\n05/01/2023,T T SUPERMARKET   _M,12.10,,15.00\n"
        "05/01/2023,PTS TO:  02816700587,10.00,,27.10\n05/01/2023,SFCA             MSP,,0.01,37.10\n"
        "05/02/2023,SEND E-TFR ***Y4h   ,239.13,,93.09\n",
        # One side filled, a balance that never moves: nothing says which side it is.
        "01/09/2015,05354 SUBWAY,8.19,,1000.00\n02/18/2015,WENDY'S #6338,8.55,,1000.00\n"
        "02/25/2015,WENDY'S #6338,9.14,,1000.00\n",
    ],
    ids=["td-balance-against-dates", "constant-balance"],
)
def test_headless_debit_and_credit_columns_without_proof_are_refused(text):
    with pytest.raises(ImportRejected):
        csv_rows(text, "USD")


CMB_CARD = (
    "招商银行信用卡对账单（个人消费卡账户 2025年01月）\n"  # noqa: RUF001
    "交易日,记账日,交易摘要,人民币金额,卡号末四位,交易地金额\n"
    ",12/28,掌上生活还款,-10.00,4321,-10.00\n"
    "12/30,12/31,超市,25.50,4321,25.50\n"
    "01/02,01/03,饭票,-3.00,4321,-3.00(CN)\n"
    '01/04,01/05,书店,"1,200.00",4321,"1,200.00(CN)"\n'
)


def dated_rows(text: str, today: dt.date | None):
    raw = text.encode()
    rows, _ = statement_rows(io.BytesIO(raw), kind=detect.detect(raw), head=raw, currency="CNY", today=today)
    return [(r.occurred_on, r.direction, r.amount, r.problems) for r in rows]


def test_cmbs_card_reads_its_yearless_days_up_to_the_month_its_title_names_and_its_charges_out():
    assert dated_rows(CMB_CARD, dt.date(2026, 12, 6)) == [
        (dt.date(2024, 12, 28), "income", Decimal("10.00"), {}),
        (dt.date(2024, 12, 31), "expense", Decimal("25.50"), {}),
        (dt.date(2025, 1, 3), "income", Decimal("3.00"), {}),
        (dt.date(2025, 1, 5), "expense", Decimal("1200.00"), {}),
    ]


def test_a_title_naming_a_year_but_no_day_leaves_yearless_days_bad_rows():
    text = CMB_CARD.replace("2025年01月", "2025")
    assert all("date" in problems for *_, problems in dated_rows(text, dt.date(2026, 12, 6)))
