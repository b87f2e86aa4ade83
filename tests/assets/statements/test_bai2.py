"""BAI2 (the Bank Administration Institute's balance reporting format), read by the `bai2` library: detection from
the file and group headers, one row per transaction detail (16), control totals checked, bad input refused."""

import datetime as dt
import io
from decimal import Decimal
from pathlib import Path

import pytest

from assets.statements import detect
from tests.assets.statements.test_bank_standards import imports_once_and_refuses_it_broken, refused_code, rows_of, table

CORPUS = Path(__file__).parent / "corpus"
HELDOUT = sorted((CORPUS / "heldout48").iterdir())

# Made up after the specification: a credit with a value date and its text in a continuation, a cheque paid twice
# under one bank reference, a zero line, a debit with no reference; the account record names USD and one balance.
DETAILS = [
    "16,165,150000,V,250302,,REF1,CUST1/",
    "88,PAYROLL MARCH",
    "16,475,2399,0,REF2,,CHECK 1234/",
    "16,475,2399,0,REF2,,CHECK 1234/",
    "16,195,0,Z,REF3,,NOTHING/",
    "16,699,500,,,/",
]


def bai2(details=tuple(DETAILS), *, account="03,12345,USD,010,100000,,/", group="02,RCV,SND,1,250303,,,2/") -> bytes:
    """A file with its trailers' control totals and record counts worked out, as a bank writes them."""
    total = sum(int(line.split(",")[2]) for line in details if line.startswith("16,"))
    total += sum(int(f) for f in account.split(",")[4::4] if f.lstrip("+-").isdigit())
    records = 2 + len(details)
    lines = ["01,SND,RCV,250303,0800,1,,,2/", group, account, *details]
    lines += [f"49,{total},{records}/", f"98,{total},1,{records + 2}/", f"99,{total},1,{records + 4}/"]
    return "\r\n".join(lines).encode() + b"\r\n"


def test_bai2_is_detected_from_its_file_and_group_headers():
    assert detect.detect(bai2()) == detect.BAI2
    assert detect.detect(bai2().replace(b"\r\n", b"\n")) == detect.BAI2
    for path in HELDOUT:
        assert detect.detect(path.read_bytes()[: detect.HEAD_BYTES]) == detect.BAI2, path.name
    # A CSV whose first column counts 01, 02 is no BAI2 file: its fourth cell is no YYMMDD date.
    assert detect.detect(b"01,apples,3,1.50\n02,pears,2,0.80\n") == detect.CSV
    assert detect.detect(bai2().split(b"\r\n", 1)[1]) == detect.CSV  # no file header first


def test_bai2_rows_are_the_details_dated_signed_and_with_their_text():
    assert table(bai2()) == [
        (dt.date(2025, 3, 2), "income", Decimal("1500.00"), "USD", "PAYROLL MARCH"),  # its value date
        (dt.date(2025, 3, 3), "expense", Decimal("23.99"), "USD", "CHECK 1234"),  # the group's as-of date
        (dt.date(2025, 3, 3), "expense", Decimal("23.99"), "USD", "CHECK 1234"),
        (dt.date(2025, 3, 3), "expense", Decimal("5.00"), "USD", ""),
    ]


def test_bai2_ids_are_the_bank_reference_and_its_occurrence_else_a_fingerprint():
    ids = [row.external_id for row in rows_of(bai2())]
    assert ids[0].startswith("bai2:") and ids[0].endswith(":REF1:0")
    assert ids[1].endswith(":REF2:0") and ids[2].endswith(":REF2:1")
    assert ids[3].startswith("bai2:") and "REF" not in ids[3]
    assert [row.external_id for row in rows_of(bai2())] == ids


def test_bai2_currency_is_the_accounts_else_the_groups_else_the_importers():
    unnamed = "03,12345,,010,100000,,/"
    assert {r.currency for r in rows_of(bai2(account=unnamed), "CAD")} == {"CAD"}
    yen = bai2(account=unnamed, group="02,RCV,SND,1,250303,,JPY,2/")
    assert table(yen)[0][1:4] == ("income", Decimal("150000"), "JPY")  # no minor unit: the figure is yen


def test_bais_own_sample_reads_split_summaries_and_empty_availability():
    # BAI's sample splits a summary's type code from its amount across a continuation (`190/`, `88,500000`) and
    # leaves a distributed availability's day empty (`S,,200000,300000`), which the library alone refuses.
    rows = table((CORPUS / "heldout48" / "moovbai2__sample2.txt").read_bytes(), "USD")
    assert [(r[0], r[2]) for r in rows] == [
        (dt.date(2004, 6, 20), Decimal("4500.00")),
        (dt.date(2004, 6, 20), Decimal("5000.00")),
        (dt.date(2004, 6, 22), Decimal("200000.00")),
        (dt.date(2004, 6, 20), Decimal("100000.00")),
    ]


def test_non_monetary_details_are_no_rows_and_a_balance_code_on_a_detail_is_a_bad_row():
    informative = bai2([*DETAILS, "16,890,700,,,/", "88,REMITTANCE ADVICE FOLLOWS"])
    assert len(rows_of(informative)) == 4
    (row,) = rows_of(bai2(["16,010,700,,,/"]))
    assert row.amount is None and "amount" in row.problems


@pytest.mark.parametrize(
    "broken",
    [
        bai2().replace(b"49,255298,8/", b"49,255297,8/"),  # the account's control total
        bai2().replace(b"49,255298,8/", b"49,255298,9/"),  # the account's record count
        bai2().replace(b"\r\n49,", b"\r\n02,RCV,SND,1,250303,,,2/\r\n49,"),  # an account left without its trailer
        bai2().replace(b"98,255298,1,10/", b"98,255299,1,10/"),  # the group's
        bai2().replace(b"99,255298,1,12/", b"99,255298,1,13/"),  # the file's record count
        bai2().replace(b"16,699,", b"16,999,"),  # a type code the library does not know
        bai2().replace(b"0800,1,,,2/", b"0800,1,,,3/"),  # not version 2
        bai2().replace(b"250302", b"250231"),  # no such date
        bai2().rsplit(b"99,", 1)[0],  # no file trailer
        bai2() + b"16,699,500,,,/\r\n",  # a record after the file trailer
        bai2().replace(b"\r\n98,", b"\r\n02,RCV,SND,1,250303,,,2/\r\n98,"),  # a group header inside a group
    ],
)
def test_broken_bai2_is_refused_as_a_whole(broken):
    assert refused_code(broken) == "INVALID_BAI2"


@pytest.mark.django_db
def test_a_bai2_file_imports_through_the_api(alice_api):
    broken = bai2().replace(b"49,255298,8/", b"49,1,8/")
    imports_once_and_refuses_it_broken(alice_api, "report.bai2", bai2(), broken, count=4, code="INVALID_BAI2")


def test_a_bai2_capture_is_plain_text():
    from assets.captures.files import sniff

    media = sniff(io.BytesIO(bai2()), name="report.bai2", content_type="text/plain").media_type
    assert media == "text/plain"
