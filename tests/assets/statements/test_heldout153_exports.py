"""Table tests of the readers on what heldout153 showed after its one measurement: USAA's export of 2016 writes
money out with a minus and money in with two (`--400`, the minus of a negative figure), which is money in, not
a figure with one minus too many. Figures made up."""

import datetime as dt
from decimal import Decimal

from assets.statements import cells
from tests.assets.statements.test_heldout109_exports import booked


def test_two_minus_signs_are_the_minus_of_a_negative_figure():
    raw = (
        "posted,,03/15/2016,,INSURANCE AUTOPAY,Insurance,-13.68\n"
        "posted,,03/15/2016,,FUNDS TRANSFER CR,Transfers,--400\n"
        "posted,,02/24/2016,,INTEREST PAID,Interest,--0.06\n"
        "posted,,02/16/2016,,FUNDS TRANSFER DB,Transfers,-1600\n"
        "posted,,02/03/2016,,ATM WITHDRAWAL,Cash,-60.00\n"
    )
    assert booked(raw, "USD") == [
        (dt.date(2016, 3, 15), "expense", Decimal("13.68")),
        (dt.date(2016, 3, 15), "income", Decimal("400.00")),
        (dt.date(2016, 2, 24), "income", Decimal("0.06")),
        (dt.date(2016, 2, 16), "expense", Decimal("1600.00")),
        (dt.date(2016, 2, 3), "expense", Decimal("60.00")),
    ]


def test_a_named_amount_column_reads_two_minus_signs_as_money_in():
    raw = "Date,Description,Amount\n2016-03-15,FUNDS TRANSFER CR,--400.00\n2016-03-14,GROCERIES,-25.10\n"
    assert booked(raw, "USD") == [
        (dt.date(2016, 3, 15), "income", Decimal("400.00")),
        (dt.date(2016, 3, 14), "expense", Decimal("25.10")),
    ]


def test_a_cell_with_two_minus_signs_is_a_positive_figure_and_three_are_none():
    assert cells.is_figure("--400")
    assert cells.figure("--1,234.50", ".") == Decimal("1234.50")
    assert cells.figure("-1,234.50", ".") == Decimal("-1234.50")
    assert not cells.is_figure("---400")
    assert cells.figure("---400", ".") is None
