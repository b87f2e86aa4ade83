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


def imports_once_and_refuses_it_broken(api, name: str, raw: bytes, broken: bytes, *, count: int, code: str) -> None:
    """The file through the REST import as an upload (its `count` lines in), again as a raw body (all skipped as
    known), then `broken` refused with `code` and nothing more imported."""
    upload = SimpleUploadedFile(name, raw, content_type="text/plain")
    answer = api.post("/api/v1/transactions/import", {"file": upload}, format="multipart")
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"imported": count, "skipped": 0}
    again = api.post("/api/v1/transactions/import", raw, content_type="text/plain")
    assert again.json() == {"imported": 0, "skipped": count}
    refused = api.post("/api/v1/transactions/import", broken, content_type="application/octet-stream")
    assert assert_error(refused, 400)["code"] == code
    assert Transaction.objects.count() == count


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


def test_blank_lines_between_records_are_read_past():
    spaced = N43.replace("\r\n", "\r\n  \r\n")
    assert detect.detect(spaced.encode()) == detect.NORMA43
    assert table(spaced.encode()) == table(N43.encode())


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
    broken = N43.replace("00000000002399", "000000000023X9").encode()
    imports_once_and_refuses_it_broken(alice_api, "extracto.n43", N43.encode(), broken, count=2, code="INVALID_NORMA43")
    assert sorted(Transaction.objects.values_list("amount", "currency", "direction")) == [
        (Decimal("23.99"), "EUR", "expense"),
        (Decimal("1500.00"), "EUR", "income"),
    ]


def test_a_bank_standard_capture_is_plain_text():
    from assets.captures.files import sniff

    for raw in (N43.encode(), CODA_FILE.read_bytes(), CFONB_FILE.read_bytes()):
        assert sniff(io.BytesIO(raw), name="statement.txt", content_type="text/plain").media_type == "text/plain"


# CODA: pycoda's own test file, a globalisation (a batch booked as one amount) with one detail movement.
CODA_FILE = CORPUS / "tune/pycoda__Coda_v2_3_globalisation.txt"


def coda_with(change) -> bytes:
    """The CODA file with one record changed: `change(record)` for the record it returns other than as given."""
    return b"\n".join(change(record) for record in CODA_FILE.read_bytes().split(b"\n"))


def test_coda_is_detected_from_its_128_character_header():
    raw = CODA_FILE.read_bytes()
    assert detect.detect(raw[: detect.HEAD_BYTES]) == detect.CODA
    assert detect.detect((CORPUS / "heldout45/l10nbe__Ontvangen_CODA.2012-01-11-18.59.15.txt").read_bytes()) == "coda"
    header = raw.split(b"\r\n")[0]
    assert detect.detect(raw.replace(header, header[:127], 1)) == detect.CSV  # no CODA header: not taken for one


def test_coda_rows_are_the_entry_date_the_signed_amount_and_the_communication():
    rows = rows_of(CODA_FILE.read_bytes(), "VND")
    assert [(r.occurred_on, r.direction, r.amount, r.currency, r.description) for r in rows] == [
        (
            dt.date(2011, 11, 11),
            "income",
            Decimal("113135.00"),
            "EUR",
            "REDEVANCE JAN-NOV CONTRAT DE GESTION XXXXX-IN MARKET ZAVENTEM B",
        ),
        (
            dt.date(2011, 11, 11),
            "income",
            Decimal("113135.00"),
            "EUR",
            "REDEVANCE JAN-NOV CONTRAT DE GESTION XXXXXXXX WAVRE SPRL",
        ),
        (dt.date(2014, 12, 10), "income", Decimal("50000.00"), "EUR", "XXXX MARKET SA"),  # the detail is no row
        (dt.date(2014, 12, 10), "expense", Decimal("544.30"), "EUR", "+++670/3330/00000+++ 1214"),
    ]
    assert [r.external_id.split(":", 2)[2] for r in rows] == [
        "0001400000427:0",
        "0001400000428:0",
        "000140000042944007388:0",
        "0001400000430:0",
    ]


@pytest.mark.parametrize(
    "change",
    [
        lambda r: r[:100] if r.startswith(b"2100040000") else r,  # a movement cut short
        lambda r: r[:32] + b"00000000000X443" + r[47:] if r.startswith(b"2100040000") else r,  # a figure that is none
        lambda r: r[:115] + b"321214" + r[121:] if r.startswith(b"2100040000") else r,  # no such day
        lambda r: r[:127] + b"3" if r.startswith(b"0000") else r,  # a version the library does not read
        lambda r: b"2400040000" + r[10:] if r.startswith(b"2200040000") else r,  # no such record
    ],
    ids=["truncated", "amount", "date", "version", "record"],
)
def test_broken_coda_is_refused_as_a_whole(change):
    assert refused_code(coda_with(change)) == "INVALID_CODA"


@pytest.mark.django_db
def test_a_coda_file_imports_through_the_api(alice_api):
    broken = coda_with(lambda r: r[:100] if r.startswith(b"2100040000") else r)
    imports_once_and_refuses_it_broken(
        alice_api, "coda.cod", CODA_FILE.read_bytes(), broken, count=4, code="INVALID_CODA"
    )


# CFONB 120: a French bank's statements of several days, from silarhi/cfonb-parser's tests.
CFONB_FILE = CORPUS / "tune/cfonbparser__complex-test.txt"


def cfonb_with(change) -> bytes:
    return b"\n".join(change(record) for record in CFONB_FILE.read_bytes().split(b"\n"))


def test_cfonb120_is_detected_from_its_old_balance_record():
    raw = CFONB_FILE.read_bytes()
    assert detect.detect(raw) == detect.CFONB120
    assert detect.detect((CORPUS / "heldout45/l10nfr__test_cfonb.txt").read_bytes()) == detect.CFONB120
    assert detect.detect(raw.replace(b"0000000166956E", b"00000001669,56", 1)) == detect.CSV  # no signed amount


def test_cfonb120_rows_are_the_operation_date_the_signed_amount_and_the_label():
    rows = rows_of(CFONB_FILE.read_bytes(), "VND")
    assert [(r.occurred_on, r.direction, r.amount, r.currency, r.description) for r in rows] == [
        (dt.date(2020, 4, 7), "expense", Decimal("22.79"), "EUR", "PRLV SEPA ONLINE SAS DEDIBOX 3706114"),
        (dt.date(2020, 4, 8), "expense", Decimal("20.11"), "EUR", "PRLV SEPA FREE MOBILE"),
        (dt.date(2020, 4, 8), "expense", Decimal("5000.00"), "EUR", "VIR JOHNDOE / FOOBAR"),
        # booked 10 April, valued 1 April: the booking date is the row's
        (dt.date(2020, 4, 10), "expense", Decimal("117.75"), "EUR", "FACTURE SGT20022040001692 DONT TVA 11 39EUR"),
        (
            dt.date(2020, 4, 14),
            "expense",
            Decimal("50.25"),
            "EUR",
            "PRLV SEPA OVH SAS PAYMENT ORDER 124359169 ERS INF ORDER 124359169",
        ),
    ]
    ids = [r.external_id for r in rows]
    assert ids[3].endswith(":0001692:0")  # the numéro d'écriture where the bank writes one
    assert all(i.startswith("cfonb120:") for i in ids) and len(set(ids)) == 5


def test_cfonb120_amounts_take_the_decimals_the_record_names():
    yen = cfonb_with(lambda r: r.replace(b"EUR2", b"JPY0") if r.startswith(b"04") else r)
    assert [r[2:4] for r in table(yen)][:2] == [(Decimal("2279"), "JPY"), (Decimal("2011"), "JPY")]


@pytest.mark.parametrize(
    "change",
    [
        lambda r: r[:100] if r.startswith(b"0410278000") else r,  # a movement cut short
        lambda r: r.replace(b"0000000000050000}", b"00000000000500X0}") if r.startswith(b"04") else r,  # no figure
        lambda r: r.replace(b"0000000000050000}", b"0000000000050000Z") if r.startswith(b"04") else r,  # no sign
        lambda r: r.replace(b"06080420", b"06083220") if r.startswith(b"04") else r,  # no such day
        lambda r: b"09" + r[2:] if r.startswith(b"0510278085") else r,  # no such record
    ],
    ids=["truncated", "amount", "sign", "date", "record"],
)
def test_broken_cfonb120_is_refused_as_a_whole(change):
    assert refused_code(cfonb_with(change)) == "INVALID_CFONB120"


@pytest.mark.parametrize("path", [CODA_FILE, CFONB_FILE], ids=["coda", "cfonb120"])
def test_a_long_file_is_read_in_runs_with_the_same_rows(monkeypatch, path):
    whole = table(path.read_bytes())
    monkeypatch.setattr(records, "CHUNK_ENTRIES", 1)
    assert table(path.read_bytes()) == whole


@pytest.mark.django_db
def test_a_cfonb120_file_imports_through_the_api(alice_api):
    raw, broken = CFONB_FILE.read_bytes(), cfonb_with(lambda r: r[:100] if r.startswith(b"0410278000") else r)
    imports_once_and_refuses_it_broken(alice_api, "releve.cfo", raw, broken, count=5, code="INVALID_CFONB120")
    assert Transaction.objects.filter(currency="EUR", direction="expense").count() == 5


def test_a_cfonb120_foreign_amount_detail_leaves_the_movement_in_the_accounts_currency():
    # A card payment in dollars: its MMO detail names the original amount and currency (25.40 USD at 1.0870).
    mmo = b"MMO" + b"USD" + b"2" + b"00000000002540" + b"04" + b"00000010870" + b" " * 39
    raw = cfonb_with(lambda r: r[:45] + mmo + b"  " if r.startswith(b"0510556677202204EUR2 00012345603") else r)
    assert table(raw, "VND")[0][1:4] == ("expense", Decimal("22.79"), "EUR")


def test_a_run_holds_its_statements_header_and_at_most_chunk_entries(monkeypatch):
    monkeypatch.setattr(records, "CHUNK_ENTRIES", 2)
    lines = [b"H1", b"H2", *(b"E" + bytes([48 + i]) for i in range(5)), b"T", b"H1", b"H2", b"T"]
    got = list(records.runs(lines, opens=lambda r: r == b"H1", heads=2, starts=lambda r: r.startswith(b"E")))
    assert got == [
        [b"H1", b"H2", b"E0", b"E1"],
        [b"H1", b"H2", b"E2", b"E3"],
        [b"H1", b"H2", b"E4", b"T"],
        [b"H1", b"H2", b"T"],  # a statement with no entries is read (and checked) too
    ]


def test_cfonb120_detail_records_without_a_qualifier_are_left_out():
    # pennylane-hq/cfonb's example: blank lines between records, detail records (05) with a blank qualifier or
    # `N Y`, which the library refuses; the movements read, their texts from the detail records it can place.
    rows = table((CORPUS / "tune/cfonbgem__example.txt").read_bytes())
    assert rows[:2] == [
        (
            dt.date(2019, 5, 16),
            "expense",
            Decimal("32.21"),
            "EUR",
            "PRLV SEPA TEST CABINET MENSUEAUHTR13133 MENSUEAUHTR13DUP INTERNET SFR",
        ),
        (dt.date(2019, 5, 16), "expense", Decimal("10.70"), "EUR", "VIR SEPA DEMONSTRATION ELEC ERDF"),
    ]
    assert len(rows) == 6


def test_a_byte_order_mark_before_the_first_record_is_read_past():
    for raw in (N43.encode(), CODA_FILE.read_bytes(), CFONB_FILE.read_bytes()):
        assert table(b"\xef\xbb\xbf" + raw) == table(raw)
