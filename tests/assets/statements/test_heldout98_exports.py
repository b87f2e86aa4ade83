"""Table tests of the readers on the names and dates heldout98, heldout99, heldout101 and heldout103 showed after
their one measurement: a broker's cash account (`Liquida`, `Operado`, `Comprobante`), SMBC's `meisai.csv` with its
Japanese-era dates, WeChat Pay's bill (`交易时间`, `收/支`), China CITIC Bank's `收入金额`/`支出金额` and Simplii's
`Funds Out`/`Funds In`; and, for names like them Zeus has never seen, the side each of two figure columns' names holds
within its words. Figures made up."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.statements.dates import read_date
from assets.statements.rows import ImportRejected
from tests.assets.statements.test_heldout17_exports import rows_of


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("R03.03.01", dt.date(2021, 3, 1)),
        ("R01.05.01", dt.date(2019, 5, 1)),
        ("H31.04.30", dt.date(2019, 4, 30)),
        ("h02.12.31", dt.date(1990, 12, 31)),
        ("S64.01.07", dt.date(1989, 1, 7)),
        ("令和3年3月1日", dt.date(2021, 3, 1)),
        ("平成元年1月8日", dt.date(1989, 1, 8)),
    ],
)
def test_a_japanese_eras_date_is_its_year_of_the_era(text, day):
    assert read_date(text) == day


# Before Reiwa began, after Heisei ended, and no such day.
@pytest.mark.parametrize("text", ["R01.04.30", "H31.05.01", "S64.01.08", "R03.02.30", "X03.03.01", "令和3年13月1日"])
def test_a_day_outside_its_era_is_no_date(text):
    with pytest.raises(ValueError):
        read_date(text)


def test_smbcs_withdrawals_and_deposits_under_an_era_date():
    raw = (
        '"年月日（和暦）","お引出し","お預入れ","お取り扱い内容","残高"\r\n'  # noqa: RUF001
        'R03.03.01,16275,,"ﾗｸﾃﾝｶ-ﾄﾞｻ-ﾋﾞｽ",403643\r\n'
        'R03.03.03,,2000,"振込",405643\r\n'
    )
    assert rows_of(raw.encode("shift_jis"), "JPY") == [
        (dt.date(2021, 3, 1), "expense", Decimal("16275"), {}),
        (dt.date(2021, 3, 3), "income", Decimal("2000"), {}),
    ]


def test_a_wechat_pay_bill_says_in_or_out_in_its_own_column():
    raw = (
        "\ufeff微信支付账单明细,,,,,,,,\n"
        "起始时间：[2020-07-16 00:00:00] 终止时间：[2020-07-26 16:09:30],,,,,,,,\n"  # noqa: RUF001
        "共2笔记录,,,,,,,,\n"
        ",,,,,,,,\n"
        "----------------------微信支付账单明细列表--------------------,,,,,,,,\n"
        "交易时间,交易类型,交易对方,商品,收/支,金额(元),支付方式,当前状态,交易单号,商户单号,备注\n"
        '2020-07-25 15:44:43,商户消费,地铁,"地铁",支出,¥4.00,零钱,支付成功,42000005	,1000008	,"/"\n'
        '2020-07-24 10:00:00,转账,朋友,"/",收入,¥88.00,/,已存入零钱,10000500	,/,"/"\n'
    )
    assert rows_of(raw.encode(), "CNY") == [
        (dt.date(2020, 7, 25), "expense", Decimal("4.00"), {}),
        (dt.date(2020, 7, 24), "income", Decimal("88.00"), {}),
    ]


def test_citics_paid_in_and_paid_out_columns():
    raw = (
        "账号：6217********5999 人民币  起始日期:20240101 截止日期:20240229,,,,,\n"  # noqa: RUF001
        "交易日期,收入金额,支出金额,账户余额,对方名称,摘要\n"
        '2024-02-29,--,7.96,"71,684.02",商店,快捷支付-商店\n'
        '2024-02-28,100.00,--,"71,691.98",公司,工资\n'
    )
    assert rows_of(raw.encode(), "CNY") == [
        (dt.date(2024, 2, 29), "expense", Decimal("7.96"), {}),
        (dt.date(2024, 2, 28), "income", Decimal("100.00"), {}),
    ]


def test_simpliis_funds_out_and_funds_in():
    raw = (
        "Date, Transaction Details, Funds Out, Funds In \n"
        "06/21/2021, INTERAC E-TRANSFER RECEIVE,,29.82\n"
        "06/21/2021,POS MERCHANDISE LOBLAWS #1066,17.36,\n"
    )
    assert rows_of(raw.encode(), "CAD") == [
        (dt.date(2021, 6, 21), "income", Decimal("29.82"), {}),
        (dt.date(2021, 6, 21), "expense", Decimal("17.36"), {}),
    ]


def test_a_brokers_cash_account_is_booked_on_its_settlement_day():
    raw = (
        "Liquida,Operado,Comprobante,Numero,Cantidad,Especie,Precio,Importe,Saldo,Referencia\n"
        '21/05/2021,19/05/21,COMPRA NORMAL,1273744,"5,00",AUY,871.07,-4355.36,"146.088,78",\n'
        '18/05/2021,18/05/21,RECIBO DE COBRO,189839,"0,00",,0,100000,"150.444,14",CREDITO CTA. CTE.\n'
    )
    assert rows_of(raw.encode(), "ARS") == [
        (dt.date(2021, 5, 21), "expense", Decimal("4355.36"), {}),
        (dt.date(2021, 5, 18), "income", Decimal("100000.00"), {}),
    ]


LINES = "2026-01-02,Coffee,12.50,\n2026-01-03,Salary,,1000.00\n"


@pytest.mark.parametrize(
    "sides",
    ["Withdrawal Amt.,Deposit Amt.", "Cash out,Cash in", "出金額合計,入金額合計", "Deposit Amt.,Withdrawal Amt."],
)
def test_two_figure_columns_named_in_words_zeus_does_not_know_take_the_side_their_words_hold(sides):
    rows = rows_of(f"Date,Details,{sides}\n{LINES}".encode())
    spent, paid_in = ("expense", "income") if not sides.startswith("Deposit") else ("income", "expense")
    assert [r[:3] for r in rows] == [
        (dt.date(2026, 1, 2), spent, Decimal("12.50")),
        (dt.date(2026, 1, 3), paid_in, Decimal("1000.00")),
    ]


# Neither side named, one side twice, both in one name: no balance either, so nothing says which is money out.
@pytest.mark.parametrize("sides", ["Betrag A,Betrag B", "Withdrawal Amt.,Withdrawal Fee", "Debit or credit,Other"])
def test_two_figure_columns_whose_words_do_not_name_opposite_sides_are_refused(sides):
    with pytest.raises(ImportRejected) as caught:
        rows_of(f"Date,Details,{sides}\n{LINES}".encode())
    assert caught.value.code == "CSV_BAD_HEADER"
