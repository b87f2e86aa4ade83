"""Table tests of the readers on T-Bank's (Tinkoff's) CSV found on heldout51 after its one measurement: Windows-1251,
semicolons, the operation's moment (`Дата операции`) beside the day it was booked (`Дата платежа`), the operation's
figure and currency beside the payment's (`Сумма платежа`, `Валюта платежа`: the account's), and a `Статус` whose
`FAILED` lines moved no money. Figures made up."""

import datetime as dt
from decimal import Decimal

from assets.statements.headers import auto_mapping
from tests.assets.statements.test_heldout17_exports import rows_of

HEADER = (
    '"Дата операции";"Дата платежа";"Номер карты";"Статус";"Сумма операции";"Валюта операции";"Сумма платежа";'
    '"Валюта платежа";"Кэшбэк";"Категория";"MCC";"Описание";"Бонусы (включая кэшбэк)"\n'
)
TBANK = HEADER + (
    '"02.04.2025 23:58:24";"03.04.2025";"*1234";"OK";"-12,50";"EUR";"-1150,00";"RUB";"";"Кафе";"5814";"Кафе";"0,00"\n'
    '"01.04.2025 22:40:10";"01.04.2025";"";"OK";"0,08";"RUB";"0,08";"RUB";"";"Проценты";"";"Проценты";"0,00"\n'
    '"01.04.2025 10:00:00";"";"*1234";"FAILED";"-500,00";"RUB";"-500,00";"RUB";"";"Кафе";"5814";"Кафе";"0,00"\n'
)


def test_tbank_names_its_booking_day_its_payment_figure_and_currency_and_its_status():
    assert auto_mapping(HEADER.replace('"', "").strip().split(";")) == {
        "date": "Дата платежа",
        "amount": "Сумма платежа",
        "currency": "Валюта платежа",
        "status": "Статус",
        "description": "Описание",
    }


def test_tbank_books_the_payment_in_roubles_on_its_day_and_leaves_a_failed_line_out():
    assert rows_of(TBANK.encode("cp1251"), "RUB") == [
        (dt.date(2025, 4, 3), "expense", Decimal("1150.00"), {}),
        (dt.date(2025, 4, 1), "income", Decimal("0.08"), {}),
    ]
