"""Table tests of the readers on heldout92's files found after its one measurement: Piraeus Bank's card
authorisations among its booked lines, Marcus UK's dates written `20190601` under header words Zeus does not know,
Aqua's card that thanks its owner for a payment, and China Merchants Bank's card export padding each comma-separated
cell with a tab, its card named by its last four digits; 1822direkt's `Soll/Haben` holding the signed figure. Figures
made up."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.statements.headers import auto_mapping
from tests.assets.statements.test_heldout17_exports import rows_of


def test_a_debit_purchase_authorisation_is_not_booked_yet():
    raw = (
        "Category,Transaction Narrative,Posted date,Amount,Currency,Progressive Ledger Balance\n"
        "Restaurants,KAPETANAKIS THESSALONIKI(DEBIT PURCHASE AUTHORIZATION),25/07/2020,-13,EUR,0\n"
        "Restaurants,E FOOD GR IRAKLEIO                 (CARD PURCHASE),24/07/2020,-18,EUR,2440.62\n"
    )
    assert rows_of(raw.encode()) == [(dt.date(2020, 7, 24), "expense", Decimal("18.00"), {})]


def test_dates_written_yyyymmdd_make_a_date_column_for_the_cells_rules():
    """Marcus' `Value` is no amount Zeus may name from its word (PostFinance's `Value` is the value date): its
    unsigned figures read by the running balance, once `20190601` is a date."""
    raw = (
        '"TransactionDate","Description","Value","AccountBalance","AccountName","AccountNumber"\n'
        '"20190601","Interest applied","1.41","1565.68","Online Savings Account","REDACTED"\n'
        '"20190524","Transfer from REDACTED","588.47","1564.27","Online Savings Account","REDACTED"\n'
        '"20190505","Transfer from REDACTED","475.8","975.8","Online Savings Account","REDACTED"\n'
    )
    assert rows_of(raw.encode(), "GBP") == [
        (dt.date(2019, 6, 1), "income", Decimal("1.41"), {}),
        (dt.date(2019, 5, 24), "income", Decimal("588.47"), {}),
        (dt.date(2019, 5, 5), "income", Decimal("475.80"), {}),
    ]


def test_a_card_that_thanks_its_owner_for_a_payment_writes_its_charges_positive():
    raw = (
        "\ufeffDate,Description,Amount(GBP)\r\n"
        "Pending,OLDGATE               GREAT BRITAIGBR,6.6\r\n"
        "06/06/2019,Trainline      London       GBR,19.87\r\n"
        "27/05/2019, PAYMENT RECEIVED - THANK YOU,-59.64\r\n"
    )
    assert rows_of(raw.encode(), "GBP") == [
        (dt.date(2019, 6, 6), "expense", Decimal("19.87"), {}),
        (dt.date(2019, 5, 27), "income", Decimal("59.64"), {}),
    ]


def test_a_bank_account_paying_its_card_still_reads_as_signed():
    raw = (
        "Date,Description,Amount\n"
        "06/06/2019,Salary,2500.00\n"
        "07/06/2019,Rent,-900.00\n"
        "27/06/2019,CARD PAYMENT THANK YOU,-59.64\n"
    )
    assert [r[:3] for r in rows_of(raw.encode(), "GBP")] == [
        (dt.date(2019, 6, 6), "income", Decimal("2500.00")),
        (dt.date(2019, 6, 7), "expense", Decimal("900.00")),
        (dt.date(2019, 6, 27), "expense", Decimal("59.64")),
    ]


def test_cells_padded_with_a_tab_after_each_comma_are_comma_separated():
    raw = (
        "\t对账标志,\t交易日期,\t记账日期,\t交易摘要,\t卡号后四位,\t人民币金额,\t消费类别,\t备注\n"
        "\t未确认,\t2016-01-31,\t2016-02-01,\t支付宝,\t1111,\t99.00,\t,\t\n"
        "\t未确认,\t2016-02-01,\t2016-02-03,\tDIGITALOCEAN.COM,\t2222,\t65.92,\t,\t\n"
        "\t未确认,\t2016-02-08,\t2016-02-08,\t还款,\t1111,\t-164.92,\t,\t\n"
    )
    assert [r[:3] for r in rows_of(raw.encode(), "CNY")] == [
        (dt.date(2016, 2, 1), "expense", Decimal("99.00")),
        (dt.date(2016, 2, 3), "expense", Decimal("65.92")),
        (dt.date(2016, 2, 8), "income", Decimal("164.92")),
    ]


def test_a_soll_haben_column_with_no_figure_beside_it_holds_the_signed_figure():
    raw = (
        "Kontonummer;Datum/Zeit;Buchungstag;Wertstellung;Soll/Haben;Buchungsart;"
        "Empf\u00e4nger/Auftraggeber Name;Vwz.0\n"
        "1234;25.03.2020 04:13;25.03.2020;25.03.2020;-19,99;Lastschrift;PayPal;PP.1494.PP\n"
        "1234;23.03.2020 09:34;23.03.2020;23.03.2020;1.250,00;Gutschrift;FIRMA;Lohn\n"
    )
    assert rows_of(raw.encode()) == [
        (dt.date(2020, 3, 25), "expense", Decimal("19.99"), {}),
        (dt.date(2020, 3, 23), "income", Decimal("1250.00"), {}),
    ]


@pytest.mark.parametrize(
    ("header", "mapping"),
    [
        # Beside a figure, `Soll/Haben` stays the side of it (Volksbank's `S` and `H`).
        (
            ["Buchungstag", "Verwendungszweck", "Umsatz", "Soll/Haben"],
            {"date": "Buchungstag", "description": "Verwendungszweck", "amount": "Umsatz", "direction": "Soll/Haben"},
        ),
        # A kind of line is no figure, nor are a direction's words or letters.
        (["Date", "Description", "Transaction Type"], None),
        (["交易时间", "交易对方", "收/支"], None),
        (["Date", "Description", "D/C"], None),
        (
            ["Buchungstag", "Beguenstigter/Zahlungspflichtiger", "Soll/Haben"],
            {"date": "Buchungstag", "description": "Beguenstigter/Zahlungspflichtiger", "amount": "Soll/Haben"},
        ),
    ],
)
def test_which_soll_haben_column_is_the_figure(header, mapping):
    assert auto_mapping(header) == mapping
