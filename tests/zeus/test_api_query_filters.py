"""A known filter given an unknown value answers 400 naming it, never a silent ignore or a 500; an unknown
parameter name stays ignored (clients send cache-busters)."""

import pytest
from rest_framework.test import APIClient

from tests.assets.helpers import assert_error
from tests.chat import factories as chat_factories

pytestmark = pytest.mark.django_db

BAD = [
    ("/api/v1/debts", "status", "bad"),
    ("/api/v1/debts", "direction", "bad"),
    ("/api/v1/goals", "status", "bad"),
    ("/api/v1/assets", "source", "bad"),
    ("/api/v1/transactions", "direction", "bad"),
    ("/api/v1/transactions", "category", "bad"),
    ("/api/v1/transactions", "since", "2026-13-01"),
    ("/api/v1/transactions", "until", "yesterday"),
    ("/api/v1/transactions", "asset", "x"),
    ("/api/v1/suggestions", "status", "bad"),
    ("/api/v1/recurring", "status", "bad"),
    ("/api/v1/recurring", "due_within_days", "soon"),
    ("/api/v1/notifications", "unread", "maybe"),
    ("/api/v1/rates", "date", "2026-02-30"),
    ("/api/v1/rates", "base", "dollars"),
    ("/api/v1/forecast", "days", "x"),
]


@pytest.mark.parametrize(("path", "name", "value"), BAD)
def test_an_unknown_value_of_a_known_filter_is_a_400_naming_it(alice_api, path, name, value):
    error = assert_error(alice_api.get(path, {name: value}), 400)
    assert name in error.get("fields", {}), error


@pytest.mark.parametrize("path", sorted({path for path, _, _ in BAD}))
def test_an_unknown_parameter_name_is_ignored(alice_api, path):
    assert alice_api.get(path, {"_": "1712345678"}).status_code == 200


def test_the_message_names_the_filter_and_its_values_in_the_readers_language(alice, alice_api):
    alice.profile.language = "vi"
    alice.profile.save()
    error = assert_error(alice_api.get("/api/v1/debts", {"direction": "bad"}, HTTP_ACCEPT_LANGUAGE="vi"), 400)
    assert error == {
        "code": "VALIDATION_ERROR",
        "message": "direction: “bad” không phải một trong: i_owe, owed_to_me.",
        "fields": {"direction": ["“bad” không phải một trong: i_owe, owed_to_me."]},
    }


@pytest.mark.parametrize("value", ["1", "true", "0", "false", ""])
def test_every_value_a_client_already_sends_stays_valid(alice_api, value):
    assert alice_api.get("/api/v1/notifications", {"unread": value}).status_code == 200


@pytest.mark.parametrize(("name", "value"), [("limit", "ten"), ("limit", "0"), ("before", "not-a-cursor")])
def test_a_threads_message_page_refuses_a_bad_limit_or_cursor_naming_it(alice, alice_api, name, value):
    thread = chat_factories.thread(alice)
    error = assert_error(alice_api.get(f"/api/v1/chat/threads/{thread.id}/messages", {name: value}), 400)
    assert name in error.get("fields", {}), error


@pytest.mark.parametrize("path", ["/api/v1/debts", "/api/v1/goals", "/api/v1/suggestions", "/api/v1/recurring"])
def test_an_unknown_status_is_told_in_vietnamese_with_the_values_it_can_take(alice_api, path):
    error = assert_error(alice_api.get(path, {"status": "bad"}, HTTP_ACCEPT_LANGUAGE="vi"), 400, "VALIDATION_ERROR")
    assert error["fields"]["status"][0].startswith("“bad” không phải một trong: "), error


@pytest.mark.parametrize(
    ("path", "name", "value", "told"),
    [
        ("/api/v1/assets", "source", "bad", "“bad” không phải một trong: all, manual, synced."),
        ("/api/v1/transactions", "source", "bad", "“bad” không phải một trong: all, manual, synced."),
        ("/api/v1/transactions", "direction", "up", "“up” không phải một trong: expense, income."),
        ("/api/v1/transactions", "category", "casino", "“casino” không phải một trong: housing, "),
        ("/api/v1/transactions", "since", "2026-02-30", "Ngày sai định dạng."),
        ("/api/v1/transactions", "until", "soon", "Ngày sai định dạng."),
        ("/api/v1/transactions", "asset", "abc", "Không phải mã tài sản."),
    ],
)
def test_the_ledgers_lists_tell_a_bad_filter_in_the_readers_language(alice_api, path, name, value, told):
    error = assert_error(alice_api.get(path, {name: value}, HTTP_ACCEPT_LANGUAGE="vi"), 400, "VALIDATION_ERROR")
    assert list(error["fields"]) == [name]
    assert error["fields"][name][0].startswith(told), error


VIETNAMESE = [
    ("/api/v1/forecast", "days", "x", "days là một số nguyên từ 1 đến 90.", "Từ 1 đến 90."),
    (
        "/api/v1/recurring",
        "due_within_days",
        "soon",
        "due_within_days là một số nguyên từ 0 đến 366.",
        "Từ 0 đến 366.",
    ),
    ("/api/v1/rates", "date", "2026-02-30", "date phải là một ngày dạng YYYY-MM-DD.", "Dùng dạng YYYY-MM-DD."),
]


@pytest.mark.parametrize(("path", "name", "value", "message", "field"), VIETNAMESE)
def test_a_bad_number_or_date_is_told_in_vietnamese_to_a_token_asking_for_it(
    alice_api, path, name, value, message, field
):
    error = assert_error(alice_api.get(path, {name: value}, HTTP_ACCEPT_LANGUAGE="vi"), 400)
    assert (error["message"], error["fields"]) == (message, {name: [field]})


@pytest.mark.parametrize(("path", "name", "value", "message", "field"), VIETNAMESE)
def test_a_bad_number_or_date_is_told_in_vietnamese_to_a_vietnamese_profile(alice, path, name, value, message, field):
    alice.profile.language = "vi"
    alice.profile.save()
    client = APIClient()
    client.force_login(alice)
    error = assert_error(client.get(path, {name: value}, HTTP_ACCEPT_LANGUAGE="en"), 400)
    assert (error["message"], error["fields"]) == (message, {name: [field]})
