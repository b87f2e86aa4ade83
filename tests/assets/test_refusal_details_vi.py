"""The details inside a refusal are worded in the reader's language too, not only the sentence around them: a
capture's reading (what the model answered wrong), a statement row's problems, a VietQR payload's fault. Each
case is read in Vietnamese and in English; the Vietnamese has none of the English detail left in it."""

import datetime as dt
import io
import zoneinfo

import pytest
from django.utils import translation

from assets.captures.answer import CaptureAnswerInvalid, reading_from_answer
from assets.importing import transactions_import
from assets.statements.rows import ImportRejected
from assets.vietqr.reading import vietqr_read
from zeus.errors import ValidationFailed

TZ = zoneinfo.ZoneInfo("Asia/Ho_Chi_Minh")
TODAY = dt.date(2026, 12, 6)


def _row(**more):
    return {
        "occurred_on": "2026-12-01",
        "time": "08:42",
        "amount": "83000",
        "currency": "VND",
        "direction": "expense",
        "description": "Cong Ca Phe",
        "balance_after": None,
        **more,
    }


def _answer(kind="receipt", rows=None):
    return {"kind": kind, "issuer": "Cong Ca Phe", "account_mask": None, "transactions": rows or [_row()]}


def _capture_refusal(answer, language) -> str:
    with translation.override(language), pytest.raises(CaptureAnswerInvalid) as caught:
        reading_from_answer(answer, today=TODAY, tz=TZ)
    return caught.value.message


@pytest.mark.parametrize(
    ("answer", "english", "vietnamese"),
    [
        (_answer(rows=[_row(), _row()]), "a receipt is one payment, not 2.", "một hóa đơn là một khoản thanh toán"),
        (_answer("transfer", [_row()] * 3), "a transfer is one payment, not 3.", "không phải 3."),
        (_answer(rows=[_row(currency="XYZ")]), "row 1: XYZ is not a currency Zeus keeps.", "dòng 1: XYZ không phải"),
        (_answer(rows=[_row(amount="8300000000000")]), "row 1: the amount is larger", "dòng 1: số tiền lớn hơn"),
        (_answer(rows=[_row(occurred_on="2026-02-30")]), "row 1: 2026-02-30 is not a day.", "dòng 1: 2026-02-30"),
        (_answer(rows=[_row(occurred_on="2031-01-01")]), "row 1: Jan 1, 2031 is not a day", "1 thg 1, 2031"),
        (_answer(rows=[_row(amount="0")]), "row 1: ", "dòng 1: "),
        ({**_answer(), "tip": "5000"}, "the answer is not in the shape asked for.", "câu trả lời không đúng dạng"),
        (_answer(rows=[_row(time="25:00")]), "transactions/0/time is not in the shape", "transactions/0/time không"),
    ],
)
def test_a_capture_refusal_says_its_detail_in_the_readers_language(answer, english, vietnamese):
    assert english in _capture_refusal(answer, "en")
    said = _capture_refusal(answer, "vi")
    assert vietnamese in said
    for word in ("receipt", "payment", "row ", "is not", "answer", "shape"):
        assert word not in said


def _import(user, text: str, language: str) -> ImportRejected:
    with translation.override(language), pytest.raises(ValidationFailed) as caught:
        transactions_import(user=user, source=io.BytesIO(text.encode()))
    return caught.value


ZEUS_HEADER = "date,description,amount,direction,category,external_id\n"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("line", "field", "english", "vietnamese"),
    [
        ("2026-11-01,x,5k,sideways,dining,a", "direction", "Must be expense or income.", "Phải là expense"),
        ("2026-11-01,x,5k,expense,salary,a", "category", "“salary” is not an expense category.", "danh mục chi"),
        ("2026-11-01,x,5k,expense,nope,a", "category", "“nope” is not a category.", "không phải là danh mục"),
        ("2026-11-01,x,5k,expense,dining,", "external_id", "Required: it is how", "Bắt buộc"),
        ("2026-11-01,x,5k,expense", "row", "Expected 6 columns, found 4.", "Cần 6 cột, thấy 4."),
    ],
)
def test_a_statement_rows_problem_is_in_the_readers_language(alice, line, field, english, vietnamese):
    for language, words in (("en", english), ("vi", vietnamese)):
        refused = _import(alice, ZEUS_HEADER + line + "\n", language)
        problems = refused.fields["rows"]["2"][field]
        assert any(words in p for p in problems), (language, problems)


@pytest.mark.parametrize(
    ("payload", "english", "vietnamese"),
    [
        ("000201010211", "The payload does not end with its CRC.", "Mã không kết thúc bằng CRC của nó."),
        ("x" * 600, "The payload is not a VietQR text.", "Mã không phải là văn bản VietQR."),
    ],
)
def test_a_vietqr_payloads_fault_is_in_the_readers_language(payload, english, vietnamese):
    for language, words in (("en", english), ("vi", vietnamese)):
        with translation.override(language), pytest.raises(ValidationFailed) as caught:
            vietqr_read(payload=payload)
        assert caught.value.message == words
        assert caught.value.fields == {"payload": [words]}
