"""An amount column written without signs beside a running balance that falls as well as rises: each line's
way is the balance's to say, oldest line first or newest first, an opening balance's line giving the first
line its starting point; a line whose way no balance shows refuses the file rather than guessing. Figures
made up."""

from decimal import Decimal

import pytest
from django.utils import translation

from assets.importing import transactions_import_csv
from assets.models import Transaction
from assets.statements import csvfile
from assets.statements.rows import ImportRejected
from assets.statements.running_balance import unsigned
from tests.assets.statements.tables import xlsx
from tests.assets.statements.test_heldout17_exports import rows_of

OLDEST_FIRST = [
    ("2026-03-02", "Salary", "50.00", "150.00"),
    ("2026-03-03", "Coffee", "20.00", "130.00"),
    ("2026-03-04", "Rent", "30.00", "100.00"),
    ("2026-03-05", "Refund", "5.00", "105.00"),
]
WAYS = [("income", "50.00"), ("expense", "20.00"), ("expense", "30.00"), ("income", "5.00")]


def _csv(lines, *, header="Date,Description,Amount,Balance", opening=None) -> bytes:
    body = [",".join(line) for line in lines]
    if opening is not None:
        body.insert(0, f"2026-03-01,Opening balance,,{opening}")
    return "\n".join([header, *body, ""]).encode()


def _ways(raw: bytes):
    with translation.override("en"):
        return [(r[1], str(r[2]), r[3]) for r in rows_of(raw, "USD")]


@pytest.mark.parametrize(
    ("text", "bare"),
    [("12.50", True), ("1,234.56", True), ("-12.50", False), ("+12.50", False), ("(12.50)", False),
     ("12.50-", False), ("12.50 CR", False), ("12.50 Dr", False), ("", False)],
)  # fmt: skip
def test_a_figure_is_unsigned_when_it_has_no_sign_and_no_side(text, bare):
    assert unsigned(text) is bare


def test_oldest_first_an_opening_balance_gives_the_first_line_its_way():
    assert _ways(_csv(OLDEST_FIRST, opening="100.00")) == [(way, figure, {}) for way, figure in WAYS]


def test_newest_first_each_line_is_read_against_the_older_line_under_it():
    raw = _csv([*OLDEST_FIRST[::-1], ("2026-03-01", "Opening balance", "", "100.00")])
    assert _ways(raw) == [(way, figure, {}) for way, figure in WAYS[::-1]]


@pytest.mark.parametrize("newest_first", [False, True])
def test_without_a_balance_before_it_the_oldest_line_is_asked_for_not_guessed(newest_first):
    lines = OLDEST_FIRST[::-1] if newest_first else OLDEST_FIRST
    read = _ways(_csv(lines))
    oldest = read[-1] if newest_first else read[0]
    assert oldest[2] == {
        "amount": [
            "The amount has no sign, and no balance before this line shows whether it went in or out: "
            "write it with a minus if it is money out, or a plus if it is money in."
        ]
    }
    assert [r[:2] for r in (read[:-1] if newest_first else read[1:])] == (WAYS[1:][::-1] if newest_first else WAYS[1:])


def test_the_oldest_line_written_with_its_sign_reads_as_signed_and_the_rest_by_the_balance():
    lines = [("2026-03-02", "Salary", "+50.00", "150.00"), *OLDEST_FIRST[1:]]
    assert _ways(_csv(lines)) == [(way, figure, {}) for way, figure in WAYS]


def test_a_balance_that_stops_following_the_lines_past_the_first_read_names_the_line(monkeypatch):
    monkeypatch.setattr(csvfile, "LOOKAHEAD", 5)
    lines = [*OLDEST_FIRST, ("2026-03-06", "Transfer", "40.00", "999.00")]
    read = _ways(_csv(lines, opening="100.00"))
    assert read[-1][2] == {
        "amount": ["The amount has no sign, and the balance beside it does not move by it: in or out cannot be told."]
    }
    assert [r[:2] for r in read[:-1]] == WAYS


def test_a_balance_that_only_rises_leaves_the_figures_as_written():
    lines = [("2026-03-02", "Salary", "50.00", "150.00"), ("2026-03-03", "Gift", "20.00", "170.00"),
             ("2026-03-04", "Interest", "1.00", "171.00")]  # fmt: skip
    assert [r[:2] for r in _ways(_csv(lines))] == [("income", "50.00"), ("income", "20.00"), ("income", "1.00")]


def test_a_column_saying_the_way_is_read_before_the_balance():
    lines = [(*line[:3], kind, line[3]) for line, kind in zip(OLDEST_FIRST, ["C", "D", "D", "C"], strict=True)]
    raw = _csv(lines, header="Date,Description,Amount,Dr/Cr,Balance")
    assert [r[:2] for r in _ways(raw)] == WAYS


def test_a_sheet_reads_the_same_way():
    rows = [["Date", "Description", "Amount", "Balance"], ["2026-03-01", "Opening balance", None, 100000]]
    rows += [
        [day, text, int(Decimal(figure) * 1000), int(Decimal(balance) * 1000)]
        for day, text, figure, balance in OLDEST_FIRST
    ]
    from tests.assets.statements.tables import sheet_rows

    assert [(r[1], r[2]) for r in sheet_rows(xlsx(rows))] == [(way, Decimal(f) * 1000) for way, f in WAYS]


@pytest.mark.django_db
def test_a_file_whose_oldest_line_no_balance_explains_imports_nothing(alice):
    with pytest.raises(ImportRejected) as caught:
        transactions_import_csv(user=alice, text=_csv(OLDEST_FIRST).decode())
    assert list(caught.value.fields["rows"]) == ["2"]
    assert not Transaction.objects.filter(user=alice).exists()


@pytest.mark.django_db
def test_with_its_opening_balance_the_file_lands_each_way(alice):
    transactions_import_csv(user=alice, text=_csv(OLDEST_FIRST, opening="100000").decode().replace(".00", "000"))
    landed = Transaction.objects.filter(user=alice).order_by("occurred_on")
    assert [(t.direction, t.amount) for t in landed] == [(way, Decimal(f[:-3] + "000")) for way, f in WAYS]
