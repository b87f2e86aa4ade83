"""A wallet's statement with a balance in each currency (PayPal's, DEGIRO's): imported into an account, only the
lines in its currency are its own; the other currencies' lines (a USD purchase and the conversion that paid for it)
are the wallet's other accounts. One balance running across currencies keeps every line. A column of currency codes
the header does not name (PayPal's Dutch `Valuta`) is the currency column. Figures made up."""

import datetime as dt
from decimal import Decimal

from assets.statements.currency_columns import codes_column
from tests.assets.statements.test_heldout109_exports import booked

PAYPAL_NL = (
    '"Datum","Tijd","Tijdzone","Naam","Type","Status","Valuta","Bedrag","Saldo"\n'
    '"08-05-2025","15:53:21","CEST","Shop","Betaling","Voltooid","EUR","-24,99","-24,99"\n'
    '"08-05-2025","15:53:21","CEST","","Bankstorting","Voltooid","EUR","24,99","0,00"\n'
    '"09-05-2025","11:35:58","CEST","Headphones","Betaling","Voltooid","USD","-3,78","-3,78"\n'
    '"09-05-2025","11:35:58","CEST","","Bankstorting","Voltooid","EUR","3,51","3,51"\n'
    '"09-05-2025","11:35:58","CEST","","Valutaomrekening","Voltooid","EUR","-3,51","0,00"\n'
    '"09-05-2025","11:35:58","CEST","","Valutaomrekening","Voltooid","USD","3,78","0,00"\n'
)


def test_a_wallet_with_a_balance_per_currency_reads_the_accounts_currency_alone():
    assert booked(PAYPAL_NL, "EUR") == [
        (dt.date(2025, 5, 8), "expense", Decimal("24.99")),
        (dt.date(2025, 5, 8), "income", Decimal("24.99")),
        (dt.date(2025, 5, 9), "income", Decimal("3.51")),
        (dt.date(2025, 5, 9), "expense", Decimal("3.51")),
    ]


def test_a_broker_whose_balance_names_its_own_currency_reads_the_accounts_currency_alone():
    raw = (
        "Data,Ora,Data Valore,Prodotto,ISIN,Descrizione,Borsa,Variazioni,,Saldo,,ID Ordine\n"
        "20-05-2024,17:16,20-05-2024,,,Acquisto,,USD,-100.00,USD,0.00,\n"
        "20-05-2024,17:15,20-05-2024,,,Cambio,,USD,100.00,USD,100.00,\n"
        "20-05-2024,17:15,20-05-2024,,,Cambio,,EUR,-92.00,EUR,8.00,\n"
        "18-05-2024,07:09,17-05-2024,,,Deposito,,EUR,100.00,EUR,100.00,\n"
    )
    assert booked(raw, "EUR") == [
        (dt.date(2024, 5, 20), "expense", Decimal("92.00")),
        (dt.date(2024, 5, 18), "income", Decimal("100.00")),
    ]


def test_one_balance_across_currencies_keeps_every_line():
    raw = (
        "Date,Description,Amount,Currency,Balance\n2025-05-01,Salary,100.00,EUR,100.00\n"
        "2025-05-02,Shop abroad,-10.00,USD,90.00\n2025-05-03,Cafe,-5.00,EUR,85.00\n"
    )
    assert [(r[1], r[2]) for r in booked(raw, "EUR")] == [
        ("income", Decimal("100.00")),
        ("expense", Decimal("10.00")),
        ("expense", Decimal("5.00")),
    ]


def test_an_unnamed_column_of_currency_codes_is_the_currency_column():
    ahead = [(2, ["2025-05-01", "x", "EUR", "1"]), (3, ["2025-05-02", "y", "USD", "2"])]
    assert codes_column(ahead, {"date": 0, "description": 1, "amount": 3}) == {
        "date": 0, "description": 1, "amount": 3, "currency": 2,
    }  # fmt: skip
    same = [(2, ["2025-05-01", "x", "EUR", "1"]), (3, ["2025-05-02", "y", "EUR", "2"])]
    assert codes_column(same, {"date": 0, "description": 1, "amount": 3}) == {"date": 0, "description": 1, "amount": 3}
