"""Table tests of the readers on what heldout131 and heldout133 showed after their one measurement: Apple Card's
export, a card's table by its `Purchased By` column, writes its charges positive; Etsy's monthly statement (`Title`,
dates written `October 31, 2025`, `--` where a figure is blank) and its payouts to the seller's bank, written only in
words (`$68.87 sent to your bank account`). Figures made up."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.statements.dates import read_date
from tests.assets.statements.test_heldout17_exports import rows_of
from tests.assets.statements.test_heldout109_exports import booked


def test_apple_cards_export_writes_its_charges_positive():
    raw = (
        "Transaction Date,Clearing Date,Description,Merchant,Category,Type,Amount (USD),Purchased By\n"
        '06/29/2022,06/30/2022,"UBER EATS 1455 MARKET ST","Uber Eats","Restaurants","Purchase","13.62","A"\n'
        '06/23/2022,06/25/2022,"WAL-MART #2119 (RETURN)","Wal-mart","Credit","Credit","-131.65","A"\n'
        '06/18/2022,06/18/2022,"APPLE CASH PAYMENT","Apple Cash Payment","Payment","Payment","-24.81","B"\n'
        '06/17/2022,06/18/2022,"TARGET 00003228555","Target","Other","Purchase","207.72","B"\n'
        '06/16/2022,06/17/2022,"CVS/PHARMACY #09793","CVS Pharmacy","Other","Purchase","30.44","A"\n'
    )
    assert booked(raw, "USD") == [
        (dt.date(2022, 6, 29), "expense", Decimal("13.62")),
        (dt.date(2022, 6, 23), "income", Decimal("131.65")),
        (dt.date(2022, 6, 18), "income", Decimal("24.81")),
        (dt.date(2022, 6, 17), "expense", Decimal("207.72")),
        (dt.date(2022, 6, 16), "expense", Decimal("30.44")),
    ]


def test_an_etsy_statement_reads_its_net_figures_and_its_payouts_written_in_words():
    raw = (
        '\ufeffDate,Type,Title,Info,Currency,Amount,"Fees & Taxes",Net,"Tax Details"\n'
        '"October 31, 2025",Fee,"Transaction fee: Shipping","Order #3844871551",USD,--,-$0.99,-$0.99,--\n'
        '"October 31, 2025",Sale,"Payment for Order #3844871551",,USD,$69.20,--,$69.20,--\n'
        '"October 30, 2025",Deposit,"$68.87 sent to your bank account",,USD,--,--,--,--\n'
    )
    assert booked(raw, "USD") == [
        (dt.date(2025, 10, 31), "expense", Decimal("0.99")),
        (dt.date(2025, 10, 31), "income", Decimal("69.20")),
        (dt.date(2025, 10, 30), "expense", Decimal("68.87")),
    ]


def test_a_payout_in_another_currencys_words_is_a_bad_row_not_a_guess():
    raw = 'Date,Type,Title,Net\n"October 30, 2025",Deposit,"€68.87 sent to your bank account",--\n'
    [(_, _, _, problems)] = rows_of(raw.encode(), "USD")
    assert "amount" in problems


@pytest.mark.parametrize(
    ("text", "day"), [("October 31, 2025", dt.date(2025, 10, 31)), ("Oct. 3, 2025", dt.date(2025, 10, 3))]
)
def test_a_date_with_its_months_name_first(text, day):
    assert read_date(text) == day
