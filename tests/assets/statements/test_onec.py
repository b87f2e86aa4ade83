"""The Russian 1C client-bank exchange file (kl_to_1c.txt): detection from its signature line, the side of each
document read from the statement's accounts, booking dates, the account's currency, totals checked, bad files
refused whole (INVALID_1C), read one document at a time. Figures made up after the format's description."""

import datetime as dt
import io
from decimal import Decimal
from pathlib import Path

import pytest

from assets.models import Transaction
from assets.statements import detect
from assets.statements.onecfile import currency_of
from tests.assets.statements.test_bank_standards import imports_once_and_refuses_it_broken, refused_code, rows_of
from zeus.errors import ValidationFailed

TUNE = Path(__file__).parent / "corpus" / "tune"
OURS, OTHER, THIRD = "40702810900000000001", "40702810500000000777", "40817810300000000042"


def document(payer=OURS, payee=OTHER, *, amount="1500.00", day="10.03.2025", out="11.03.2025", into="", **more):
    fields = {
        "Номер": "17",
        "Дата": day,
        "Сумма": amount,
        "ПлательщикСчет": payer,
        "ДатаСписано": out,
        "Плательщик1": 'ООО "Ромашка"',
        "ПолучательСчет": payee,
        "ДатаПоступило": into,
        "Получатель1": "ИП Иванов И.И.",
        "НазначениеПлатежа": "Оплата по счету 5 от 01.03.2025",
    }
    fields.update(more)
    lines = [f"{key}={value}" for key, value in fields.items() if value is not None]
    return "\n".join(["СекцияДокумент=Платежное поручение", *lines, "КонецДокумента"])


def section(account=OURS, *, opening="1000.00", out="1500.00", into="0.00", closing=None):
    closing = closing if closing is not None else str(Decimal(opening) + Decimal(into) - Decimal(out))
    fields = {"РасчСчет": account, "НачальныйОстаток": opening, "ВсегоСписано": out, "ВсегоПоступило": into}
    fields["КонечныйОстаток"] = closing
    lines = [f"{key}={value}" for key, value in fields.items() if value is not None]
    return "\n".join(["СекцияРасчСчет", "ДатаНачала=01.03.2025", "ДатаКонца=31.03.2025", *lines, "КонецРасчСчет"])


def onec(*documents, accounts=(OURS,), sections=None, encoding="cp1251", newline="\r\n") -> bytes:
    header = ["1CClientBankExchange", "ВерсияФормата=1.03", f"Кодировка={'DOS' if encoding == 'cp866' else 'Windows'}"]
    header += ["Отправитель=Банк", "Получатель=1С:Предприятие", *(f"РасчСчет={a}" for a in accounts)]
    parts = [*header, *(sections if sections is not None else []), *(documents or [document()]), "КонецФайла"]
    return (newline.join(parts) + newline).encode(encoding)


def table(raw: bytes):
    return [(r.occurred_on, r.direction, r.amount, r.currency, r.description) for r in rows_of(raw, "VND")]


def test_a_1c_file_is_detected_from_its_signature_line():
    assert detect.detect(onec()) == detect.ONEC
    assert detect.detect(onec(newline="\n")) == detect.ONEC
    assert detect.detect(b"\xef\xbb\xbf" + onec()) == detect.ONEC
    for name in ("clientbank1c__kl_to_1c.txt", "xini1__sample5.txt"):
        assert detect.detect((TUNE / name).read_bytes()[: detect.HEAD_BYTES]) == detect.ONEC
    assert detect.detect(b"1CClientBankExchangeX\r\n") == detect.CSV  # a CSV's cell that only begins so
    assert detect.detect(b"Date,Amount\n1CClientBankExchange\n") == detect.CSV


def test_money_out_of_the_statements_account_is_dated_when_it_was_written_off():
    assert table(onec()) == [
        (dt.date(2025, 3, 11), "expense", Decimal("1500.00"), "RUB", "ИП Иванов И.И. — Оплата по счету 5 от 01.03.2025")
    ]


def test_money_in_is_dated_when_it_arrived_and_named_after_the_payer():
    incoming = document(OTHER, OURS, out="05.03.2025", into="06.03.2025")
    assert table(onec(incoming)) == [
        (dt.date(2025, 3, 6), "income", Decimal("1500.00"), "RUB", 'ООО "Ромашка" — Оплата по счету 5 от 01.03.2025')
    ]


def test_the_side_is_the_accounts_not_which_date_is_filled():
    # A bank's own order paying into the account carries both dates; an outgoing one may carry ДатаПоступило only.
    both = document(OTHER, OURS, out="05.03.2025", into="05.03.2025")
    odd = document(OURS, OTHER, out="", into="07.03.2025")
    assert [r[:2] for r in table(onec(both, odd))] == [
        (dt.date(2025, 3, 5), "income"),
        (dt.date(2025, 3, 10), "expense"),  # no ДатаСписано: the document's own date
    ]


def test_the_accounts_fall_back_to_their_rasch_schet_fields():
    moved = document(None, None, ПлательщикРасчСчет=OURS, ПолучательРасчСчет=OTHER)
    assert table(onec(moved))[0][1] == "expense"


def test_a_document_naming_none_of_the_statements_accounts_refuses_the_file():
    assert refused_code(onec(document(OTHER, THIRD))) == "INVALID_1C"
    assert refused_code(onec(document("", ""))) == "INVALID_1C"  # neither side named
    assert refused_code(onec(document(OTHER, THIRD), accounts=())) == "INVALID_1C"  # a file naming no account


def test_in_a_file_of_one_account_a_blank_side_is_that_account():
    # A fee or cash order where the bank left its client's own number out: the blank side can be no other account.
    assert [r[1] for r in table(onec(document("", OTHER), document(OTHER, "")))] == ["expense", "income"]
    # With two accounts the blank side could be either: refused.
    assert refused_code(onec(document("", OTHER), accounts=(OURS, THIRD))) == "INVALID_1C"


def test_a_transfer_between_two_of_the_statements_accounts_is_a_row_on_each():
    rows = rows_of(onec(document(OURS, THIRD, into="12.03.2025"), accounts=(OURS, THIRD)))
    assert [(r.occurred_on, r.direction) for r in rows] == [
        (dt.date(2025, 3, 11), "expense"),
        (dt.date(2025, 3, 12), "income"),
    ]
    assert len({r.external_id for r in rows}) == 2


@pytest.mark.parametrize(
    ("account", "currency"),
    [
        ("40702810900000000001", "RUB"),
        ("40702643900000000001", "RUB"),
        ("40702840900000000001", "USD"),
        ("40702978900000000001", "EUR"),
        ("40702156900000000001", "CNY"),
        ("40702999900000000001", "RUB"),  # no currency of that code
        ("KZ79722S000001674774", "RUB"),  # not a Russian account number
    ],
)
def test_the_currency_is_the_account_numbers_digits_6_to_8(account, currency):
    assert currency_of(account) == currency
    assert table(onec(document(account, OTHER), accounts=(account,)))[0][3] == currency


def test_documents_must_add_up_to_the_sections_totals():
    two = (document(), document(OTHER, OURS, amount="200.00", into="12.03.2025"))
    assert len(table(onec(*two, sections=[section(out="1500.00", into="200.00")]))) == 2
    assert refused_code(onec(*two, sections=[section(out="1500.00", into="250.00")])) == "INVALID_1C"
    assert refused_code(onec(*two[:1], sections=[section(out="1700.00")])) == "INVALID_1C"  # a document left out
    # Totals over several sections (a bank writing a section a day) are the account's.
    days = [section(out="1000.00", closing="0.00"), section(opening="0.00", out="500.00", into="200.00")]
    assert len(table(onec(*two, sections=days))) == 2


def test_a_section_without_totals_checks_nothing_and_one_that_does_not_balance_is_refused():
    assert len(table(onec(document(), sections=[section(out=None, into=None, closing="0.00")]))) == 1
    assert refused_code(onec(document(), sections=[section(closing="999.00")])) == "INVALID_1C"


def test_the_purpose_in_numbered_parts_and_a_name_in_one_line():
    parts = document(
        НазначениеПлатежа="", НазначениеПлатежа1="Оплата по договору", НазначениеПлатежа2="НДС не облагается"
    )
    assert table(onec(parts))[0][4] == "ИП Иванов И.И. — Оплата по договору НДС не облагается"
    named = document(Получатель1=None, Получатель="7701234567, ИП Петров")
    assert table(onec(named))[0][4] == "7701234567, ИП Петров — Оплата по счету 5 от 01.03.2025"


@pytest.mark.parametrize("encoding", ["cp1251", "cp866", "utf-8"])
def test_windows_dos_and_utf8_files_read_alike(encoding):
    assert table(onec(encoding=encoding)) == table(onec())


def test_equal_documents_keep_apart_and_read_again_the_same():
    raw = onec(document(), document(), document(Номер="18"), document(Номер=None))
    ids = [r.external_id for r in rows_of(raw)]
    assert len(set(ids)) == 4 and ids == [r.external_id for r in rows_of(raw)]
    assert all(i.startswith("1c:") for i in ids)


def test_a_zero_document_moves_no_money():
    assert len(table(onec(document(), document(amount="0.00")))) == 1


BROKEN = {
    "truncated": lambda raw: raw[: raw.index("КонецФайла".encode("cp1251"))],
    "no-end-of-document": lambda raw: raw.replace("КонецДокумента\r\n".encode("cp1251"), b"", 1),
    "no-end-of-section": lambda raw: raw.replace("КонецРасчСчет\r\n".encode("cp1251"), b""),
    "after-the-end": lambda raw: raw + "Сумма=1.00\r\n".encode("cp1251"),
    "not-key-value": lambda raw: raw.replace(b"=1500.00", b" 1500.00", 1),
    "nul": lambda raw: raw.replace(b"=17", b"=1\x007"),
    "signature": lambda raw: raw.replace(b"1CClientBankExchange", b"1CClientBankExchange\r\n1CClientBankExchange"),
}


@pytest.mark.parametrize("broken", list(BROKEN.values()), ids=list(BROKEN))
def test_a_broken_file_is_refused_as_a_whole(broken):
    raw = onec(document(), sections=[section()])
    assert rows_of(raw)
    assert refused_code(broken(raw)) == "INVALID_1C"


def test_an_account_named_after_the_documents_is_refused():
    raw = onec(document(), accounts=(OURS,)).replace(
        "КонецФайла".encode("cp1251"), f"РасчСчет={THIRD}\r\nКонецФайла".encode("cp1251")
    )
    assert refused_code(raw) == "INVALID_1C"


@pytest.mark.parametrize(("field", "value"), [("ДатаСписано", "32.03.2025"), ("Сумма", "1.500,00"), ("Сумма", "NaN")])
def test_a_bad_date_or_amount_is_the_documents_problem(field, value):
    rows = rows_of(onec(document(**{field: value})))
    assert list(rows[0].problems) == ["date" if field.startswith("Дата") else "amount"]


def test_a_file_is_read_one_document_at_a_time():
    raw = onec(
        *(document(Номер=str(n)) for n in range(2_000)), sections=[section(out="3000000.00", closing="-2999000.00")]
    )
    source = io.BytesIO(raw)
    from assets.statements.onecfile import onec_rows

    rows = onec_rows(source)
    next(rows)
    assert source.tell() < len(raw) // 10  # the first row came before the rest of the file was read
    assert sum(1 for _ in rows) == 1_999


def test_a_line_without_end_is_refused_before_it_is_read_whole():
    from assets.statements.onecfile import MAX_LINE, onec_rows

    source = io.BytesIO(onec()[:-40] + b"X" * (50 * 1024 * 1024))
    with pytest.raises(ValidationFailed) as caught:
        list(onec_rows(source))
    assert caught.value.code == "INVALID_1C"
    assert source.tell() < 4 * MAX_LINE


def test_the_tuning_files_read_as_written_by_hand():
    assert table((TUNE / "clientbank1c__kl_to_1c.txt").read_bytes()) == [
        (
            dt.date(2023, 4, 3),
            "expense",
            Decimal("108159.12"),
            "RUB",
            "ЭнергоСистемы — Оплата по счету N 1024 от 01.01.23г 18026,52",
        )
    ]


@pytest.mark.django_db
def test_a_1c_file_imports_through_the_api(alice_api):
    raw = onec(document(), document(OTHER, OURS, amount="200.00", into="12.03.2025"))
    broken = raw.replace(b"=1500.00", b"=15OO.00")
    imports_once_and_refuses_it_broken(alice_api, "kl_to_1c.txt", raw, broken, count=2, code="INVALID_1C")
    assert sorted(Transaction.objects.values_list("amount", "currency", "direction")) == [
        (Decimal("200.00"), "RUB", "income"),
        (Decimal("1500.00"), "RUB", "expense"),
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("broken", list(BROKEN.values()), ids=list(BROKEN))
def test_a_broken_file_through_the_api_is_a_400_and_imports_nothing(alice_api, broken):
    raw = broken(onec(document(), sections=[section()]))
    answer = alice_api.post("/api/v1/transactions/import", raw, content_type="application/octet-stream")
    assert answer.status_code == 400, answer.content[:300]
    assert answer.json()["error"]["code"] == "INVALID_1C"
    assert not Transaction.objects.exists()


@pytest.mark.django_db
def test_a_50_mb_1c_file_is_refused_and_imports_nothing(alice_api, alice):
    from assets.importing import MAX_BYTES, transactions_import

    answer = alice_api.post(
        "/api/v1/transactions/import", onec() + b"X" * (50 * 1024 * 1024), content_type="text/plain"
    )
    assert (answer.status_code, answer.json()["error"]["code"]) == (413, "PAYLOAD_TOO_LARGE")
    # Just under the importer's cap, one endless line: refused by the reader, not read whole.
    with pytest.raises(ValidationFailed) as caught:
        transactions_import(user=alice, source=io.BytesIO(onec()[:-20] + b"X" * (MAX_BYTES - 4096)))
    assert caught.value.code == "INVALID_1C"
    assert not Transaction.objects.exists()


def test_a_1c_capture_is_plain_text():
    from assets.captures.files import sniff

    assert sniff(io.BytesIO(onec()), name="kl_to_1c.txt", content_type="text/plain").media_type == "text/plain"
