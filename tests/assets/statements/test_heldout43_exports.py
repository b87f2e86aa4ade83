"""Table tests of the readers on the exports found on heldout43 after its one measurement: USAA's download lists
transfers it has scheduled, dated after the download (`Scheduled Funds Transfer` in its `Status`), beside the
`Posted` lines: not booked, so not imported. Figures made up."""

import datetime as dt
from decimal import Decimal

import pytest

from tests.assets.statements.tables import csv_rows


@pytest.mark.parametrize("status", ["Scheduled Funds Transfer", "Scheduled", "Pending authorization"])
def test_a_line_still_to_be_carried_out_is_not_imported(status):
    text = (
        "Date,Description,Original Description,Category,Amount,Status\n"
        f"2022-08-29,USAA FUNDS TRANSFER DB,,,-20,{status}\n"
        "2022-08-25,DEPOSIT@MOBILE,DEPOSIT@MOBILE,Category Pending,38.94,Posted\n"
    )
    assert [row[:3] for row in csv_rows(text, "USD")] == [(dt.date(2022, 8, 25), "income", Decimal("38.94"))]
