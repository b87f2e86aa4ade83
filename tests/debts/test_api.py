import datetime as dt

import pytest
from django.test import Client

from assets.models import Transaction
from goals.debts.models import Debt, DebtPayment
from tests import factories
from tests.assets.feeds.sepay import deliver, payload
from tests.assets.helpers import assert_error
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db

LOAN = {
    "direction": "owed_to_me",
    "counterparty": "Minh",
    "principal": "3tr",
    "opened_on": "2026-11-01",
    "installments": 3,
    "first_due_on": "2026-12-01",
}


def create(api, **overrides):
    return api.post("/api/v1/debts", {**LOAN, **overrides}, format="json")


def test_it_creates_a_debt_with_its_schedule(alice_api, alice):
    response = create(alice_api)
    assert response.status_code == 201
    body = response.json()
    assert body["principal"] == "3000000" and body["currency"] == "VND"
    assert body["outstanding"] == "3000000" and body["paid"] == "0" and body["status"] == "open"
    assert [row["amount"] for row in body["schedule"]] == ["1000000"] * 3
    assert body["next_due"]["due_on"] == "2026-12-01"
    assert body["code"].startswith("ZEUS") and len(body["code"]) == 12
    assert Debt.objects.get(id=body["id"]).user == alice


def test_list_get_patch_delete(alice_api):
    debt_id = create(alice_api).json()["id"]
    create(alice_api, direction="i_owe", counterparty="Bank", principal="10tr", installments=None, first_due_on=None)
    listed = alice_api.get("/api/v1/debts?direction=owed_to_me").json()["results"]
    assert [row["id"] for row in listed] == [debt_id]
    assert alice_api.get(f"/api/v1/debts/{debt_id}").json()["counterparty"] == "Minh"
    patched = alice_api.patch(f"/api/v1/debts/{debt_id}", {"counterparty": "Minh Anh"}, format="json")
    assert patched.status_code == 200 and patched.json()["counterparty"] == "Minh Anh"
    assert alice_api.delete(f"/api/v1/debts/{debt_id}").status_code == 204
    assert alice_api.get(f"/api/v1/debts/{debt_id}").status_code == 404


def test_another_users_debt_is_not_found(alice_api, bob_api):
    debt_id = create(alice_api).json()["id"]
    assert bob_api.get(f"/api/v1/debts/{debt_id}").status_code == 404
    assert bob_api.patch(f"/api/v1/debts/{debt_id}", {"note": "x"}, format="json").status_code == 404
    assert bob_api.post(f"/api/v1/debts/{debt_id}/payments", {"amount": "1"}, format="json").status_code == 404
    assert bob_api.delete(f"/api/v1/debts/{debt_id}").status_code == 404


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"interest_rate": "1000"}, "interest_rate"),
        ({"principal": "-5"}, "principal"),
        ({"direction": "sideways"}, "direction"),
        ({"counterparty": ""}, "counterparty"),
        ({"currency": "XYZ"}, "currency"),
        ({"first_due_on": None}, "first_due_on"),
        ({"due_on": "2026-12-31"}, "installments"),
        ({"opened_on": "yesterday"}, "opened_on"),
        ({"first_due_on": "9999-12-31"}, "first_due_on"),  # 3 instalments from here run past the year 9999: a 500
    ],
)
def test_bad_terms_are_a_400_and_nothing_is_saved(alice_api, overrides, field):
    response = create(alice_api, **overrides)
    assert response.status_code == 400
    assert field in response.json()["error"].get("fields", {})
    assert not Debt.objects.exists()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"interest_rate": "1000"}, "interest_rate"),
        ({"interest_rate": "12"}, "interest_rate"),  # an undated IOU has nothing for interest to run over
        ({"principal": "0"}, "principal"),
        ({"due_on": "2026-10-01"}, "due_on"),
    ],
)
def test_a_bad_change_is_a_400_and_the_debt_stays_as_it_was(alice_api, change, field):
    debt = create(alice_api, installments=None, first_due_on=None).json()
    response = alice_api.patch(f"/api/v1/debts/{debt['id']}", change, format="json")
    assert response.status_code == 400
    assert field in response.json()["error"]["fields"]
    assert alice_api.get(f"/api/v1/debts/{debt['id']}").json() == debt


def test_a_debt_in_a_currency_without_a_rate_stays_in_its_own_currency(alice_api, alice):
    """Lent in dollars with no USD rate in Zeus: kept and owed in dollars, never taken into the đồng forecast
    at 1:1 (the page's totals: tests/debts/test_page_words.py)."""
    factories.asset(alice, kind="bank_account", balance="1000000")
    response = create(alice_api, direction="i_owe", principal="100", currency="USD", first_due_on="2026-12-01")
    assert response.status_code == 201
    body = response.json()
    assert (body["currency"], body["outstanding"]) == ("USD", "100.00")
    forecast = alice_api.get("/api/v1/forecast?days=60").json()
    assert [e for day in forecast["days"] for e in day["events"] if e["kind"] == "debt"] == []
    assert forecast["other_currencies"] == ["USD"]  # left out, and said so


@pytest.mark.parametrize(
    ("rate", "shown"), [("10", "10"), ("100", "100"), ("12.5", "12.5"), ("0.25%", "0.25"), ("-0", "0"), ("-0.00", "0")]
)
def test_the_interest_rate_reads_as_a_plain_decimal(alice_api, rate, shown):
    created = create(alice_api, interest_rate=rate)
    assert created.status_code == 201
    assert created.json()["interest_rate"] == shown  # never "1E+1" for 10 %
    assert alice_api.get(f"/api/v1/debts/{created.json()['id']}").json()["interest_rate"] == shown


def test_payments_reduce_what_is_owed_and_the_last_settles_it(alice_api, alice):
    debt_id = create(alice_api).json()["id"]
    row = factories.txn(alice, amount="1000000", direction="income", category="other_income")
    first = alice_api.post(
        f"/api/v1/debts/{debt_id}/payments",
        {"amount": "1tr", "paid_on": "2026-12-01", "transaction": row.id},
        format="json",
    )
    assert first.status_code == 201
    assert first.json()["outstanding"] == "2000000"
    assert first.json()["next_due"]["due_on"] == "2027-01-01"
    assert first.json()["payments"][0]["transaction"] == row.id
    last = alice_api.post(f"/api/v1/debts/{debt_id}/payments", {"amount": "2000000"}, format="json")
    assert last.json()["status"] == "settled" and last.json()["outstanding"] == "0"


def test_a_payment_larger_than_what_is_owed_is_a_400(alice_api):
    debt_id = create(alice_api).json()["id"]
    response = alice_api.post(f"/api/v1/debts/{debt_id}/payments", {"amount": "3000001"}, format="json")
    assert_error(response, 400, "OVERPAYMENT")
    assert not DebtPayment.objects.exists()


def test_a_payment_dated_before_the_debt_began_is_a_400(alice_api):
    debt_id = create(alice_api).json()["id"]
    response = alice_api.post(
        f"/api/v1/debts/{debt_id}/payments", {"amount": "1000", "paid_on": "2026-10-31"}, format="json"
    )
    assert response.status_code == 400 and "paid_on" in response.json()["error"]["fields"]
    assert not DebtPayment.objects.exists()


@pytest.mark.parametrize("zone", ["Pacific/Kiritimati", "Pacific/Pago_Pago"])
def test_a_payment_dated_after_the_users_today_is_a_400_and_their_today_is_accepted(alice_api, alice, zone):
    alice.profile.timezone = zone
    alice.profile.save()
    today = user_today(alice)
    debt_id = create(alice_api, opened_on=(today - dt.timedelta(days=30)).isoformat()).json()["id"]
    response = alice_api.post(
        f"/api/v1/debts/{debt_id}/payments",
        {"amount": "1000", "paid_on": (today + dt.timedelta(days=1)).isoformat()},
        format="json",
    )
    error = assert_error(response, 400, "FUTURE_PAYMENT")
    assert error["fields"] == {"paid_on": ["A payment cannot be dated after today."]}
    assert not DebtPayment.objects.exists()
    accepted = alice_api.post(
        f"/api/v1/debts/{debt_id}/payments", {"amount": "1000", "paid_on": today.isoformat()}, format="json"
    )
    assert accepted.status_code == 201
    assert list(DebtPayment.objects.values_list("paid_on", flat=True)) == [today]


def test_a_payment_linked_to_another_users_row_is_a_404(alice_api, bob):
    debt_id = create(alice_api).json()["id"]
    row = factories.txn(bob, amount="1000")
    response = alice_api.post(
        f"/api/v1/debts/{debt_id}/payments", {"amount": "1000", "transaction": row.id}, format="json"
    )
    assert response.status_code == 404
    assert not DebtPayment.objects.exists()


def _bank_account(api):
    return api.post(
        "/api/v1/assets",
        {"name": "VCB", "kind": "bank_account", "bank_bin": "970436", "account_number": "0071000012345"},
        format="json",
    ).json()["id"]


def test_the_vietqr_asks_for_what_is_still_owed_with_the_debts_code(alice_api):
    debt = create(alice_api).json()
    account = _bank_account(alice_api)
    alice_api.post(f"/api/v1/debts/{debt['id']}/payments", {"amount": "500000"}, format="json")
    response = alice_api.get(f"/api/v1/debts/{debt['id']}/vietqr?account={account}")
    assert response.status_code == 200
    body = response.json()
    assert body["code"] == debt["code"]
    read = alice_api.post("/api/v1/vietqr/parse", {"payload": body["payload"]}, format="json").json()
    assert (read["bank_bin"], read["account"], read["amount"], read["purpose"]) == (
        "970436",
        "0071000012345",
        "2500000",
        debt["code"],
    )
    assert body["svg"].startswith("<svg")


@pytest.mark.parametrize("query", ["", "?account=", "?account=abc", "?account=999999"])
def test_the_vietqr_needs_a_usable_account(alice_api, query):
    debt_id = create(alice_api).json()["id"]
    assert_error(alice_api.get(f"/api/v1/debts/{debt_id}/vietqr{query}"), 400, "ACCOUNT_REQUIRED")


def test_a_cash_asset_is_not_a_usable_account(alice_api, alice):
    debt_id = create(alice_api).json()["id"]
    cash = factories.asset(alice, kind="cash")
    assert_error(alice_api.get(f"/api/v1/debts/{debt_id}/vietqr?account={cash.id}"), 400, "ACCOUNT_REQUIRED")


def test_a_sepay_delivery_carrying_the_code_settles_the_debt(alice_api, alice, django_capture_on_commit_callbacks):
    debt = create(alice_api, installments=None, first_due_on=None, principal="500000").json()
    connection = alice_api.post("/api/v1/integrations/sepay", {"auth": "api_key"}, format="json").json()
    body = payload(
        id=555,
        transferType="in",
        transferAmount=500000,
        content=f"MINH CK {debt['code'].lower()} FT2633",
        description="",
    )
    for _ in range(2):  # SePay's retry pays nothing twice
        with django_capture_on_commit_callbacks(execute=True):
            assert deliver(Client(), connection, body).status_code == 200
    settled = alice_api.get(f"/api/v1/debts/{debt['id']}").json()
    assert settled["status"] == "settled"
    assert settled["payments"][0]["transaction"] == Transaction.objects.get(external_id="sepay:555").id
    assert DebtPayment.objects.count() == 1
    assert alice.notifications.filter(kind="debt_settled").count() == 1


def test_a_delivery_without_a_code_pays_nothing(alice_api, django_capture_on_commit_callbacks):
    create(alice_api)
    connection = alice_api.post("/api/v1/integrations/sepay", {"auth": "api_key"}, format="json").json()
    with django_capture_on_commit_callbacks(execute=True):
        deliver(Client(), connection, payload(id=556, transferType="in", content="chuyen tien"))
    assert not DebtPayment.objects.exists()


def test_new_terms_owing_less_than_what_is_paid_are_a_400_and_change_nothing(alice_api):
    debt_id = create(alice_api).json()["id"]
    alice_api.post(f"/api/v1/debts/{debt_id}/payments", {"amount": "2tr"}, format="json")
    before = alice_api.get(f"/api/v1/debts/{debt_id}").json()
    assert_error(
        alice_api.patch(f"/api/v1/debts/{debt_id}", {"principal": "1tr"}, format="json"), 400, "PAID_MORE_THAN_OWED"
    )
    assert alice_api.get(f"/api/v1/debts/{debt_id}").json() == before
    # Exactly what is paid settles it; the payments stay as they were.
    settled = alice_api.patch(f"/api/v1/debts/{debt_id}", {"principal": "2tr"}, format="json").json()
    assert (settled["status"], settled["outstanding"], settled["paid"]) == ("settled", "0", "2000000")
