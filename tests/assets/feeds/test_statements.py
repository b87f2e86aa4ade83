import io
import json
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.utils import translation

from assets.importing import transactions_import
from assets.models import ImportMapping, Transaction
from assets.rules.services import rule_create
from assets.statements import detect
from tests import factories
from tests.assets.helpers import assert_error
from zeus.errors import NotFound, ValidationFailed

FIXTURES = Path(__file__).parent / "fixtures"
BANK_MAPPING = {
    "date": "Ngày giao dịch",
    "description": "Nội dung",
    "debit": "Ghi nợ",
    "credit": "Ghi có",
    "external_id": "Số tham chiếu",
    "date_format": "DD/MM/YYYY",
}


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def run(user, data: bytes, **kwargs):
    return transactions_import(user=user, source=io.BytesIO(data), **kwargs)


def rows(user):
    return list(
        Transaction.objects.filter(user=user)
        .order_by("occurred_on", "id")
        .values_list("occurred_on", "direction", "amount", "currency", "description", "category")
    )


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("vcb.ofx", detect.OFX),
        ("card.qfx", detect.OFX),
        ("wallet.qif", detect.QIF),
        ("statement.camt053.xml", detect.CAMT053),
        ("techcombank.csv", detect.CSV),
    ],
)
def test_the_format_is_recognised_from_content(name, kind):
    assert detect.detect(fixture(name)[: detect.HEAD_BYTES]) == kind


@pytest.mark.django_db
def test_an_ofx_statement_imports_keyed_by_fitid(alice):
    rule_create(user=alice, match="kfc", category="gifts")
    result = run(alice, fixture("vcb.ofx"))
    assert (result.imported, result.skipped, result.format) == (3, 0, "ofx")
    got = rows(alice)
    assert [(r[0].isoformat(), r[1], r[2]) for r in got] == [
        ("2026-11-02", "expense", Decimal("150000")),
        ("2026-11-05", "income", Decimal("25000000")),
        ("2026-11-10", "expense", Decimal("260000")),
    ]
    assert [r[5] for r in got] == ["gifts", "salary", "subscriptions"]
    assert got[0][4] == "KFC NGUYEN HUE Thanh toan the"
    assert all(
        t.startswith("ofx:") and t.endswith(("FT26306001", "FT26309002", "FT26314003"))
        for t in Transaction.objects.values_list("external_id", flat=True)
    )
    assert run(alice, fixture("vcb.ofx")).imported == 0
    assert Transaction.objects.filter(user=alice, source="synced").count() == 3


@pytest.mark.django_db
def test_a_qfx_card_statement_keeps_its_currency(alice):
    assert run(alice, fixture("card.qfx")).imported == 2
    assert [(r[1], r[2], r[3]) for r in rows(alice)] == [
        ("expense", Decimal("12.50"), "USD"),
        ("income", Decimal("40.00"), "USD"),
    ]


@pytest.mark.django_db
def test_a_qif_statement_imports_by_fingerprint_and_keeps_identical_rows(alice):
    result = run(alice, fixture("wallet.qif"))
    assert (result.imported, result.format) == (4, "qif")
    got = rows(alice)
    assert [r[0].isoformat() for r in got] == ["2026-11-28", "2026-11-29", "2026-11-30", "2026-11-30"]
    assert got[0][4] == "Highlands Coffee Ca phe sua" and got[0][5] == "dining"
    assert {r[5] for r in got if r[1] == "expense"} == {"dining", "groceries"}
    again = run(alice, fixture("wallet.qif"))
    assert (again.imported, again.skipped) == (0, 4)


@pytest.mark.django_db
def test_a_camt053_statement_imports_booked_entries(alice):
    result = run(alice, fixture("statement.camt053.xml"))
    assert (result.imported, result.format) == (2, "camt053")
    got = rows(alice)
    assert [(r[1], r[2], r[3]) for r in got] == [
        ("income", Decimal("1250.00"), "EUR"),
        ("expense", Decimal("54.90"), "EUR"),
    ]
    assert got[0][4] == "Muster GmbH Gehalt November"
    assert run(alice, fixture("statement.camt053.xml")).imported == 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"OFXHEADER:100\n<OFX><BANKMSGSRSV1><STMTTRNRS>broken", "INVALID_OFX"),
        (b"!Type:Bank\nDnot a date\nTabc\n^\n", "INVALID_QIF"),
        (
            b'<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>',
            "INVALID_CAMT053",
        ),
        (
            b'<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"></Document>',
            "INVALID_CAMT053",
        ),
    ],
)
def test_a_malformed_statement_is_refused_whole(alice, data, code):
    with pytest.raises(ValidationFailed) as caught:
        run(alice, data)
    assert caught.value.code == code
    assert not Transaction.objects.exists()


@pytest.mark.django_db
def test_a_camt_entity_is_not_expanded(alice):
    bomb = (
        b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        b'<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><Stmt><Ntry>'
        b'<Amt Ccy="EUR">1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>2026-11-01</Dt></BookgDt>'
        b"<AddtlNtryInf>&x;</AddtlNtryInf></Ntry></Stmt></BkToCstmrStmt></Document>"
    )
    try:
        run(alice, bomb)
    except ValidationFailed:
        pass
    assert "root:" not in "".join(Transaction.objects.values_list("description", flat=True))


@pytest.mark.django_db
def test_a_bad_entry_rejects_the_statement_naming_it(alice):
    data = fixture("statement.camt053.xml").replace(b'<Amt Ccy="EUR">54.90</Amt>', b'<Amt Ccy="EUR">-x</Amt>')
    with pytest.raises(ValidationFailed) as caught:
        run(alice, data)
    assert caught.value.code == "INVALID_CAMT053"
    assert list(caught.value.fields["rows"]) == ["entry 2"]
    assert not Transaction.objects.exists()


@pytest.mark.django_db
def test_a_vietnamese_bank_header_maps_itself(alice):
    result = run(alice, fixture("techcombank.csv"))
    assert (result.imported, result.skipped) == (3, 0)
    got = rows(alice)
    assert [(r[0].isoformat(), r[1], r[2], r[5]) for r in got] == [
        ("2026-11-02", "expense", Decimal("150000"), "dining"),
        ("2026-11-05", "income", Decimal("25000000"), "salary"),
        ("2026-11-10", "expense", Decimal("62000"), "transport"),
    ]
    assert run(alice, fixture("techcombank.csv")).imported == 0
    assert not ImportMapping.objects.exists()


# Unknown words over two date columns that differ (booked, made): which is the booking only its owner knows.
OWN_HEADER = b"Cot A,Cot X,Cot B,Cot C\n02/11/2026,01/11/2026,KFC,-150000\n05/11/2026,05/11/2026,Luong,25000000\n"
OWN_MAPPING = {"date": "Cot A", "description": "Cot B", "amount": "Cot C", "date_format": "DD/MM/YYYY"}


@pytest.mark.django_db
def test_a_bank_csv_needs_a_mapping_then_remembers_it(alice):
    with pytest.raises(ValidationFailed) as caught:
        run(alice, OWN_HEADER)
    assert caught.value.code == "CSV_BAD_HEADER"
    assert caught.value.fields["header"][0] == "Cot A"
    assert "XLSX" in caught.value.message  # the error names the formats Zeus reads
    result = run(alice, OWN_HEADER, mapping=OWN_MAPPING)
    assert (result.imported, result.skipped) == (2, 0)
    assert [(r[0].isoformat(), r[1], r[2]) for r in rows(alice)] == [
        ("2026-11-02", "expense", Decimal("150000")),
        ("2026-11-05", "income", Decimal("25000000")),
    ]
    assert ImportMapping.objects.filter(user=alice).count() == 1
    # Next month's export from the same bank: no mapping sent, the remembered one applies.
    assert run(alice, OWN_HEADER + b"12/11/2026,11/11/2026,Circle K,-30000\n").imported == 1


@pytest.mark.django_db
def test_a_bank_csv_whose_cells_say_each_columns_role_needs_no_mapping(alice):
    data = b"Cot A,Cot B,Cot C\n02/11/2026,KFC,-150000\n05/11/2026,Luong,25000000\n"
    assert run(alice, data).imported == 2
    assert [(r[0].isoformat(), r[1], r[2]) for r in rows(alice)] == [
        ("2026-11-02", "expense", Decimal("150000")),
        ("2026-11-05", "income", Decimal("25000000")),
    ]
    assert not ImportMapping.objects.exists()  # read from the cells each time, never remembered as the user's


@pytest.mark.django_db
def test_a_remembered_mapping_is_the_users_own(alice, bob):
    run(alice, OWN_HEADER, mapping=OWN_MAPPING)
    with pytest.raises(ValidationFailed):
        run(bob, OWN_HEADER)


@pytest.mark.django_db
def test_a_signed_amount_column_and_a_direction_column(alice):
    data = b"Date,Memo,Amount\n2026-11-01,Coffee,-45000\n2026-11-02,Refund,12000\n"
    assert run(alice, data, mapping={"date": "date", "description": "memo", "amount": "AMOUNT"}).imported == 2
    assert [r[1] for r in rows(alice)] == ["expense", "income"]
    data = b"Ngay,ND,So tien,Loai\n01/11/2026,A,45000,Chi\n02/11/2026,B,12000,Thu\n"
    mapping = {"date": "Ngay", "description": "ND", "amount": "So tien", "direction": "Loai", "date_format": "%d/%m/%Y"}
    assert run(bob := factories.user("carol"), data, mapping=mapping).imported == 2
    assert [r[1] for r in rows(bob)] == ["expense", "income"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("mapping", "field"),
    [
        ({"date": "Ngày giao dịch", "description": "Nội dung"}, "amount"),
        ({"description": "Nội dung", "debit": "Ghi nợ"}, "date"),
        ({"date": "Ngày giao dịch", "amount": "Tiền"}, "amount"),
        ({"date": "Ngày giao dịch", "amount": "Ghi nợ", "credit": "Ghi có"}, "amount"),
    ],
)
def test_a_mapping_that_leaves_out_what_is_needed_is_refused(alice, mapping, field):
    with pytest.raises(ValidationFailed) as caught:
        run(alice, fixture("techcombank.csv"), mapping=mapping)
    assert caught.value.code == "MAPPING_INVALID" and field in caught.value.fields["mapping"]
    assert not Transaction.objects.exists() and not ImportMapping.objects.exists()


@pytest.mark.django_db
def test_a_mapped_row_with_a_bad_date_rejects_the_file(alice):
    data = fixture("techcombank.csv").replace(b"05/11/2026", b"2026-11-05")
    with pytest.raises(ValidationFailed) as caught:
        run(alice, data, mapping=BANK_MAPPING)
    assert list(caught.value.fields["rows"]) == ["3"] and "date" in caught.value.fields["rows"]["3"]
    assert not Transaction.objects.exists() and not ImportMapping.objects.exists()


@pytest.mark.django_db
def test_rows_can_be_filed_under_an_asset(alice, bob):
    wallet = factories.asset(alice, name="Wallet")
    assert run(alice, fixture("wallet.qif"), asset_id=wallet.id).imported == 4
    assert set(Transaction.objects.values_list("asset_id", flat=True)) == {wallet.id}
    with pytest.raises(NotFound):
        run(bob, fixture("wallet.qif"), asset_id=wallet.id)


@pytest.mark.django_db
def test_a_large_file_is_inserted_in_batches(alice, django_assert_max_num_queries):
    lines = ["date,description,amount,direction,category,external_id"]
    lines += [f"2026-11-{1 + i % 28:02d},Row {i},{1000 + i},expense,,id-{i}" for i in range(5_000)]
    # 25, and the import's batch: its row and its counts (docs/ledger.md).
    with django_assert_max_num_queries(27):
        result = run(alice, ("\n".join(lines) + "\n").encode())
    assert result.imported == 5_000


# REST and the command


@pytest.mark.django_db
def test_each_format_imports_over_rest(alice_api, alice):
    for name, count in (("vcb.ofx", 3), ("card.qfx", 2), ("wallet.qif", 4), ("statement.camt053.xml", 2)):
        upload = SimpleUploadedFile(name, fixture(name), content_type="application/octet-stream")
        response = alice_api.post("/api/v1/transactions/import", {"file": upload}, format="multipart")
        assert response.status_code == 200, response.content
        assert response.json() == {"imported": count, "skipped": 0}
    raw = alice_api.post("/api/v1/transactions/import", fixture("vcb.ofx"), content_type="application/x-ofx")
    assert raw.json() == {"imported": 0, "skipped": 3}


@pytest.mark.django_db
def test_a_bank_csv_with_its_mapping_over_rest(alice_api):
    upload = SimpleUploadedFile("own.csv", OWN_HEADER, content_type="text/csv")
    asked = alice_api.post("/api/v1/transactions/import", {"file": upload}, format="multipart")
    assert_error(asked, 400, "CSV_BAD_HEADER")
    upload.seek(0)
    done = alice_api.post(
        "/api/v1/transactions/import", {"file": upload, "mapping": json.dumps(OWN_MAPPING)}, format="multipart"
    )
    assert done.json() == {"imported": 2, "skipped": 0}
    upload.seek(0)
    bad = alice_api.post("/api/v1/transactions/import", {"file": upload, "mapping": "{"}, format="multipart")
    assert_error(bad, 400, "MAPPING_INVALID")


@pytest.mark.django_db
def test_the_command_takes_any_format(alice, capsys):
    call_command("import_transactions", str(FIXTURES / "statement.camt053.xml"), "--user", "alice")
    assert "Imported 2, skipped 0 already known (camt053)" in capsys.readouterr().out
    call_command(
        "import_transactions",
        str(FIXTURES / "techcombank.csv"),
        "--user",
        "alice",
        "--mapping",
        json.dumps(BANK_MAPPING),
    )
    assert Transaction.objects.filter(user=alice).count() == 5


@pytest.mark.django_db
def test_a_currency_column_names_each_rows_currency_from_the_whole_iso_list(alice):
    data = (
        b"Date,Memo,Amount,Cur\n"
        b"2026-11-01,Vientiane,-125000.5,lak\n2026-11-02,Lunch,-12.3456,USD\n2026-11-03,Pho,-45000,\n"
    )
    mapping = {"date": "Date", "description": "Memo", "amount": "Amount", "currency": "Cur"}
    assert run(alice, data, mapping=mapping).imported == 3
    got = {t.description: (t.currency, t.amount) for t in Transaction.objects.filter(user=alice)}
    assert got == {
        "Vientiane": ("LAK", Decimal("125000.50")),  # ISO gives the kip two decimals, CLDR none
        "Lunch": ("USD", Decimal("12.35")),
        "Pho": ("VND", Decimal("45000")),  # a blank cell: the ledger's currency
    }


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("code", "says"), [("ZZZ", "not an ISO 4217"), ("XAU", "not an ISO 4217"), ("XDR", "not an ISO 4217")]
)
def test_a_currency_column_naming_no_currency_the_ledger_keeps_rejects_the_file(alice, code, says):
    data = b"Date,Memo,Amount,Cur\n2026-11-01,A,-10,USD\n2026-11-02,B,-10," + code.encode() + b"\n"
    mapping = {"date": "Date", "description": "Memo", "amount": "Amount", "currency": "Cur"}
    # The services speak the active language (Vietnamese when none is): asked in English here.
    with pytest.raises(ValidationFailed) as caught, translation.override("en"):
        run(alice, data, mapping=mapping)
    assert says in json.dumps(caught.value.fields, ensure_ascii=False) + caught.value.message
    assert not Transaction.objects.filter(user=alice).exists()
