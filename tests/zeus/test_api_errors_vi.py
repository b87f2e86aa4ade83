"""The services' refusals reach the REST client in the reader's language: a token asking in Vietnamese
(Accept-Language) and a signed-in Vietnamese profile hear the same words, the codes and field names unchanged.
One case per kind of refusal the services make (docs/i18n.md)."""

import pytest
from rest_framework.test import APIClient

from assets.models import Source
from goals.debts.services import debt_create
from tests import factories
from tests.assets.helpers import assert_error

pytestmark = pytest.mark.django_db


def _cases(alice):
    synced = factories.txn(alice, source=Source.SYNCED, external_id="sepay:1")
    manual = factories.txn(alice)
    debt = debt_create(user=alice, direction="i_owe", counterparty="Lan", principal="1000000")
    return [
        (
            "post",
            "/api/v1/transfers",
            {},
            400,
            "VALIDATION_ERROR",
            "Hãy chọn phía chuyển ra, phía nhận vào, hoặc cả hai.",
        ),
        (
            "post",
            f"/api/v1/transactions/{manual.id}/split",
            {"parts": []},
            400,
            "SPLIT_MISMATCH",
            "Một lần tách cần ít nhất hai phần.",
        ),
        (
            "patch",
            f"/api/v1/transactions/{synced.id}",
            {"amount": "5"},
            409,
            "SYNCED_READ_ONLY",
            "amount của giao dịch này do ngân hàng cung cấp và không thể sửa ở đây.",
        ),
        (
            "delete",
            f"/api/v1/transactions/{synced.id}",
            None,
            409,
            "SYNCED_READ_ONLY",
            "Giao dịch này được đồng bộ từ tài khoản liên kết và không thể sửa ở đây.",
        ),
        (
            "post",
            "/api/v1/rules",
            {"match": "kfc", "category": "dining", "direction": "sideways"},
            400,
            "VALIDATION_ERROR",
            "direction: “sideways” không phải lựa chọn hợp lệ.",  # DRF's own words, from Zeus's catalog,
        ),
        (
            "post",
            "/api/v1/rates",
            {"date": "2026-12-01", "from": "USD", "to": "USD", "rate": "1"},
            400,
            "RATE_INVALID",
            "from và to phải khác nhau.",
        ),
        (
            "get",
            "/api/v1/transactions",
            {"page_size": "0"},
            400,
            "VALIDATION_ERROR",
            "page_size phải là số nguyên từ 1 đến 200.",
        ),
        (
            "patch",
            "/api/v1/profile",
            {"timezone": "Mars/Base"},
            400,
            "INVALID_TIMEZONE",
            "“Mars/Base” không phải là một múi giờ.",
        ),
        ("delete", "/api/v1/rules/999999", None, 404, "NOT_FOUND", "Không tìm thấy quy tắc này."),
        (
            "post_form",
            "/api/v1/transactions/import",
            {},
            400,
            "CSV_MISSING",
            "Hãy gửi sao kê trong trường multipart `file` hoặc trong thân yêu cầu.",
        ),
        (
            "post",
            f"/api/v1/debts/{debt.id}/payments",
            {"amount": "abc"},
            400,
            "INVALID_AMOUNT",
            "'abc' không phải số tiền; hãy thử 150000, 150k, 2tr hoặc $12.50.",
        ),
        ("get", "/api/v1/no-such-route", None, 404, "NOT_FOUND", "Không tìm thấy."),
    ]


def _ask(client, method, path, body, **headers):
    if method == "get":
        return client.get(path, body or {}, **headers)
    if method == "post_form":
        return client.post(path, body, format="multipart", **headers)
    return getattr(client, method)(path, body, format="json", **headers)


@pytest.mark.parametrize("case", range(12))
@pytest.mark.parametrize("reader", ["token asking vi", "vi profile"])
def test_each_refusal_reads_in_vietnamese(alice, alice_api, reader, case):
    if reader == "vi profile":
        alice.profile.language = "vi"
        alice.profile.save()
        client, headers = APIClient(), {"HTTP_ACCEPT_LANGUAGE": "en"}
        client.force_login(alice)
    else:
        client, headers = alice_api, {"HTTP_ACCEPT_LANGUAGE": "vi"}
    method, path, body, status, code, message = _cases(alice)[case]
    error = assert_error(_ask(client, method, path, body, **headers), status, code)
    assert error["message"] == message, (path, error)


def test_a_token_without_a_language_still_reads_english(alice, alice_api):
    for method, path, body, status, code, _ in _cases(alice)[:4]:
        error = assert_error(_ask(alice_api, method, path, body), status, code)
        assert error["message"].isascii(), (path, error)


@pytest.mark.parametrize(
    ("language", "nul", "large"),
    [
        ("vi", "q: không thể lưu văn bản có ký tự NUL.", "Nội dung yêu cầu lớn hơn"),
        (None, "q: text with a NUL character cannot be stored.", "The request body is larger than"),
    ],
)
def test_the_edges_refusals_read_in_the_callers_language(alice_api, language, nul, large):
    """The refusals made at the request's edge (a NUL in the query before any view, a body over its bound),
    in the language the caller asks in; English for a program that names none."""
    headers = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
    error = assert_error(alice_api.get("/api/v1/transactions", {"q": "a\x00b"}, **headers), 400, "INVALID_TEXT")
    assert error["message"] == nul
    body = b"{" + b" " * (3 * 1024 * 1024) + b"}"
    answer = alice_api.generic("POST", "/api/v1/rules", body, content_type="application/json", **headers)
    assert assert_error(answer, 413, "PAYLOAD_TOO_LARGE")["message"].startswith(large)
