"""Table tests of the statement readers' patterns on input shaped to make a backtracking pattern try every way of
sharing a long run of one character between two of its pieces: each must give the right answer (before, each of
these held the upload for ever; the suite's timeout catches a hang, no timed assertion here)."""

import datetime as dt
import io
from decimal import Decimal

import pytest

from assets.statements import detect
from assets.statements.read import statement_rows
from assets.statements.rows import ImportRejected

RUN = " " * 100_000


def _rows(raw: bytes, kind: str):
    rows, _ = statement_rows(io.BytesIO(raw), kind=kind, head=raw[: detect.HEAD_BYTES], currency="USD")
    return [(r.occurred_on, r.direction, r.amount, r.description) for r in rows]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # An amount padded with a long run of spaces: the exponent check split the run between `\s*` and the figure.
        (
            f"!Type:Bank\nD01/02/2026\nT{RUN}-12.50\nPCoffee\n^\n",
            [(dt.date(2026, 1, 2), "expense", Decimal("12.50"), "Coffee")],
        ),
        (
            f"!Type:Bank\nD01/02/2026\nU{RUN}12.50\nPCoffee\n^\n",
            [(dt.date(2026, 1, 2), "income", Decimal("12.50"), "Coffee")],
        ),
        # Stray record ends first, then a line of spaces before the header (within the detection's head).
        (
            f"^\n{' ' * 8000}!Type:Bank\nD01/02/2026\nT-12.50\nPCoffee\n^\n",
            [(dt.date(2026, 1, 2), "expense", Decimal("12.50"), "Coffee")],
        ),
    ],
    ids=["spaces-before-a-spent-amount", "spaces-before-a-paid-in-amount", "spaces-before-the-header"],
)
def test_qif_long_runs_of_spaces_are_read(text, expected):
    raw = text.encode()
    assert detect.detect(raw[: detect.HEAD_BYTES]) == detect.QIF
    assert _rows(raw, "qif") == expected


def test_qif_an_exponent_after_a_long_run_of_spaces_is_still_refused():
    raw = f"!Type:Bank\nD01/02/2026\nT{RUN}1e5\nPCoffee\n^\n".encode()
    with pytest.raises(ImportRejected) as caught:
        _rows(raw, "qif")
    assert caught.value.code == "INVALID_QIF"


OPENINGS = ":20:STMT\n" * 100_000
CLOSING = ":25:NL00BANK0123456789\n:28C:1\n:60F:C260101EUR100,00\n:62F:C260101EUR100,00\n"


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        # Many openings and no closing balance: the whole-statement check ran to the end again from every opening.
        (OPENINGS, True),
        (OPENINGS + CLOSING, False),
        (":20:STMT\n" + CLOSING, False),
        (CLOSING + ":20:STMT\n", True),
    ],
    ids=["openings-without-a-closing", "openings-then-a-closing", "one-whole-statement", "closing-before-opening"],
)
def test_mt940_without_a_transaction_is_refused_unless_a_whole_statement(text, refused):
    raw = text.encode()
    assert detect.detect(raw[: detect.HEAD_BYTES]) == detect.MT940
    if not refused:
        assert _rows(raw, "mt940") == []
        return
    with pytest.raises(ImportRejected) as caught:
        _rows(raw, "mt940")
    assert caught.value.code == "INVALID_MT940"


ROWS = [
    (dt.date(2026, 1, 2), "expense", Decimal("12.50"), "Coffee"),
    (dt.date(2026, 1, 3), "income", Decimal("1000.00"), "Salary"),
]


# Empty brackets are taken out of a header cell as units, leaving a run of spaces as long as the cell: the
# currency-after-the-name pattern started a scan of the whole run at every space of it.
@pytest.mark.parametrize(
    ("header", "refused"),
    [
        ("Date,Description,Amount,Note" + "()" * 60_000 + "!", None),
        # An amount column named so long is no name the mapping takes (as at a few hundred characters): refused.
        ("Date,Description,Amount" + "[]" * 60_000 + " in EUR", "MAPPING_INVALID"),
    ],
    ids=["a-note-of-empty-brackets", "an-amount-in-eur-after-empty-brackets"],
)
def test_csv_a_header_cell_of_many_empty_brackets_is_read_or_refused(header, refused):
    raw = f"{header}\n2026-01-02,Coffee,-12.50\n2026-01-03,Salary,1000.00\n".encode()
    if refused is None:
        assert _rows(raw, "csv") == ROWS
        return
    with pytest.raises(ImportRejected) as caught:
        _rows(raw, "csv")
    assert caught.value.code == refused


OFX = (
    "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM>"
    "<ACCTID>123</BANKACCTFROM><BANKTRANLIST><STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260102<TRNAMT>-12.50<FITID>1"
    "<NAME>Coffee</STMTTRN></BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n"
)


@pytest.mark.parametrize(
    "tail",
    [
        # Every `<` with no `>` after it ran the tag pattern to the end of the text.
        "<a" * 1_000_000,
        # The spaces after a `<` were shared out between the two `\s*` around a closing tag's `/`.
        "<" + " " * 300_000 + "!",
        "<" + " " * 300_000 + "!>",
    ],
    ids=["many-unclosed-tags", "spaces-after-an-unclosed-lt", "spaces-after-an-lt-before-a-gt"],
)
def test_ofx_trailing_unclosed_tags_leave_the_statement_read(tail):
    raw = (OFX + tail).encode()
    assert _rows(raw, "ofx") == [(dt.date(2026, 1, 2), "expense", Decimal("12.50"), "Coffee")]


def test_csv_header_cells_of_unclosed_brackets_are_read():
    # Every `(` no `)` follows made the unit pattern run to the end of the cell again.
    header = "Date,Description,Amount" + ("," + "Note" + "(" * 120_000) * 50
    raw = f"{header}\n2026-01-02,Coffee,-12.50\n2026-01-03,Salary,1000.00\n".encode()
    assert _rows(raw, "csv") == ROWS


@pytest.mark.parametrize(
    ("head", "kind"),
    [
        # Blank lines in the head: `^\s*` ran over the rest of the run from each of them. Bounded by the head's 8 KB,
        # so no hang before; the answer must stay the same.
        ("Date,Amount\n" + "\n" * 8_000 + "!", detect.CSV),
        ("Statement\n" + "\n \n" * 100 + ":20:STMT\n:25:NL00BANK0123456789\n", detect.MT940),
        ("Statement\n" + " \n" * 100 + "  :20:STMT\n\n\t:61:2601020102D12,50NTRFNONREF\n", detect.MT940),
    ],
    ids=["blank-lines-then-no-field", "blank-lines-then-fields", "indented-fields"],
)
def test_detect_blank_lines_before_mt940_fields(head, kind):
    assert detect.detect(head.encode()) == kind


def test_ofx_charset_after_blank_lines_still_names_the_encoding():
    raw = "OFXHEADER:100\n" + "\n" * 50 + "  CHARSET : 1252\n" + OFX.split("\n\n", 1)[1].replace("Coffee", "Café")
    assert _rows(raw.encode("cp1252"), "ofx") == [(dt.date(2026, 1, 2), "expense", Decimal("12.50"), "Café")]


def test_csv_a_text_of_many_payments_and_no_thanks_is_read_in_one_pass():
    """A card thanking its owner for a payment was one pattern with `.*` between its two words: a text of many
    `payment`s scanned the rest of itself from each of them, on every line the card's conventions looked at."""
    text = "payment " * 15_000
    lines = "".join(f"2026-01-{day:02d},{text},-12.50\n" for day in range(1, 29)) * 4
    rows = _rows(f"Date,Description,Amount\n{lines}".encode(), "csv")
    assert len(rows) == 112
    assert {(r[1], r[2]) for r in rows} == {("expense", Decimal("12.50"))}
