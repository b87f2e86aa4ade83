"""Table tests of the readers on heldout72's file found after its one measurement: PNC's headerless checking CSV,
a summary line first (the account, the period, the opening and closing balances), then lines of a day, an
unsigned amount, the text, a memo, a reference and CREDIT or DEBIT. Figures made up."""

import datetime as dt
from decimal import Decimal

from assets.statements.inference import headless_mapping
from tests.assets.statements.test_heldout17_exports import rows_of

SUMMARY = "00000000001234567890,2019/06/18,2019/07/16,7320.66,7615.17\n"
LINES = (
    '2019/06/18,310.80,"Direct Deposit - Payroll","AN EMPLOYER","000191699","CREDIT"\n'
    '2019/06/18,15.29,"5458 Debit Card Purchase A Pizza Place",,"4517145008","DEBIT"\n'
    '2019/06/19,1.00,"5458 Debit Card Purchase A Custard Stand",,"4517045008","DEBIT"\n'
)


def test_pnc_reads_under_its_summary_line_each_line_the_way_its_last_cell_says():
    assert [r[:3] for r in rows_of((SUMMARY + LINES).encode(), "USD")] == [
        (dt.date(2019, 6, 18), "income", Decimal("310.80")),
        (dt.date(2019, 6, 18), "expense", Decimal("15.29")),
        (dt.date(2019, 6, 19), "expense", Decimal("1.00")),
    ]


def test_a_first_line_with_a_date_where_the_lines_have_theirs_is_no_summary_to_pass_over():
    # A first line that reads as a transaction of the others' shape is never dropped to make the rest read.
    odd = "2019/06/17,99.00,A LINE OF ANOTHER SHAPE\n"
    assert headless_mapping([line.split(",") for line in (odd + LINES).splitlines()]) is None
