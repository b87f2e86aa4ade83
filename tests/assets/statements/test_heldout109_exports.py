"""Table tests of the readers on what heldout105 and heldout109 showed after their one measurement: EPOS's card
statement (`ご利用年月日` written `2013年12月1日`, `ご利用場所`), PayPal's `Gross`/`Fee`/`Net` download (the net figure,
its fee taken off once), Cash App's report (`Net Amount`, `$` figures, a `Transaction Type` naming kinds of line,
times with their zone's letters), Venmo's statement (its header under a title, `Datetime`, `+ $45.00`, a payment
its `Funding Source` made from a bank) and PayPal's Dutch `In behandeling`. Figures made up."""

# ruff: noqa: RUF001 (EPOS writes its header and merchants in full-width letters and brackets)
import datetime as dt
from decimal import Decimal

import pytest

from assets.statements.dates import read_date
from tests.assets.statements.test_heldout17_exports import rows_of


def booked(raw: str, currency: str = "USD", encoding: str = "utf-8"):
    """Each row's date, direction and amount, for a file whose every row reads without a problem."""
    return [(r[0], r[1], r[2]) for r in rows_of(raw.encode(encoding), currency) if not r[3]]


@pytest.mark.parametrize(
    ("text", "day"), [("2013年12月1日", dt.date(2013, 12, 1)), ("2024年1月31日", dt.date(2024, 1, 31))]
)
def test_a_date_written_in_japanese_or_chinese_years_months_and_days(text, day):
    assert read_date(text) == day


def test_an_epos_card_statement_reads_its_charges_as_money_out():
    raw = (
        "月別ご利用明細　株式会社エポスカード,,,,,,,\n"
        "種別（ショッピング、キャッシング、その他）,ご利用年月日,ご利用場所,ご利用内容,"
        "ご利用金額（キャッシングでは元金になります）,支払区分,お支払開始月,備考\n"
        "ショッピング,2013年12月1日,ＡＭＡＺＯＮ．ＣＯ．ＪＰ,－,1050,1回払い,2014年1月,\n"
        "ショッピング,2013年12月3日,ドラッグストア,－,2480,1回払い,2014年1月,\n"
        "ショッピング合計,,,,3530,,,\n"
        "※注１　ショッピングでは、売上データが到着していないご利用分は含みません。,,,,,,,\n"
    )
    assert booked(raw, "JPY", "cp932") == [
        (dt.date(2013, 12, 1), "expense", Decimal("1050")),
        (dt.date(2013, 12, 3), "expense", Decimal("2480")),
    ]


def test_a_net_figure_is_read_and_its_fee_is_not_taken_off_twice():
    raw = (
        '"Date","Time","TimeZone","Name","Type","Status","Currency","Gross","Fee","Net","Receipt ID","Balance","Tip"\n'
        '"06/08/2021","03:45:41","PDT","PayPal","General Bonus","Completed","USD","5.00","0.00","5.00","","5.00",""\n'
        '"06/08/2021","03:57:42","PDT","","General Withdrawal","Completed","USD","-4.95","-0.05","-5.00","","0.00",""\n'
    )
    assert booked(raw) == [
        (dt.date(2021, 6, 8), "income", Decimal("5.00")),
        (dt.date(2021, 6, 8), "expense", Decimal("5.00")),
    ]


def test_a_wallets_report_of_kinds_of_line_reads_its_signed_net_figures():
    header = (
        '"Transaction ID","Date","Transaction Type","Currency","Amount","Fee","Net Amount","Asset Type","Asset Price",'
        '"Asset Amount","Status","Notes","Name of sender/receiver","Account"\n'
    )
    raw = header + (
        '"a1","2024-06-16 19:56:14 EDT","Received P2P","USD","$10","$0","$10",,"",,"PAYMENT DEPOSITED",,"Sam",'
        '"Your Cash"\n'
        '"a2","2024-06-16 19:01:41 EDT","Cash Card Debit","USD","-$0.99","$0","-$0.99","","","","CARD CHARGED",'
        '"Coffee","","Visa Debit 4854"\n'
        '"a3","2024-06-15 08:00:00 EDT","Cash out","USD","-$20","-$0.30","-$20.30",,"",,"TRANSFER SENT",,"",'
        '"Your Cash"\n'
    )
    assert booked(raw) == [
        (dt.date(2024, 6, 16), "income", Decimal("10.00")),
        (dt.date(2024, 6, 16), "expense", Decimal("0.99")),
        (dt.date(2024, 6, 15), "expense", Decimal("20.30")),
    ]


def test_a_kind_of_line_that_is_no_way_still_refuses_unsigned_figures():
    raw = "Date,Description,Amount,Transaction Type\n2024-06-16,Sam,10.00,Received P2P\n2024-06-17,Cafe,3.00,Card\n"
    assert all(problems for *_, problems in rows_of(raw.encode(), "USD"))


VENMO = (
    "Account Statement - (@someone) - July 31st to September 1st 2021 ,,,,,,,,,,,,,,,,,,\n"
    "Account Activity,,,,,,,,,,,,,,,,,,\n"
    ",ID,Datetime,Type,Status,Note,From,To,Amount (total),Amount (tip),Amount (fee),Funding Source,"
    "Destination,Beginning Balance,Ending Balance,Statement Period Venmo Fees,Terminal Location,"
    "Year to Date Venmo Fees,Disclaimer\n"
    ",,,,,,,,,,,,,$101.04,,,,,\n"
    ",1,2021-08-07T04:11:17,Charge,Complete,Rent,A,B,+ $839.30,,,,Venmo balance,,,,Venmo,,\n"
    ",2,2021-08-07T04:12:07,Standard Transfer,Issued,,,,- $885.00,,,,ALLY BANK *9391,,,,Venmo,,\n"
    ',3,2021-08-18T00:09:14,Credit Card Payment,Complete,,,,"- $1,000.00",,,ALLY BANK Checking *9391,,,,,Venmo,,\n'
    ",4,2021-08-29T17:42:53,Credit Card Payment,Complete,,,,- $50.00,,,Venmo balance,,,,,Venmo,,\n"
    ',,,,,,,,,,,,,,$5.34,$0.00,,$26.90,"In case of errors\n   call us"\n'
)


def test_a_venmo_statement_reads_what_its_balance_paid_and_not_what_a_bank_paid():
    assert booked(VENMO) == [
        (dt.date(2021, 8, 7), "income", Decimal("839.30")),
        (dt.date(2021, 8, 7), "expense", Decimal("885.00")),
        (dt.date(2021, 8, 29), "expense", Decimal("50.00")),
    ]


def test_paypals_dutch_lines_in_progress_are_not_booked():
    raw = (
        '"Datum","Tijd","Tijdzone","Naam","Type","Status","Valuta","Bedrag","Kosten","Totaal","Saldo"\n'
        '"08-05-2025","15:53:21","CEST","Shop","Betaling","Voltooid","EUR","-24,99","0,00","-24,99","-24,99"\n'
        '"08-05-2025","15:53:21","CEST","","Bankstorting naar PP-rekening ","In behandeling","EUR","24,99","0,00",'
        '"24,99","0,00"\n'
    )
    assert booked(raw, "EUR") == [(dt.date(2025, 5, 8), "expense", Decimal("24.99"))]
