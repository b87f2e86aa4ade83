"""The one rule for a file's decimal mark (assets/statements/figures.py), which the column inference and the
figure reader both ask. Where the two readers' former rules differed, the table says which way it went."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.statements.columns import infer_mapping
from assets.statements.figures import decimal_mark
from tests.assets.statements.tables import csv_rows


@pytest.mark.parametrize(
    ("cells", "unsettled", "mark"),
    [
        # Money's own shape settles it: one or two places after a lone mark, or both marks written.
        (["-1.234,56", "50,00"], None, ","),
        (["1,234.56", "-7.5"], ".", "."),
        # Both marks written: the later is the mark, whatever follows it (the inference used to pass over
        # `1.000,7500`, having no two places at its end).
        (["1.000,7500"], ".", ","),
        (["1,234.567"], None, "."),
        # Four places or more after a lone mark (a rate, a quantity): it tells where no money's figure does (the
        # inference used to pass over it and read `1,0856` with a `.` mark, ten thousand eight hundred ...)...
        (["1,0856", "150"], ".", ","),
        (["29.000", "1.000000"], None, "."),
        # ... and gives way to one that does (the figure reader used to call the two a disagreement: no mark).
        (["-144,75", "0.848252"], None, ","),
        (["-144,75", "18753493.6094"], ".", ","),
        # A figure grouped by no-break spaces is a figure (the figure reader used to pass over it).
        (["1\u00a0234,56", "29,000"], None, ","),
        # Brackets and signs aside (the inference used to pass over a bracketed figure).
        (["(12,50)"], ".", ","),
        (["+ 7,5"], ".", ","),
        # One sign written twice cannot group and mark at once (the inference used to take its last as the mark).
        (["1,234,56"], ".", "."),
        # Disagreeing figures of the same sureness: no mark, for either reader.
        (["1.5", "2,25"], ".", None),
        (["1,0856", "0.848252"], None, None),
        # Nothing tells (whole figures, `1,000`-style groups, dates, times, texts): the caller's own reading.
        (["150,000", "45000"], ".", "."),
        (["29.000", "1,000"], None, None),
        (["2025-03-01", "30.11.2026", "15:12:22", "ABC 1.5", ""], None, None),
    ],
)
def test_a_files_figures_tell_its_decimal_mark(cells, unsettled, mark):
    assert decimal_mark(cells, unsettled=unsettled) == mark


# A headerless table whose money is written to four places with a comma mark, its balance with both marks:
# read with a `.` mark (as the inference did, seeing no figure end in two places) the balance runs on nothing.
FOUR_PLACES = [
    ["01.02.2020", "Kaffee am Bahnhof", "-1,5000", "998,5000"],
    ["02.02.2020", "Zinsgutschrift", "2,2500", "1.000,7500"],
    ["03.02.2020", "Kontogebühr", "-0,7500", "1.000,0000"],
]


def test_the_inference_reads_a_balance_written_with_both_marks():
    assert infer_mapping(FOUR_PLACES) == (0, {"date": 0, "amount": 2, "description": 1})


@pytest.mark.parametrize(
    "text",
    [
        # The money writes `,` (`-12,50`), the card's exchange rate `.` (a machine's six places): `29,000` is
        # twenty-nine francs, where it was read as twenty-nine thousand for want of one mark in the file.
        'Date,Amount,Rate,Details\n2025-03-01,"-12,50",0.848252,Cafe\n2025-03-02,"-29,000",1.000000,Shop\n',
        # The money's thousands grouped by a no-break space tell the `,` mark.
        'Date,Amount,Details\n2025-03-01,"-1\u00a0234,56",Cafe\n2025-03-02,"-29,000",Shop\n',
    ],
)
def test_the_figure_reader_follows_the_moneys_mark(text):
    rows = csv_rows(text, "CHF")
    assert [(r[0], r[2], r[5]) for r in rows][1] == (dt.date(2025, 3, 2), Decimal("29.00"), {})
