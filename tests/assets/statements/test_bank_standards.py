"""The national fixed-width bank standards (AEB Norma 43, Belgian CODA, French CFONB 120), each read by its
library: detection from the first bytes, rows as every reader gives them, bad input refused as a whole."""

import datetime as dt
import io
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from assets.models import Transaction
from assets.statements import detect, records
from assets.statements.read import statement_rows
from tests.assets.helpers import assert_error
from zeus.errors import ValidationFailed

CORPUS = Path(__file__).parent / "corpus"


def rows_of(raw: bytes, currency: str = "EUR"):
    head = raw[: detect.HEAD_BYTES]
    rows, _ = statement_rows(io.BytesIO(raw), kind=detect.detect(head), head=head, currency=currency)
    return list(rows)


def table(raw: bytes, currency: str = "EUR"):
    return [(r.occurred_on, r.direction, r.amount, r.currency, r.description) for r in rows_of(raw, currency)]


def refused_code(raw: bytes) -> str:
    with pytest.raises(ValidationFailed) as caught:
        rows_of(raw)
    assert str(caught.value.message)
    return caught.value.code


# Norma 43: an account record (11) and its movements (22) with their texts (23), made up after the standard.
N43_ACCOUNT = "11" + "0182" + "7013" + "0201234567" + "250301" + "250331" + "2" + "00000000100000" + "978" + "3"
N43_CLOSING = "33" + "0182" + "7013" + "0201234567" + "00001" + "00000000002399" + "00001" + "00000000150000"
N43_CLOSING += "2" + "00000000247601" + "978"
N43 = (
    f"{N43_ACCOUNT:<80}\r\n"
    + f"{'22' + '    ' + '7013' + '250303' + '250305' + '12' + '408' + '1' + '00000000002399' + '0' * 22:<80}\r\n"
    + f"{'2301' + 'COMPRA TARJETA 1234 SUPERMERCADO CEN' + 'TRO MADRID':<80}\r\n"
    + f"{'22' + '    ' + '7013' + '250310' + '250310' + '04' + '007' + '2' + '00000000150000' + '0' * 22:<80}\r\n"
    + f"{'2301' + 'NOMINA MARZO':<80}\r\n"
    + f"{N43_CLOSING:<80}\r\n"
    + f"{'88' + '9' * 18 + '000006':<80}\r\n"
)


def test_norma43_is_detected_from_its_account_record_and_its_first_movement():
    assert detect.detect(N43.encode()) == detect.NORMA43
    assert detect.detect(N43.replace("\r\n", "\n").encode()) == detect.NORMA43
    for name in ("tune/norma43parser__example1.n43", "heldout44/norma43utils__movements.n43"):
        assert detect.detect((CORPUS / name).read_bytes()[: detect.HEAD_BYTES]) == detect.NORMA43
    # Digits alone are no account record: a CSV of numbers stays a CSV.
    assert detect.detect(b"11,22,33\n22,33,44\n") == detect.CSV
    assert detect.detect(N43.encode()[80:]) == detect.CSV  # no account record first


def test_norma43_rows_are_the_booking_date_the_signed_amount_and_the_text():
    assert table(N43.encode()) == [
        (dt.date(2025, 3, 3), "expense", Decimal("23.99"), "EUR", "COMPRA TARJETA 1234 SUPERMERCADO CENTRO MADRID"),
        (dt.date(2025, 3, 10), "income", Decimal("1500.00"), "EUR", "NOMINA MARZO"),
    ]


def test_norma43_rows_of_a_real_download():
    assert table((CORPUS / "tune/norma43parser__example2.n43").read_bytes())[:2] == [
        (dt.date(2025, 3, 17), "income", Decimal("97.26"), "EUR", "MARIA NARANJO ENFLOR A48555633617 01826874"),
        (dt.date(2025, 3, 17), "income", Decimal("74.33"), "EUR", "LAURA MARTINEZ PEREZ 01822011"),
    ]


def test_norma43_currency_is_the_files_iso_numeric_code():
    dollars = N43.replace(N43_ACCOUNT, N43_ACCOUNT.replace("978", "840"))
    assert {r[3] for r in table(dollars.encode(), "VND")} == {"USD"}
    yen = N43.replace(N43_ACCOUNT, N43_ACCOUNT.replace("978", "392"))
    assert [r[2] for r in table(yen.encode())] == [Decimal("24"), Decimal("1500")]  # quantized to the yen's 0


def test_norma43_equal_movements_keep_apart_and_read_again_the_same():
    lines = N43.split("\r\n")
    twice = "\r\n".join(lines[:3] + lines[1:])
    first, again = rows_of(twice.encode()), rows_of(twice.encode())
    ids = [r.external_id for r in first]
    assert len(set(ids)) == 3 and ids == [r.external_id for r in again]
    assert all(i.startswith("norma43:") for i in ids)


@pytest.mark.parametrize(
    "broken",
    [
        lambda t: t.replace("00000000002399", "000000000023X9"),  # a figure that is none
        lambda t: t.replace("00000000002399" + "0" * 22, "000000"),  # a movement cut short
        lambda t: t.replace("NOMINA MARZO" + " " * 64, "NOMINA MARZO" + " " * 64 + "ABCD"),  # 84 characters
        lambda t: t.replace("250303250305", "250333250305"),  # no such day
        lambda t: t.replace("978", "000", 1),  # no such currency
    ],
    ids=["amount", "truncated", "length", "date", "currency"],
)
def test_broken_norma43_is_refused_as_a_whole(broken):
    assert refused_code(broken(N43).encode()) == "INVALID_NORMA43"


def test_a_long_norma43_file_is_read_in_runs_with_the_same_rows(monkeypatch):
    lines = N43.split("\r\n")
    many = "\r\n".join(lines[:1] + lines[1:5] * 5 + lines[5:])
    whole = table(many.encode())
    monkeypatch.setattr(records, "CHUNK_ENTRIES", 3)
    assert table(many.encode()) == whole
    assert len(whole) == 10


@pytest.mark.django_db
def test_a_norma43_file_imports_through_the_api(alice_api):
    upload = SimpleUploadedFile("extracto.n43", N43.encode(), content_type="text/plain")
    answer = alice_api.post("/api/v1/transactions/import", {"file": upload}, format="multipart")
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"imported": 2, "skipped": 0}
    assert sorted(Transaction.objects.values_list("amount", "currency", "direction")) == [
        (Decimal("23.99"), "EUR", "expense"),
        (Decimal("1500.00"), "EUR", "income"),
    ]
    broken = N43.replace("00000000002399", "000000000023X9").encode()
    refused = alice_api.post("/api/v1/transactions/import", broken, content_type="application/octet-stream")
    assert assert_error(refused, 400)["code"] == "INVALID_NORMA43"
    assert Transaction.objects.count() == 2
