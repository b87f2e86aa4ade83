"""A friend's transfer carrying a debt's `ZEUS<code>` settles it whichever feed brings it in: SePay's webhook
and Casso's reach the same code path (assets.feeds.providers.income_landed_announce → goals/debts/settling.py)."""

import itertools
from decimal import Decimal

import pytest
from django.test import Client

from assets.feeds.reconcile import feeds_reconcile
from assets.models import Transaction
from goals.debts.models import Debt, DebtPayment
from tests.assets.feeds import sepay
from tests.assets.feeds.test_casso import Provider, casso_body, post_casso, provider  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

_ids = itertools.count(7001)


class Sepay:
    name = "sepay"

    def __init__(self, api):
        self.connection = api.post("/api/v1/integrations/sepay", {"auth": "api_key"}, format="json").json()

    def deliver(self, *, feed_id: int, amount: int, text: str):
        body = sepay.payload(id=feed_id, transferType="in", transferAmount=amount, content=text, description="")
        return sepay.deliver(Client(), self.connection, body)

    def external_id(self, feed_id: int) -> str:
        return f"sepay:{feed_id}"


class Casso:
    name = "casso"

    def __init__(self, api):
        self.connection = api.post("/api/v1/integrations/casso", {"name": "VCB"}, format="json").json()

    def deliver(self, *, feed_id: int, amount: int, text: str):
        return post_casso(Client(), self.connection, casso_body(id=feed_id, amount=amount, description=text))

    def external_id(self, feed_id: int) -> str:
        return f"casso:{feed_id}"


@pytest.fixture(params=[Sepay, Casso], ids=["sepay", "casso"])
def feed(request, alice_api):
    return request.param(alice_api)


@pytest.fixture
def debt(alice_api):
    body = {"direction": "owed_to_me", "counterparty": "Minh", "principal": "500000", "opened_on": "2026-11-01"}
    created = alice_api.post("/api/v1/debts", body, format="json")
    assert created.status_code == 201, created.content
    return created.json()


def arrive(feed, capture, *, amount: int, text: str, feed_id: int | None = None) -> int:
    feed_id = feed_id or next(_ids)
    with capture(execute=True):
        assert feed.deliver(feed_id=feed_id, amount=amount, text=text).status_code == 200
    return feed_id


def test_the_whole_amount_settles_the_debt(feed, debt, alice, alice_api, django_capture_on_commit_callbacks):
    feed_id = arrive(feed, django_capture_on_commit_callbacks, amount=500000, text=f"MINH CK {debt['code']} FT2633")
    got = alice_api.get(f"/api/v1/debts/{debt['id']}").json()
    assert (got["status"], got["outstanding"]) == ("settled", "0")
    row = Transaction.objects.get(external_id=feed.external_id(feed_id))
    assert got["payments"][0]["transaction"] == row.id
    assert alice.notifications.filter(kind="debt_settled").count() == 1


def test_a_partial_payment_leaves_the_rest_owed(feed, debt, alice, alice_api, django_capture_on_commit_callbacks):
    # Banking apps lower-case and glue the content: the code is still found.
    arrive(feed, django_capture_on_commit_callbacks, amount=200000, text=f"ck {debt['code'].lower()} tra truoc")
    got = alice_api.get(f"/api/v1/debts/{debt['id']}").json()
    assert (got["status"], got["paid"], got["outstanding"]) == ("open", "200000", "300000")
    assert alice.notifications.filter(kind="debt_settled").count() == 1


def test_an_overpayment_records_what_was_owed_and_keeps_the_rest_as_income(
    feed, debt, alice_api, django_capture_on_commit_callbacks
):
    arrive(feed, django_capture_on_commit_callbacks, amount=200000, text=f"{debt['code']} lan 1")
    feed_id = arrive(feed, django_capture_on_commit_callbacks, amount=450000, text=f"{debt['code']} lan 2")
    got = alice_api.get(f"/api/v1/debts/{debt['id']}").json()
    assert got["status"] == "settled"
    assert sorted(p["amount"] for p in got["payments"]) == ["200000", "300000"]
    row = Transaction.objects.get(external_id=feed.external_id(feed_id))
    assert (row.amount, row.direction, row.excluded) == (Decimal(450000), "income", False)


def test_a_redelivery_pays_nothing_twice(feed, debt, alice, django_capture_on_commit_callbacks):
    feed_id = arrive(feed, django_capture_on_commit_callbacks, amount=100000, text=debt["code"])
    arrive(feed, django_capture_on_commit_callbacks, amount=100000, text=debt["code"], feed_id=feed_id)
    assert DebtPayment.objects.count() == 1
    assert Debt.objects.get(id=debt["id"]).status == "open"
    assert alice.notifications.filter(kind="debt_settled").count() == 1


def test_money_going_out_or_without_a_code_pays_nothing(feed, debt, django_capture_on_commit_callbacks):
    arrive(feed, django_capture_on_commit_callbacks, amount=500000, text="chuyen tien an trua")
    if feed.name == "casso":
        arrive(feed, django_capture_on_commit_callbacks, amount=-500000, text=debt["code"])
    else:
        with django_capture_on_commit_callbacks(execute=True):
            body = sepay.payload(id=next(_ids), transferType="out", transferAmount=500000, content=debt["code"])
            assert sepay.deliver(Client(), feed.connection, body).status_code == 200
    assert not DebtPayment.objects.exists()


@pytest.mark.usefixtures("provider")
def test_a_payment_only_the_daily_pull_brought_in_settles_too(debt, alice_api, django_capture_on_commit_callbacks):
    alice_api.post("/api/v1/integrations/casso", {"api_key": "key"}, format="json")
    Provider.casso = [
        {"id": 991, "tid": "FT9", "description": f"MINH TRA NO {debt['code']}", "amount": 500000,
         "cusumBalance": 1500000, "when": "2026-11-29 09:00:00", "bankSubAccId": "0071000123456",
         "bankCodeName": "vietcombank"},
    ]  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        assert feeds_reconcile(days=7).landed == 1
    assert alice_api.get(f"/api/v1/debts/{debt['id']}").json()["status"] == "settled"


def test_an_overpayment_delivered_twice_settles_once_and_tells_once(
    feed, debt, alice, alice_api, django_capture_on_commit_callbacks
):
    feed_id = arrive(feed, django_capture_on_commit_callbacks, amount=700000, text=f"tra no {debt['code']}")
    arrive(feed, django_capture_on_commit_callbacks, amount=700000, text=f"tra no {debt['code']}", feed_id=feed_id)
    got = alice_api.get(f"/api/v1/debts/{debt['id']}").json()
    assert (got["status"], got["paid"], got["outstanding"]) == ("settled", "500000", "0")
    assert [p["amount"] for p in got["payments"]] == ["500000"]
    assert Transaction.objects.filter(external_id=feed.external_id(feed_id)).count() == 1
    (notice,) = alice.notifications.filter(kind="debt_settled")
    assert "Minh" in notice.title
