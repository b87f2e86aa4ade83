"""Statement files a red team crafted: each a 400 with a code (or a correct import), nothing half written,
no figure misread. The amounts are bounded where every parser hands them over (`signed_amount`), the
mapping where every caller hands it over (`check_mapping`)."""

import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from assets.models import ImportMapping, Transaction

FIXTURES = Path(__file__).resolve().parents[1] / "assets" / "feeds" / "fixtures"
MAPPING = {"date": "Ngày giao dịch", "description": "Nội dung", "debit": "Ghi nợ", "credit": "Ghi có"}


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def upload(api, content: bytes, name: str = "statement", mapping=None):
    data = {"file": SimpleUploadedFile(name, content, content_type="application/octet-stream")}
    if mapping is not None:
        data["mapping"] = mapping if isinstance(mapping, str) else json.dumps(mapping)
    return api.post("/api/v1/transactions/import", data, format="multipart")


def refused(response, *codes):
    assert response.status_code == 400, response.content[:300]
    if codes:
        assert response.json()["error"]["code"] in codes, response.content[:300]
    assert not Transaction.objects.exists()


CAMT_AMOUNTS = ("1E+30", "NaN", "9" * 40, "-Infinity", "sNaN", "1e-30", "1" + "0" * 20)


@pytest.mark.django_db
@pytest.mark.parametrize("amount", CAMT_AMOUNTS)
def test_a_camt_amount_out_of_any_column_is_a_400(alice_api, amount):
    text = fixture("statement.camt053.xml").replace(b">1250.00<", f">{amount}<".encode())
    refused(upload(alice_api, text, "s.xml"))


@pytest.mark.django_db
@pytest.mark.parametrize("amount", ("1E+30", "NaN", "9" * 40, "-1E+30"))
def test_an_ofx_amount_out_of_any_column_is_a_400(alice_api, amount):
    text = fixture("vcb.ofx").replace(b"<TRNAMT>-150000.00", f"<TRNAMT>{amount}".encode())
    refused(upload(alice_api, text, "s.ofx"))


@pytest.mark.django_db
@pytest.mark.parametrize("amount", ("-1E+30", "1E+30", "NaN", "9" * 40, "-1e5"))
def test_a_qif_amount_is_read_as_written_or_refused(alice_api, amount):
    text = fixture("wallet.qif").replace(b"T-45,000.00", f"T{amount}".encode(), 1)
    refused(upload(alice_api, text, "s.qif"))


# A Russian 1C client-bank exchange file of one outgoing document (tests/assets/statements/test_onec.py).
ONEC = (
    "1CClientBankExchange\r\nКодировка=Windows\r\nРасчСчет=40702810900000000001\r\n"
    "СекцияДокумент=Платежное поручение\r\nНомер=1\r\nДата=02.03.2026\r\nСумма=1500.00\r\n"
    "ПлательщикСчет=40702810900000000001\r\nПолучательСчет=40702810500000000777\r\nКонецДокумента\r\nКонецФайла\r\n"
).encode("cp1251")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "broken",
    (
        *(ONEC.replace(b"=1500.00", f"={amount}".encode()) for amount in ("1E+30", "NaN", "9" * 40, "-1500.00")),
        ONEC.replace(b"=02.03.2026", b"=31.02.2026"),
        ONEC.replace(b"=1\r\n", b"=1\x00\r\n"),
        ONEC[: ONEC.index("КонецФайла".encode("cp1251"))],
        ONEC.replace("КонецДокумента\r\n".encode("cp1251"), b""),
        ONEC + b"\xff" * 70_000,
    ),
    ids=("exponent", "nan", "forty-nines", "negative", "date", "nul", "truncated", "no-end-of-document", "long-line"),
)
def test_a_broken_1c_file_is_a_400_and_imports_nothing(alice_api, broken):
    assert upload(alice_api, ONEC, "kl_to_1c.txt").json() == {"imported": 1, "skipped": 0}
    Transaction.objects.all().delete()
    refused(upload(alice_api, broken, "kl_to_1c.txt"), "INVALID_1C")


@pytest.mark.django_db
def test_a_nul_in_an_ofx_id_is_a_400(alice_api):
    text = fixture("vcb.ofx").replace(b"<FITID>FT26306001", b"<FITID>FT2630\x006001")
    refused(upload(alice_api, text, "s.ofx"))


@pytest.mark.django_db
def test_a_nul_in_a_csv_external_id_is_a_400(alice_api):
    csv = b"date,description,amount,direction,category,external_id\n2026-11-02,x,1000,expense,dining,a\x00b\n"
    refused(upload(alice_api, csv, "s.csv"))


@pytest.mark.django_db
@pytest.mark.parametrize("amount", ("$12.50", "12.50 EUR", "USD 12.50", "€12.50", "12.50 usd"))
def test_a_csv_amount_in_another_currency_is_refused_not_rounded(alice_api, amount):
    csv = f"date,description,amount,direction,category,external_id\n2026-11-02,x,{amount},expense,dining,a\n"
    response = upload(alice_api, csv.encode(), "s.csv")
    refused(response)
    assert "amount" in json.dumps(response.json()["error"]["fields"])


@pytest.mark.django_db
def test_a_csv_amount_in_the_ledgers_own_currency_still_imports(alice_api):
    csv = "date,description,amount,direction,category,external_id\n2026-11-02,x,12.000 VND,expense,dining,a\n"
    assert upload(alice_api, csv.encode(), "s.csv").status_code == 200
    assert Transaction.objects.get().amount == 12000


@pytest.mark.django_db
@pytest.mark.parametrize(
    "mapping",
    (
        "[" * 5000,
        '{"date": ' * 5000,
        {**MAPPING, "date_format": "%Y" * 10000},
        {**MAPPING, "date_format": "DD" * 5000},
        {**MAPPING, "date_format": "%d/%m/%Y\x00"},
        {**MAPPING, "description": "x" * 100_000},
        {**MAPPING, "date": ["Ngày giao dịch"]},
        "NaN",
        '{"\\ud800": null}',
    ),
)
def test_a_hostile_mapping_is_a_400(alice_api, mapping):
    refused(upload(alice_api, fixture("techcombank.csv"), "s.csv", mapping), "MAPPING_INVALID")
    assert not ImportMapping.objects.exists()


@pytest.mark.django_db
def test_a_nul_in_an_unused_header_column_answers_after_the_commit_it_reports(alice_api):
    text = fixture("techcombank.csv").decode().replace('"Số dư"', '"Số\x00dư"', 1).encode()
    first = upload(alice_api, text, "s.csv", MAPPING)
    assert first.status_code in (200, 400), first.content[:300]
    if first.status_code == 200:
        assert first.json()["imported"] == Transaction.objects.count() > 0
        assert ImportMapping.objects.count() == 1
        again = upload(alice_api, text, "s.csv", MAPPING)
        assert again.status_code == 200 and again.json()["imported"] == 0
    else:
        assert not Transaction.objects.exists() and not ImportMapping.objects.exists()
