"""A wallet's statement with a balance in each currency (PayPal's, DEGIRO's): imported into an account, only the
lines in its currency are its own; the other currencies' lines (a USD purchase and the conversion that paid for it)
are the wallet's other accounts. One balance running across currencies keeps every line. A column of currency codes
the header does not name (PayPal's Dutch `Valuta`) is the currency column. A money-transfer history of source and
target sides (Wise's) reads the side in the account's currency. A card payment abroad in a bank's export (Monzo's)
keeps its local amount beside the account's: the account's is the line's. Figures made up."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.statements.currency_columns import codes_column
from tests.assets.statements.test_heldout17_exports import rows_of
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


WISE = (
    'ID,Status,Direction,"Created on","Finished on","Source fee amount","Source fee currency","Target fee amount",'
    '"Target fee currency","Source name","Source amount (after fees)","Source currency","Target name",'
    '"Target amount (after fees)","Target currency","Exchange rate",Reference\n'
    '"CARD-1",COMPLETED,OUT,"2023-03-15 21:28:56","2023-03-15 21:28:56",0.91,EUR,,,"Me",74.11,EUR,Market,414.54,BRL,'
    "5.59,\n"
    '"TRANSFER-2",COMPLETED,IN,"2023-03-15 15:48:41","2023-03-15 15:49:10",0.00,EUR,,,"Me",100.0,EUR,"Me",100.0,EUR,'
    "1.0,\n"
    '"BALANCE-3",COMPLETED,NEUTRAL,"2023-03-14 10:00:00","2023-03-14 10:00:00",0.34,USD,,,"Me",71.77,USD,"Me",65.44,'
    "EUR,0.91,\n"
    '"CARD-4",CANCELLED,OUT,"2023-03-13 10:00:00","2023-03-13 10:00:00",0.00,BRL,,,"Me",20.00,BRL,Bar,20.00,BRL,1,\n'
    '"CARD-5",COMPLETED,OUT,"2023-03-12 10:00:00","2023-03-12 10:00:00",0.00,BRL,,,"Me",30.00,BRL,Bar,30.00,BRL,1,\n'
)


def test_a_transfers_history_reads_the_side_in_the_accounts_currency():
    assert booked(WISE, "EUR") == [
        (dt.date(2023, 3, 15), "expense", Decimal("75.02")),
        (dt.date(2023, 3, 15), "income", Decimal("100.00")),
        (dt.date(2023, 3, 14), "income", Decimal("65.44")),
    ]
    assert booked(WISE, "BRL") == [(dt.date(2023, 3, 12), "expense", Decimal("30.00"))]


def test_a_transfers_history_in_portuguese_and_a_figure_that_is_none():
    raw = (
        '"Número da transferência",Situação,Direção,"Criada em","Concluída em","Valor da tarifa de origem",'
        '"Moeda da tarifa de origem","Valor da tarifa de destino","Moeda da tarifa de destino","Nome de origem",'
        '"Valor de origem (tarifas inclusas)","Moeda de origem","Nome do beneficiário","Valor de destino (tarifas '
        'inclusas)","Moeda de destino","Taxa de câmbio",Referência,Lote\n'
        '"CARD-1",COMPLETED,OUT,"2023-09-15 18:04:28","2023-09-15 18:04:28",0.00,EUR,,,"Eu",10.49,EUR,Minipreço,'
        "10.49,EUR,1.0,,\n"
        '"CARD-2",COMPLETED,OUT,"2023-09-14 18:04:28","2023-09-14 18:04:28",0.00,EUR,,,"Eu",abc,EUR,Loja,1,EUR,1.0,,\n'
    )
    read = rows_of(raw.encode(), "EUR")
    assert read[0][1:3] == ("expense", Decimal("10.49"))
    assert list(read[1][3]) == ["amount"]


MONZO_2025 = (
    "Transaction ID,Date,Time,Type,Name,Emoji,Category,Amount,Currency,Local amount,Local currency,Notes and #tags,"
    "Address,Receipt,Description,Category split,Money Out,Money In\n"
    "tx_0000A1,01/12/2024,09:14:50,Faster payment,A Friend,,Income,43.94,GBP,43.94,GBP,Rent,,,Rent,,,43.94\n"
    "tx_0000A2,01/12/2024,15:46:32,Card payment,Cafe,☕,Eating out,-4.77,GBP,-4.77,GBP,,HIGH,,CAFE TOWN GBR,,-4.77,\n"
    "tx_0000A3,01/12/2024,15:46:33,Pot transfer,Savings,,Savings,-0.23,GBP,-0.23,GBP,,,,pot_0000A,,-0.23,\n"
    "tx_0000A4,13/12/2024,12:01:02,Card payment,Bar,,Eating out,-8.41,GBP,-10.00,EUR,,VIA 1,,BAR  ROMA  ITA,,-8.41,\n"
    "tx_0000A5,14/12/2024,12:01:02,Card payment,Shop,,Shopping,0.00,GBP,0.00,GBP,Active card check,,,SHOP,,,\n"
)


# The same export before Monzo added its `Money Out` and `Money In` columns: the currencies alone say which figure.
MONZO_2018 = "".join(",".join(line.split(",")[:16]) + "\n" for line in MONZO_2025.splitlines())


@pytest.mark.parametrize("raw", [MONZO_2025, MONZO_2018], ids=["money-out-and-in", "amounts-alone"])
def test_a_card_payment_abroad_reads_the_accounts_amount_not_the_local_one(raw):
    assert booked(raw, "GBP") == [
        (dt.date(2024, 12, 1), "income", Decimal("43.94")),
        (dt.date(2024, 12, 1), "expense", Decimal("4.77")),
        (dt.date(2024, 12, 1), "expense", Decimal("0.23")),
        (dt.date(2024, 12, 13), "expense", Decimal("8.41")),
    ]
