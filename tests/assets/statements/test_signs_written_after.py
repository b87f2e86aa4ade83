"""A figure's sign written after it (`1.234,56-`, as SAP and older German exports write it) or after the currency
that opens it (`USD -12.50`, `$-3.00`): read as the sign first; and a side written in a column of its own under a
name Zeus does not know (`Type`: `Debit`, `Credit`), or after the figure on money in only (`1,000.00 CR`: the bare
figures are money out). Figures made up."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.statements.figures import sign_first
from tests.assets.statements.test_heldout17_exports import rows_of


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("12,50-", "-12,50"),
        ("1.000,00+", "+1.000,00"),
        ("1 234,56 -", "-1 234,56"),
        ("USD -12.50", "-USD 12.50"),
        ("$-3.00", "-$ 3.00"),
        ("€ -3,00", "-€ 3,00"),
        # Anything else as written: a sign already first, a dash for nothing, a date, a side in words.
        ("-12.50", "-12.50"),
        ("--", "--"),
        ("2026-01-02", "2026-01-02"),
        ("12-34", "12-34"),
        ("12.00 Cr", "12.00 Cr"),
    ],
)
def test_a_sign_after_the_figure_or_its_currency_comes_first(text, read):
    assert sign_first(text) == read


@pytest.mark.parametrize(
    ("figures", "currency"),
    [(("12,50-", "1.000,00+", "3,00"), "EUR"), (("USD -12.50", "USD 1,000.00", "USD 3.00"), "USD")],
)
def test_a_column_of_figures_signed_after_reads_each_way(figures, currency):
    lines = "".join(f'2026-01-0{i + 2},Line {i},"{figure}"\n' for i, figure in enumerate(figures))
    rows = rows_of(f"Date,Description,Amount\n{lines}".encode(), currency)
    assert [r[1:] for r in rows] == [
        ("expense", Decimal("12.50"), {}),
        ("income", Decimal("1000.00"), {}),
        ("income", Decimal("3.00"), {}),
    ]
    assert [r[0] for r in rows] == [dt.date(2026, 1, 2), dt.date(2026, 1, 3), dt.date(2026, 1, 4)]


@pytest.mark.parametrize(("out", "into"), [("Debit", "Credit"), ("DR", "CR"), ("debit", "credit")])
def test_an_unsigned_amount_beside_an_unnamed_column_of_sides(out, into):
    raw = f"Date,Description,Amount,Type\n2026-01-02,Coffee,12.50,{out}\n2026-01-03,Salary,1000.00,{into}\n"
    assert [r[1:3] for r in rows_of(raw.encode())] == [("expense", Decimal("12.50")), ("income", Decimal("1000.00"))]


@pytest.mark.parametrize(
    "kinds",
    [
        ("C", "A"),  # Santander Chile's cargo and abono: no side Zeus may read from letters that mean both
        ("Debit", "Transfer"),  # a kind that is no side: the column says no line's way
    ],
)
def test_a_column_that_is_not_all_sides_leaves_the_figures_as_written(kinds):
    raw = f"Date,Description,Amount,Type\n2026-01-02,Coffee,12.50,{kinds[0]}\n2026-01-03,Salary,1000.00,{kinds[1]}\n"
    assert [r[1] for r in rows_of(raw.encode())] == ["income", "income"]


@pytest.mark.parametrize("credit", ["1,000.00 CR", "1,000.00CR", "+1,000.00"])
def test_money_in_marked_alone_leaves_the_bare_figures_money_out(credit):
    raw = f'Date,Description,Amount\n2026-01-02,Coffee,12.50\n2026-01-03,Salary,"{credit}"\n2026-01-04,Tea,3.00\n'
    assert [r[1:3] for r in rows_of(raw.encode())] == [
        ("expense", Decimal("12.50")),
        ("income", Decimal("1000.00")),
        ("expense", Decimal("3.00")),
    ]


def test_a_debit_marked_too_leaves_a_bare_figure_as_written():
    raw = "Date,Description,Amount\n2026-01-02,Coffee,12.50 DR\n2026-01-03,Salary,1000.00 CR\n2026-01-04,Tea,3.00\n"
    assert [r[1] for r in rows_of(raw.encode())] == ["expense", "income", "income"]
