from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from assets import importing
from assets.importing import ImportResult, transactions_import_csv
from assets.models import Source, Transaction
from tests import factories
from tests.assets.helpers import assert_error
from tests.race import at_once
from zeus.errors import Conflict, ValidationFailed

HEADER = "date,description,amount,direction,category,external_id\n"
GOOD = (
    HEADER
    + "2026-11-01,Salary,25tr,income,salary,bank-1\n"
    + '2026-11-02,"Coffee, with friends",45.000,expense,dining,bank-2\n'
    + "2026-11-03,Rent,8000000,expense,housing,bank-3\n"
)


def _rows(n: int, *, start: int = 0) -> str:
    return HEADER + "".join(
        f"2026-11-{1 + i % 28:02d},Row {i},{1000 + i},expense,dining,ext-{i}\n" for i in range(start, n)
    )


@pytest.mark.django_db
def test_it_imports_rows_as_synced_in_the_users_currency(alice):
    assert transactions_import_csv(user=alice, text=GOOD) == ImportResult(imported=3, skipped=0)
    rows = {t.external_id: t for t in Transaction.objects.filter(user=alice)}
    assert set(rows) == {"bank-1", "bank-2", "bank-3"}
    assert all(t.source == Source.SYNCED and t.currency == "VND" and not t.editable for t in rows.values())
    assert rows["bank-1"].amount == Decimal("25000000")
    assert rows["bank-1"].direction == "income"
    assert rows["bank-2"].amount == Decimal("45000")
    assert rows["bank-2"].description == "Coffee, with friends"


@pytest.mark.django_db
def test_a_reimport_skips_known_external_ids(alice):
    transactions_import_csv(user=alice, text=GOOD)
    more = GOOD + "2026-11-04,Taxi,90k,expense,transport,bank-4\n"
    assert transactions_import_csv(user=alice, text=more) == ImportResult(imported=1, skipped=3)
    assert Transaction.objects.filter(user=alice).count() == 4


@pytest.mark.django_db
def test_a_repeated_external_id_within_the_file_is_skipped(alice):
    text = GOOD + "2026-11-05,Again,1k,expense,dining,bank-2\n"
    assert transactions_import_csv(user=alice, text=text) == ImportResult(imported=3, skipped=1)
    assert Transaction.objects.get(external_id="bank-2").description == "Coffee, with friends"


@pytest.mark.django_db
def test_external_ids_are_per_user(alice, bob):
    transactions_import_csv(user=bob, text=GOOD)
    assert transactions_import_csv(user=alice, text=GOOD).imported == 3


@pytest.mark.django_db
def test_blank_direction_and_category_take_defaults_and_blank_lines_are_ignored(alice):
    text = HEADER + "2026-11-01,Thing,5k,,,a\n\n2026-11-02,Pay,5k,income,,b\n"
    assert transactions_import_csv(user=alice, text=text).imported == 2
    assert Transaction.objects.get(external_id="a").category == "other"
    assert Transaction.objects.get(external_id="b").category == "other_income"


@pytest.mark.django_db
def test_any_bad_row_rejects_the_file_naming_each_bad_line(alice):
    text = (
        HEADER
        + "2026-11-01,Fine,5k,expense,dining,ok-1\n"
        + "2026-11-31,Bad date,5k,expense,dining,bad-1\n"
        + "2026-11-02,Bad amount,lots,expense,dining,bad-2\n"
        + "2026-11-02,Bad category,5k,expense,casino,bad-3\n"
        + "2026-11-02,Wrong kind,5k,income,dining,bad-4\n"
        + "2026-11-02,No id,5k,expense,dining,\n"
        + "2026-11-02,Short row,5k\n"
        + "2026-11-02,Bad direction,5k,sideways,dining,bad-5\n"
    )
    with pytest.raises(ValidationFailed) as caught:
        transactions_import_csv(user=alice, text=text)
    rows = caught.value.fields["rows"]
    assert set(rows) == {"3", "4", "5", "6", "7", "8", "9"}
    assert "date" in rows["3"]
    assert "amount" in rows["4"]
    assert "category" in rows["5"] and "category" in rows["6"]
    assert "external_id" in rows["7"]
    assert "row" in rows["8"]
    assert "direction" in rows["9"]
    assert not Transaction.objects.exists()


@pytest.mark.django_db
def test_line_numbers_count_quoted_newlines(alice):
    text = HEADER + '2026-11-01,"two\nlines",5k,expense,dining,a\n2026-11-01,x,zero,expense,dining,b\n'
    with pytest.raises(ValidationFailed) as caught:
        transactions_import_csv(user=alice, text=text)
    assert list(caught.value.fields["rows"]) == ["4"]


@pytest.mark.django_db
def test_a_report_of_many_bad_rows_is_capped(alice):
    text = HEADER + "".join(f"2026-11-01,x,bad,expense,dining,e{i}\n" for i in range(150))
    with pytest.raises(ValidationFailed) as caught, translation.override("en"):
        transactions_import_csv(user=alice, text=text)
    assert len(caught.value.fields["rows"]) == importing.MAX_REPORTED_ROWS
    assert caught.value.message == "150 rows could not be read, so nothing was imported. The first 100 are listed."
    with pytest.raises(ValidationFailed) as caught, translation.override("vi"):
        transactions_import_csv(user=alice, text=text)
    assert caught.value.message == "Không đọc được 150 dòng, nên chưa nhập gì. 100 dòng đầu được liệt kê."


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "CSV_EMPTY"),
        ("  \n\n", "CSV_EMPTY"),
        ("date,amount\n2026-11-01,5k\n", "CSV_BAD_HEADER"),
        ("2026-11-01,x,5k,expense,dining,a\n", "CSV_BAD_HEADER"),
        (HEADER + '2026-11-01,"unterminated,5k,expense,dining,a\n', "INVALID_CSV"),
        (HEADER + "2026-11-01,x\x00y,5k,expense,dining,a\n", "INVALID_CSV"),
        (HEADER + "2026-11-01,x,5k,expense,dining,\ud800\n", "CSV_NOT_UTF8"),
    ],
)
def test_it_refuses_files_it_cannot_read(alice, text, code):
    with pytest.raises(ValidationFailed) as caught:
        transactions_import_csv(user=alice, text=text)
    assert caught.value.code == code
    assert not Transaction.objects.exists()


@pytest.mark.django_db
def test_a_header_only_file_imports_nothing(alice):
    assert transactions_import_csv(user=alice, text=HEADER) == ImportResult(imported=0, skipped=0)


@pytest.mark.django_db
def test_it_caps_rows_and_bytes(alice, monkeypatch):
    monkeypatch.setattr(importing, "MAX_ROWS", 5)
    with pytest.raises(ValidationFailed) as caught:
        transactions_import_csv(user=alice, text=_rows(6))
    assert caught.value.code == "CSV_TOO_LARGE"
    monkeypatch.setattr(importing, "MAX_BYTES", 100)
    with pytest.raises(ValidationFailed) as caught:
        transactions_import_csv(user=alice, text=_rows(3))
    assert caught.value.code == "CSV_TOO_LARGE"
    assert not Transaction.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "said"), [("vi", "1.000"), ("en", "1,000")])
def test_the_row_cap_is_grouped_for_the_reader(alice, monkeypatch, language, said):
    monkeypatch.setattr(importing, "MAX_ROWS", 1000)
    with pytest.raises(ValidationFailed) as caught, translation.override(language):
        transactions_import_csv(user=alice, text=_rows(1001))
    assert said in caught.value.message and not Transaction.objects.exists()


@pytest.mark.django_db
def test_the_duplicate_check_does_not_query_per_row(alice, django_assert_max_num_queries):
    transactions_import_csv(user=alice, text=_rows(100))
    # A few lookups and insert batches, never one a row.
    with django_assert_max_num_queries(30):
        result = transactions_import_csv(user=alice, text=_rows(1500))
    assert result == ImportResult(imported=1400, skipped=100)


@pytest.mark.django_db
def test_known_and_repeated_ids_are_skipped_across_batches(alice, monkeypatch):
    monkeypatch.setattr(importing, "BATCH", 4)
    transactions_import_csv(user=alice, text=_rows(3) + "2026-11-09,Old,1000,expense,dining,ext-9\n")
    # ext-9 is known to the ledger and comes in the third batch; ext-1 repeats within the file two batches on.
    text = _rows(10) + "2026-11-20,Again,1k,expense,dining,ext-1\n" + "2026-11-21,New,1k,expense,dining,ext-10\n"
    assert transactions_import_csv(user=alice, text=text) == ImportResult(imported=7, skipped=5)
    assert Transaction.objects.filter(user=alice).count() == 11
    assert Transaction.objects.get(user=alice, external_id="ext-1").description == "Row 1"


@pytest.mark.django_db
def test_the_id_lookup_asks_for_the_files_ids_not_the_users_history(alice):
    transactions_import_csv(user=alice, text=_rows(300, start=1000))
    with CaptureQueriesContext(connection) as captured:
        transactions_import_csv(user=alice, text=_rows(3))
    lookups = [
        q["sql"] for q in captured.captured_queries if "external_id" in q["sql"] and q["sql"].startswith("SELECT")
    ]
    assert len(lookups) == 1
    assert all(f"'ext-{n}'" in lookups[0] for n in range(3))


@pytest.mark.django_db
def test_a_collision_on_the_unique_constraint_is_a_conflict_not_a_500(alice, monkeypatch):
    transactions_import_csv(user=alice, text=GOOD)
    monkeypatch.setattr(importing, "_fresh_rows", lambda user, rows, seen: rows)
    with pytest.raises(Conflict) as caught:
        transactions_import_csv(user=alice, text=GOOD + "2026-11-04,New,5k,expense,dining,bank-4\n")
    assert caught.value.code == "IMPORT_CONFLICT"
    assert Transaction.objects.count() == 3


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_imports_of_one_file_import_it_once(alice):
    text = _rows(300)

    def run():
        return transactions_import_csv(user=alice, text=text)

    results = at_once(run, run)
    assert sorted(results, key=lambda r: r.imported) == [ImportResult(0, 300), ImportResult(300, 0)]
    assert Transaction.objects.filter(user=alice).count() == 300


# The REST route


@pytest.mark.django_db
def test_it_imports_a_multipart_upload(alice_api, alice):
    upload = SimpleUploadedFile("bank.csv", GOOD.encode(), content_type="text/csv")
    response = alice_api.post("/api/v1/transactions/import", {"file": upload}, format="multipart")
    assert response.status_code == 200
    assert response.json() == {"imported": 3, "skipped": 0}
    listed = alice_api.get("/api/v1/transactions?source=synced").json()["results"]
    assert {t["external_id"] for t in listed} == {"bank-1", "bank-2", "bank-3"}
    assert all(t["editable"] is False for t in listed)


@pytest.mark.django_db
def test_it_imports_a_text_csv_body_with_a_bom(alice_api):
    body = "\ufeff".encode() + GOOD.encode()
    response = alice_api.post("/api/v1/transactions/import", body, content_type="text/csv; charset=utf-8")
    assert response.json() == {"imported": 3, "skipped": 0}
    again = alice_api.post("/api/v1/transactions/import", body, content_type="text/csv")
    assert again.json() == {"imported": 0, "skipped": 3}


@pytest.mark.django_db
def test_a_bad_row_over_rest_is_a_400_naming_the_row(alice_api):
    text = GOOD + "2026-11-04,Oops,abc,expense,dining,bank-4\n"
    error = assert_error(alice_api.post("/api/v1/transactions/import", text.encode(), content_type="text/csv"), 400)
    assert list(error["fields"]["rows"]) == ["5"]
    assert "amount" in error["fields"]["rows"]["5"]
    assert not Transaction.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "content_type", "code"),
    [
        (b"", "text/csv", "CSV_EMPTY"),
        # UTF-16 (its byte-order mark) cut in the middle of a character
        (b"\xff\xfe" + "date,x\n1,2\n".encode("utf-16-le") + b"\x00", "text/csv", "CSV_NOT_UTF8"),
        (b"\xff\xfe\x00d", "text/csv", "UNSUPPORTED_FORMAT"),  # one letter: no columns
        (b"a,b\n", "text/csv", "CSV_BAD_HEADER"),
        # A fixed-width statement (Finland's TITO): no column to map, so the formats Zeus reads, not a mapping
        (
            b"T0032210047300010416310003180205180205180205195000370020840699   180111+000000000000179900000000EUR\r\n"
            b"T10188000001180203473047IE58071802051802031802032720OTTO             TILISIIRTO        -0000000000\r\n",
            "text/plain",
            "UNSUPPORTED_FORMAT",
        ),
    ],
)
def test_unreadable_bodies_are_400s(alice_api, body, content_type, code):
    assert_error(alice_api.post("/api/v1/transactions/import", body, content_type=content_type), 400, code)


@pytest.mark.django_db
def test_a_multipart_post_without_a_file_is_a_400(alice_api):
    assert_error(alice_api.post("/api/v1/transactions/import", {"other": "x"}, format="multipart"), 400, "CSV_MISSING")


@pytest.mark.django_db
def test_json_is_not_a_csv(alice_api):
    assert_error(alice_api.post("/api/v1/transactions/import", {"text": GOOD}, format="json"), 415)


@pytest.mark.django_db
def test_an_oversized_upload_is_refused(alice_api, monkeypatch):
    monkeypatch.setattr(importing, "MAX_BYTES", 50)
    monkeypatch.setattr("assets.import_api.MAX_BYTES", 50)
    upload = SimpleUploadedFile("bank.csv", GOOD.encode(), content_type="text/csv")
    response = alice_api.post("/api/v1/transactions/import", {"file": upload}, format="multipart")
    assert_error(response, 400, "CSV_TOO_LARGE")
    assert_error(alice_api.post("/api/v1/transactions/import", GOOD.encode(), content_type="text/csv"), 400)


@pytest.mark.django_db
def test_anonymous_imports_are_refused(anon_api):
    assert_error(anon_api.post("/api/v1/transactions/import", GOOD.encode(), content_type="text/csv"), 401)


# The management command


@pytest.mark.django_db
def test_the_command_imports_a_file(alice, tmp_path, capsys):
    path = tmp_path / "bank.csv"
    path.write_text(GOOD, encoding="utf-8")
    call_command("import_transactions", str(path), "--user", "alice")
    assert "Imported 3, skipped 0" in capsys.readouterr().out
    assert Transaction.objects.filter(user=alice, source=Source.SYNCED).count() == 3


@pytest.mark.django_db
def test_the_command_explains_what_went_wrong(alice, tmp_path):
    with pytest.raises(CommandError, match="No user named 'nobody'"):
        call_command("import_transactions", str(tmp_path / "x.csv"), "--user", "nobody")
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_transactions", str(tmp_path / "missing.csv"), "--user", "alice")
    bad = tmp_path / "bad.csv"
    bad.write_text(HEADER + "2026-11-01,x,abc,expense,dining,a\n", encoding="utf-8")
    with pytest.raises(CommandError, match=r"line 2: amount"):
        call_command("import_transactions", str(bad), "--user", "alice")
    latin = tmp_path / "latin.csv"
    latin.write_bytes("café,thé".encode("latin-1"))
    with pytest.raises(CommandError, match="must be the header"):
        call_command("import_transactions", str(latin), "--user", "alice")
    assert not Transaction.objects.exists()


@pytest.mark.django_db
def test_imported_rows_are_read_only_over_rest(alice_api, alice):
    transactions_import_csv(user=alice, text=GOOD)
    txn = Transaction.objects.get(external_id="bank-3")
    assert_error(alice_api.delete(f"/api/v1/transactions/{txn.id}"), 409, "SYNCED_READ_ONLY")
    factories.txn(alice)
    assert alice_api.get("/api/v1/transactions?source=manual").json()["results"][0]["source"] == "manual"


@pytest.mark.django_db
def test_an_ofx_fitid_listed_twice_imports_once_one_reused_imports_both_and_a_reimport_adds_nothing(alice):
    import io

    from assets.importing import transactions_import

    statement = (
        "<BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>VND<BANKACCTFROM><ACCTID>1</BANKACCTFROM><BANKTRANLIST>"
        "<STMTTRN><DTPOSTED>20261101<TRNAMT>110000<FITID>889<NAME>ATM DEPOSIT</STMTTRN>"
        "<STMTTRN><DTPOSTED>20261102<TRNAMT>-5000<FITID>889<NAME>ATM FEE</STMTTRN>"
        "</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1>"
    )
    # Two statements of one account, the second repeating the first: one deposit, one fee under a reused id.
    raw = f"OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX>{statement}{statement}</OFX>\n".encode()
    assert transactions_import(user=alice, source=io.BytesIO(raw)) == ImportResult(imported=2, skipped=0, format="ofx")
    assert transactions_import(user=alice, source=io.BytesIO(raw)) == ImportResult(imported=0, skipped=2, format="ofx")
    amounts = sorted((t.direction, t.amount) for t in Transaction.objects.filter(user=alice))
    assert amounts == [("expense", Decimal("5000")), ("income", Decimal("110000"))]


@pytest.mark.django_db
def test_a_file_naming_no_year_reads_its_days_up_to_the_users_today(alice, monkeypatch):
    import datetime as dt
    import io

    from assets.importing import transactions_import

    # 20:00 on 5 July in UTC is 03:00 on 6 July in the user's Saigon: their 6 July has come, UTC's has not.
    monkeypatch.setattr("django.utils.timezone.now", lambda: dt.datetime(2026, 7, 5, 20, tzinfo=dt.UTC))
    raw = b"Date,Description,Branch,Amount,,Balance\n'06/07,TRSF E-BANKING,'0011,95000,DB,1000000\n"
    assert transactions_import(user=alice, source=io.BytesIO(raw)).imported == 1
    assert Transaction.objects.get(user=alice).occurred_on == dt.date(2026, 7, 6)
