"""Table tests of the readers on what heldout137 and heldout139 showed after their one measurement: a
money-manager app's export (1Money) says each unsigned figure's way in a `TYPE` column, `Expense` or `Income`; DBS
(Singapore) writes a note past its table's last column on some lines (`CSHBACK 100.00`), which moves no column. And
heldout14's JA Bank file, failing since its measurement: a day written month first in Japanese with no year
(`4月30日`), the latest such day up to the importer's today as BCA's `'06/07`. Figures made up."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.statements.conventions import latest_date
from tests.assets.statements.test_heldout17_exports import rows_of
from tests.assets.statements.test_heldout109_exports import booked
from zeus.errors import ValidationFailed


def test_a_money_managers_type_column_says_each_figures_way():
    raw = (
        '\ufeff"DATE","TYPE","FROM ACCOUNT","TO ACCOUNT / TO CATEGORY","AMOUNT","CURRENCY","AMOUNT 2","CURRENCY 2",'
        '"TAGS","NOTES"\n'
        '"4/25/19","Expense","Card","Shopping","14.5","EUR","14.5","EUR","","Shoe rack"\n'
        '"4/25/19","Income","Card","Salary","20","EUR","20","EUR","",""\n'
        '"4/24/19","Expense","Card","Restaurant","2.8","EUR","2.8","EUR","","Lunch"\n'
        ",\n"
        '"NAME","BALANCE","CURRENCY"\n'
        '"Card","2.7","EUR"\n'
    )
    assert booked(raw, "EUR") == [
        (dt.date(2019, 4, 25), "expense", Decimal("14.50")),
        (dt.date(2019, 4, 25), "income", Decimal("20.00")),
        (dt.date(2019, 4, 24), "expense", Decimal("2.80")),
    ]


DBS_HEADER = (
    "\n\nAccount Details For:,DBS Multiplier Account 000-000000-0\nStatement as at:    ,22 Jun 2018\n\n"
    "Currency:           ,SGD - Singapore Dollar\n\nLedger Balance:     ,93.50\n\n"
    "Transaction Date    ,Value Date    ,Statement Code,Reference,Debit Amount,Credit Amount,Client Reference,"
    "Additional Reference,Misc Reference\n\n"
)


def dbs(line: str) -> str:
    return (
        DBS_HEADER
        + "22 Jun 2018 ,           ,POS   ,BAT  ,50.00  ,       ,client ref ,add-ref ,misc-ref ,\n"
        + line
        + "05 Jun 2018 ,05 Jun 2018,GR    ,PAY  ,       ,250.00 ,client ref ,add-ref ,misc-ref ,\n"
    )


def test_a_note_past_the_tables_last_column_moves_no_column():
    raw = dbs("07 Jun 2018 ,           ,POS   ,NPW  ,102.30 ,       ,client ref ,add-ref ,misc-ref ,CSHBACK 100.00,,\n")
    assert booked(raw, "SGD") == [
        (dt.date(2018, 6, 22), "expense", Decimal("50.00")),
        (dt.date(2018, 6, 7), "expense", Decimal("102.30")),
        (dt.date(2018, 6, 5), "income", Decimal("250.00")),
    ]


def test_a_figure_past_the_tables_last_column_still_asks_for_a_mapping():
    # Where a comma inside a text may have moved a line's cells, which of its figures is which the header no
    # longer says.
    with pytest.raises(ValidationFailed) as caught:
        rows_of(
            dbs(
                "07 Jun 2018 ,           ,POS   ,NPW  ,102.30 ,       ,client ref ,add-ref ,misc-ref ,100.00\n"
            ).encode()
        )
    assert caught.value.code == "CSV_BAD_HEADER"


def test_a_japanese_day_without_its_year_is_the_latest_such_day_up_to_today():
    raw = (
        '"番号","取扱日付","お引出金額","お預入金額","残高","摘要"\n'
        '"001","4月30日","","\\7,000","\\7,000","振込"\n'
        '"002","5月2日","\\4,600","","\\2,400","NSS"\n'
    ).encode("cp932")
    assert rows_of(raw, "JPY", today=dt.date(2026, 5, 1)) == [
        (dt.date(2026, 4, 30), "income", Decimal("7000"), {}),
        (dt.date(2025, 5, 2), "expense", Decimal("4600"), {}),  # not yet the 2nd of May this year: last year's
    ]


@pytest.mark.parametrize("text", ["12月3日", "12 月 3 日", "12월 3일"])
def test_a_month_day_in_words_is_month_first_whatever_the_files_figures_say(text):
    assert latest_date(text, dt.date(2026, 12, 7), day_first=True) == dt.date(2026, 12, 3)
