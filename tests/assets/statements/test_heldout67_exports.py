"""Table tests of the readers on heldout67's file found after its one measurement: OTP Bank Ukraine's card-account
statement, booked on the day the bank processed each line (`Дата обробки операції в банку`), in the account's
currency (`Сума операції в валюті рахунку`, not the operation's own in lari); a line the bank has not processed
yet (no processing day, no figure in the account's currency) is not booked. Figures made up."""

import datetime as dt
from decimal import Decimal

from tests.assets.statements.test_heldout17_exports import rows_of

OTP_UKRAINE = (
    "Номер рахунку/картки,,Тип операції,Дата здійснення операції,Дата обробки операції в банку,Опис операції,"
    "Сума операції,Валюта операції,Сума операції в валюті рахунку,Валюта рахунку,Код категорії підприємства\n"
    "UA093005280000000111111111111,,операція за рахунком,17.03.2023,17.03.2023,Переказ доходу,18335.60,UAH,"
    "18335.60,UAH,\n"
    "234567*****1111,,операція за карткою,15.03.2023,17.03.2023,Покупка A SHOP,-19.20,GEL,-281.92,UAH,5441\n"
    "123456*****2222,,операція за карткою,22.03.2023,,Дод. плата за зняття готівки в банкоматі,-251.52,UAH,,,6011\n"
)


def test_otp_ukraine_books_on_the_banks_processing_day_in_the_accounts_currency():
    rows = rows_of(OTP_UKRAINE.encode(), "UAH")
    assert [r[:3] for r in rows] == [
        (dt.date(2023, 3, 17), "income", Decimal("18335.60")),
        (dt.date(2023, 3, 17), "expense", Decimal("281.92")),
    ]
    assert all(not r[3] for r in rows)
