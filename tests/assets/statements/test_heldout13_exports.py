# ruff: noqa: RUF001, RUF003
"""Table tests of the readers on the bank exports found on heldout13 after its one measurement (Viseca's card,
whose `29.000` figures are twenty-nine by its `1.000000` exchange rate and whose charges are written positive;
ICA Banken's `-144,75 kr`; Spanish and Ukrainian headers, one in Windows-1251): each case a few lines of a real
file, as it has them, and the rows it must give."""

import datetime as dt
import io
from decimal import Decimal

import pytest

from assets.statements import textfile
from assets.statements.figures import decimal_mark
from assets.statements.headers import auto_mapping
from assets.statements.read import statement_rows
from tests.assets.statements.tables import csv_rows

VISECA = (
    "TransactionId,CardId,Date,ValutaDate,Amount,Currency,OriginalAmount,OriginalCurrency,MerchantName,"
    "MerchantPlace,MerchantCountry,StateType,Details,Type,Exchange Rate\n"
    "TRX2025030100001,000000XXXXXXXXXX,2025-03-01 15:12:22,2025-03-03 00:00:00,29.000,CHF,29.000,CHF,"
    "Jschalp Gastro AG,Davos Platz,CHE,BOOKED,Jschalp Gastro AG,merchant,1.000000\n"
    "TRX2025050500003,000000XXXXXXXXXX,2025-05-05 10:16:57,2025-05-05 00:00:00,12.900,CHF,15.000,USD,"
    "Windsurf,,,BOOKED,WINDSURF,merchant,0.848252\n"
    "TRX2024121900006,000000XXXXXXXXXX,2024-12-19 23:34:55,2024-11-23 00:00:00,-105.700,CHF,-103.900,CHF,"
    "Levis Online Shop,,,BOOKED,Levis Online Shop,merchant,1.000000\n"
)


def test_viseca_card_reads_its_three_decimals_and_its_positive_charges():
    assert [(r[0], r[1], r[2]) for r in csv_rows(VISECA, "CHF")] == [
        (dt.date(2025, 3, 1), "expense", Decimal("29.00")),
        (dt.date(2025, 5, 5), "expense", Decimal("12.90")),
        (dt.date(2024, 12, 19), "income", Decimal("105.70")),
    ]


@pytest.mark.parametrize(
    ("cells", "mark"),
    [
        (["29.000", "1.000000"], "."),  # a rate's six decimals settle `.`
        (["29.000", "-144,75"], ","),
        (["1,234.56", "29.000"], "."),  # both written: the later is the mark
        (["1.234,56"], ","),
        (["29.000", "1,000"], None),  # each could group thousands: nothing settles it
        (["1.5", "2,25"], None),  # the cells disagree: no file-wide mark
        (["2025-03-01", "30.11.2026", "15:12:22", "ABC 1.5"], None),  # dates, times and texts are no figures
    ],
)
def test_a_files_decimal_mark_is_told_by_any_of_its_figures(cells, mark):
    assert decimal_mark(cells) == mark


@pytest.mark.parametrize(
    ("text", "currency", "want"),
    [
        # Only `x.000` figures: thousands, as before.
        ("Date,Amount,Details\n2025-03-01,-150.000,Cafe\n2025-03-02,-29.000,Shop\n", "USD", ["150000", "29000"]),
        # A `,` mark elsewhere in the file: `1.000` groups thousands.
        ('Date,Amount,Rate,Details\n2025-03-01,-1.000,"0,5",Cafe\n', "USD", ["1000"]),
        # A `.` mark elsewhere: `1,000` still groups thousands, `29.000` is twenty-nine.
        (
            'Date,Amount,Rate,Details\n2025-03-01,"-1,000",0.5,Cafe\n2025-03-02,-29.000,0.5,Shop\n',
            "USD",
            ["1000", "29"],
        ),
        # A currency with no minor unit: `150.000` dong are thousands whatever another cell says.
        ("Date,Amount,Rate,Details\n2025-03-01,-150.000,0.5,Cafe\n", "VND", ["150000"]),
    ],
)
def test_ambiguous_figures_follow_the_files_mark(text, currency, want):
    assert [r[2] for r in csv_rows(text, currency)] == [Decimal(w) for w in want]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # Wise: a card column blank on its transfers is a bank account's, which writes purchases negative.
        (
            "Date,Amount,Description,Card Last Four Digits\n24-08-2020,-357.38,Sent money,\n"
            "25-08-2020,-5.00,Coffee,1234\n26-08-2020,20.00,Refund,1234\n27-08-2020,30.00,Refund,1234\n",
            ["expense", "expense", "income", "income"],
        ),
        # A card column on every line but more negatives than positives: the account's view of its card.
        (
            "Date,Amount,Description,Card number\n2020-08-24,-5.00,Coffee,**** 1234\n"
            "2020-08-25,-7.00,Lunch,**** 1234\n2020-08-26,2.00,Refund,**** 1234\n",
            ["expense", "expense", "income"],
        ),
        # A merchant's report: its customers' cards named by a token, not by a card's number; money in.
        (
            "Date,Amount,Description,card_id\n2021-02-03,23.97,Sale,card_1IGnS2\n2021-02-04,26.40,Sale,card_1IGnT7\n",
            ["income", "income"],
        ),
        # A `+` written on a line marks the money in, the bare figures are out (signs.credits_marked).
        (
            "Date,Amount,Description,CardId\n2020-08-24,5.00,Coffee,**** 1234\n2020-08-25,+7.00,Salary,**** 1234\n",
            ["expense", "income"],
        ),
        # A card's number on every line, charges unsigned: money out (PC Financial's Mastercard).
        (
            '"Merchant Name","Card Used For Transaction","Date","Time","Amount"\n'
            '"Mobil","**** 1234","01/10/2019","06:50 PM","36.33"\n'
            '"APL*ITUNES.COM/BILL","**** 4567","12/15/2018","05:08 PM","13.98"\n',
            ["expense", "expense"],
        ),
    ],
    ids=["card-column-blank-on-transfers", "more-negatives", "merchant-tokens", "plus-sign", "pc-mastercard"],
)
def test_only_a_cards_number_on_every_line_reads_positive_figures_as_charges(text, want):
    assert [r[1] for r in csv_rows(text, "USD")] == want


ICA_BANKEN = (
    "Datum;Text;Typ;Budgetgrupp;Belopp;Saldo\n"
    "2018-01-17;Närbutik;Korttransaktion;Övrigt;-144,75 kr;419,87 kr\n"
    "2018-02-01;Överföring;Insättning;Övrigt;2 500,00 kr;2 542,21 kr\n"
)


def test_ica_banken_figures_with_kr_and_spaced_thousands():
    assert [(r[0], r[1], r[2]) for r in csv_rows(ICA_BANKEN, "SEK")] == [
        (dt.date(2018, 1, 17), "expense", Decimal("144.75")),
        (dt.date(2018, 2, 1), "income", Decimal("2500.00")),
    ]


@pytest.mark.parametrize(
    ("cell", "currency", "want"),
    [
        ("-12,50 CHF", "CHF", Decimal("12.50")),
        ("€ 1.250,00", "EUR", Decimal("1250.00")),
        ("1 250 zł", "PLN", Decimal("1250")),
        ("150.000 ₫", "VND", Decimal("150000")),
        ("$12.50", "CAD", Decimal("12.50")),  # a Canadian bank's `$` is the account's dollar
        ("1 000 000 đ", "VND", Decimal("1000000")),
    ],
)
def test_a_word_or_symbol_for_the_accounts_currency_beside_a_figure_is_read_past(cell, currency, want):
    rows = csv_rows(f"Date;Amount;Details\n2025-03-01;{cell};Shop\n", currency)
    assert [(r[2], r[5]) for r in rows] == [(want, {})]


@pytest.mark.parametrize(
    ("cell", "currency"),
    [
        ("-144,75 kr", "VND"),  # `kr` is a crown, never the dong
        ("$12.50", "VND"),
        ("12,50 CHF", "EUR"),
    ],
)
def test_a_figure_naming_another_currency_or_read_two_ways_is_a_bad_row(cell, currency):
    rows = csv_rows(f"Date;Amount;Details\n2025-03-01;{cell};Shop\n", currency)
    assert [list(r[5]) for r in rows] == [["amount"]]


def test_spanish_and_ukrainian_header_words_name_the_columns():
    # MyInvestor: the operation's day before the value date.
    assert auto_mapping(["Fecha de operación", "Fecha de valor", "Concepto", "Importe", "Divisa"]) == {
        "date": "Fecha de operación",
        "description": "Concepto",
        "amount": "Importe",
        "currency": "Divisa",
    }
    # monobank: a Latin `i` among Cyrillic letters; the card's figure, not the operation's, and its bare
    # `Валюта` (the operation's currency) is not the card figure's currency.
    header = (
        "Дата i час операції,Деталі операції,MCC,Сума в валюті картки (UAH),Сума в валюті операції,Валюта,Курс,"
        "Сума комісій (UAH),Сума кешбеку (UAH),Залишок після операції"
    )
    assert auto_mapping(header.split(",")) == {
        "date": "Дата i час операції",
        "description": "Деталі операції",
        "amount": "Сума в валюті картки (UAH)",
    }
    # Sense Bank: `Cума` written with a Latin C; its `Статус` (`виконано`, done) is a status column.
    assert auto_mapping(
        ["Дата і час", "Статус", "Тип", "Деталі", "Адреса", "MCC", "Cума списання", "Cума зарахування"]
    ) == {
        "date": "Дата і час",
        "status": "Статус",
        "description": "Деталі",
        "debit": "Cума списання",
        "credit": "Cума зарахування",
    }
    # PrivatBank: the card's figure and the card's currency, not the transaction's.
    header = "Дата,Категорія,Картка,Опис операції,Сума в валюті картки,Валюта картки,Сума в валюті транзакції"
    assert auto_mapping([*header.split(","), "Валюта транзакції"]) == {
        "date": "Дата",
        "description": "Опис операції",
        "amount": "Сума в валюті картки",
        "currency": "Валюта картки",
    }


SENSE_BANK = (
    "Виписка за рахунком;;;;;;;\r\n"
    "Деталізація операцій за рахунком: UA111111111111111111111111111;;;;;;;\r\n"
    "Дата і час;Статус;Тип;Деталі;Адреса;MCC;Cума списання;Cума зарахування\r\n"
    "09.01.00 00:58;виконано;Інше;Щомісячна комісія;Kyiv, UKR;;-150,00;\r\n"
    "25.01.00 12:12;виконано;Інше;Перерахування доходу;Kyiv, UKR;;;10000,13\r\n"
    "Деталізація операцій за карткою: Visa Signature 4111xxxxxxx1111;;;;;;;\r\n"
    "Дата і час;Статус;Тип;Деталі;Адреса;MCC;Cума списання;Cума зарахування\r\n"
    "24.01.00 11:49;виконано;Комуналка;Поповнення балансу 380670000000;Kyiv, UKR;4900;-140,00;\r\n"
)


def test_a_windows_1251_file_with_a_title_and_a_second_table_under_the_same_header():
    raw = SENSE_BANK.encode("cp1251")
    assert textfile.encoding_of(io.BytesIO(raw), raw) == "cp1251"
    rows, _ = statement_rows(io.BytesIO(raw), kind="csv", head=raw, currency="UAH")
    assert [(r.occurred_on, r.direction, r.amount, r.problems) for r in rows] == [
        (dt.date(2000, 1, 9), "expense", Decimal("150.00"), {}),
        (dt.date(2000, 1, 25), "income", Decimal("10000.13"), {}),
        (dt.date(2000, 1, 24), "expense", Decimal("140.00"), {}),
    ]


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        ("Datum;Text;Belopp\r\n2018-01-17;Närbutik Övrigt Café;-144,75\r\n", "cp1252"),
        # Windows-1258's tones are marks after the letter: `Nga\u0300y`, `So\u0301 tie\u0300n`.
        (
            "Nga\u0300y;Di\u0303n gia\u0309i;So\u0301 tie\u0300n\r\n2018-01-17;Chuye\u0309n tie\u0300n;-144\r\n",
            "cp1258",
        ),
    ],
)
def test_western_and_vietnamese_windows_text_is_not_taken_for_cyrillic(text, encoding):
    raw = text.encode(encoding)
    assert textfile.encoding_of(io.BytesIO(raw), raw) == encoding
