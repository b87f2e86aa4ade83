"""Table tests of the readers on what heldout117, heldout118 and heldout123 showed after their one measurement: a
card that says it received its owner's payment in Swedish (American Express' `BETALNING MOTTAGEN, TACK`) or took
it by direct debit (Itaú's `PAGAMENTO DEBITO AUTOMATICO`) writes its charges positive, though it writes some
refunds negative; a Japanese card bill's figure for this bill (`9月支払金額`, `お支払い金額`) beside the amount
used; PayPay's English history; and a figure written with a dollar sign (EQ Bank's `-$800`) under a name Zeus does
not know. Figures made up."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.statements.cells import figure
from tests.assets.statements.test_heldout109_exports import booked


def test_a_swedish_card_that_received_a_payment_writes_charges_positive_and_refunds_negative():
    raw = (
        'Datum,Beskrivning,Belopp\n09/01/2022,HELLOFRESH SWEDEN AB,"549,00"\n'
        '08/26/2022,"BETALNING MOTTAGEN, TACK","-24177,00"\n08/16/2022,SWISS Intl Air Lines,"-4693,00"\n'
        '08/15/2022,SWISS Intl Air Lines,"14079,00"\n'
    )
    assert booked(raw, "SEK") == [
        (dt.date(2022, 9, 1), "expense", Decimal("549.00")),
        (dt.date(2022, 8, 26), "income", Decimal("24177.00")),
        (dt.date(2022, 8, 16), "income", Decimal("4693.00")),
        (dt.date(2022, 8, 15), "expense", Decimal("14079.00")),
    ]


def test_a_card_paid_by_direct_debit_writes_its_charges_positive():
    raw = (
        "data,lançamento,valor\n2026-02-09,Market4uPORTO ALEGREBR,21.99\n"
        "2026-02-03,PAGAMENTO DEBITO AUTOMATICO,-3441.74\n2026-02-01,POSTO 14,54\n"
    )
    assert booked(raw, "BRL") == [
        (dt.date(2026, 2, 9), "expense", Decimal("21.99")),
        (dt.date(2026, 2, 3), "income", Decimal("3441.74")),
        (dt.date(2026, 2, 1), "expense", Decimal("54.00")),
    ]


def test_a_bank_account_paying_its_card_keeps_its_own_signs():
    raw = (
        "Date,Description,Amount\n2022-08-26,AMEX PAYMENT RECEIVED,-500.00\n2022-08-27,Grocer,-20.00\n"
        "2022-08-28,Salary,1000.00\n2022-08-29,Rent,-700.00\n"
    )
    assert [row[1] for row in booked(raw, "USD")] == ["expense", "expense", "income", "expense"]


def test_a_japanese_card_bill_reads_what_each_line_costs_this_bill():
    raw = (
        '"利用日","利用店名・商品名","利用者","支払方法","利用金額","支払手数料","支払総額","9月支払金額","10月繰越残高"\n'
        '"2025/08/31","AMAZON.CO.JP","本人","1回払い","4980","0","4980","4980","0"\n'
        '"2025/08/02","ローソン銀行ＣＤ","本人","1回払い","20000","552","20552","20552","0"\n'
        '"2025/06/25","楽天モバイル製品代","本人","分割48回払い(3回目)","26499","0","26499","552","24840"\n'
    )
    assert booked(raw, "JPY") == [
        (dt.date(2025, 8, 31), "expense", Decimal("4980")),
        (dt.date(2025, 8, 2), "expense", Decimal("20552")),
        (dt.date(2025, 6, 25), "expense", Decimal("552")),
    ]


def test_a_japanese_card_statements_amount_paid_this_time_is_its_charge():
    raw = (
        '"ご利用者","カテゴリ","ご利用日","ご利用先など","ご利用金額(￥)","支払区分","お支払い金額(￥)","摘要"\n'
        '"****-1234 様","≪ショッピング取組≫"," 2018/01/16","ツルハ","1,584","１回","1,584",""\n'
    )
    assert booked(raw, "JPY") == [(dt.date(2018, 1, 16), "expense", Decimal("1584"))]


def test_paypays_english_history_reads_its_outgoing_and_incoming_columns():
    raw = (
        "Date & Time,Amount Outgoing (Yen),Amount Incoming (Yen),Amount Outgoing Overseas,Currency,"
        "Exchange Rate (Yen),Country Paid In,Transaction Type,Business Name,Method\n"
        '2025/08/30 17:37:46,"2,400",-,-,-,-,-,Payment,フジマルクラフト,PayPay Balance\n'
        '2025/08/30 17:37:34,-,"10,000",-,-,-,-,Top-Up,PayPay,Bank *****72\n'
    )
    assert booked(raw, "JPY") == [
        (dt.date(2025, 8, 30), "expense", Decimal("2400")),
        (dt.date(2025, 8, 30), "income", Decimal("10000")),
    ]


def test_a_column_of_dollar_figures_under_a_name_zeus_does_not_know_is_the_amount():
    raw = (
        "Date,Description,Transfer,Balance\n15 MAR 2022,Payment to CARD,-$800,$5285.18\n"
        "14 MAR 2022,Direct deposit,$9639,$6085.18\n13 MAR 2022,Interest,$0.59,$-3553.82\n"
    )
    assert booked(raw, "CAD") == [
        (dt.date(2022, 3, 15), "expense", Decimal("800.00")),
        (dt.date(2022, 3, 14), "income", Decimal("9639.00")),
        (dt.date(2022, 3, 13), "income", Decimal("0.59")),
    ]


@pytest.mark.parametrize(("text", "value"), [("-$800", "-800"), ("$9,639.00", "9639.00"), ("€ 5", None)])
def test_a_figure_may_carry_a_currency_sign_after_its_own(text, value):
    assert figure(text, ".") == (Decimal(value) if value else None)
