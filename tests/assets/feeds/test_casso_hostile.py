"""Casso as a hostile or sloppy sender would try it, and its transactions API as Casso documents it: what no
row can hold is a 400 (webhook) or skipped (pull), never a 500 nor a pull that stops everyone's; a payment
seen by the webhook and by the pull, even at the same moment, lands once on one account."""

import time

import pytest
from django.test import Client

from assets.feeds.reconcile import feeds_reconcile
from assets.models import Asset, LinkedAccount, Transaction
from tests import factories
from tests.assets.feeds.test_casso import casso_body, post_casso, provider, sepay_record  # noqa: F401
from tests.assets.feeds.test_sepay import api_for
from tests.assets.helpers import assert_error
from tests.race import at_once


@pytest.fixture
def connection(alice_api):
    return alice_api.post("/api/v1/integrations/casso", {"name": "VCB", "api_key": "key"}, format="json").json()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "data",
    [
        {"bankName": "Vietcom\x00bank"},
        {"id": "50\x0061"},
        {"accountNumber": "0071\x00123456"},
        {"description": "an trua \ud800"},
        {"id": "x" * 61},
        {"amount": 0.4},
        {"amount": -0.4},
        {"amount": 150000.5},
        {"transactionDateTime": "0001-01-01 00:00:00"},
        {"transactionDateTime": "1999-12-31 23:59:59"},
    ],
    ids=["nul-bank", "nul-id", "nul-account", "surrogate", "long-id", "fraction", "minus-fraction", "half-dong",
         "year-1", "before-2000"],
)  # fmt: skip
def test_a_signed_delivery_no_row_can_hold_is_a_400_and_lands_nothing(alice, client, connection, data):
    assert_error(post_casso(client, connection, casso_body(**data)), 400, "INVALID_PAYLOAD")
    assert not Transaction.objects.exists() and not LinkedAccount.objects.exists()


def casso_record(casso_id, when, **more) -> dict:
    record = {"id": casso_id, "tid": f"FT{casso_id}", "description": "LUONG T11", "amount": 30000000,
              "when": when, "bankSubAccId": "0071000123456", "bankCodeName": "vcb_digi"}  # fmt: skip
    record.update(more)
    return record


@pytest.mark.django_db
def test_the_pull_reads_records_in_the_shapes_casso_documents(alice, client, connection, provider):  # noqa: F811
    """Casso's API writes `when` as `2021-04-15T00:00:00` or a bare day and the balance as `cusum_balance`;
    its bank is a code name (`acb_digi`) where the webhook names the bank: the same account either way."""
    assert post_casso(client, connection, casso_body(id=87, bankName="Vietcombank")).status_code == 200
    provider.casso = [
        casso_record(88, "2026-11-29T09:00:00", cusum_balance=32150000),
        casso_record(89, "2026-11-28", amount=-50000),
        casso_record(87, "2026-11-30T12:05:00", amount=150000),
    ]
    report = feeds_reconcile(days=7)
    assert (report.landed, report.known, report.failed) == (2, 1, [])
    got = dict(Transaction.objects.filter(user=alice).values_list("external_id", "occurred_on"))
    assert {k: str(v) for k, v in got.items()} == {
        "casso:87": "2026-11-30",
        "casso:88": "2026-11-29",
        "casso:89": "2026-11-28",
    }
    assert LinkedAccount.objects.filter(user=alice).count() == 1 and Asset.objects.filter(user=alice).count() == 1


@pytest.mark.django_db
def test_a_pulled_record_no_row_can_hold_is_skipped_and_the_pull_goes_on(alice, alice_api, connection, provider):  # noqa: F811
    sepay = alice_api.post("/api/v1/integrations/sepay", {"auth": "api_key"}, format="json").json()
    alice_api.put(f"/api/v1/integrations/sepay/{sepay['id']}/api-key", {"api_key": "tok"}, format="json")
    provider.sepay = [
        {**sepay_record(1, amount_in="2000000.00"), "bank_brand_name": "Vietcom\x00bank"},
        sepay_record(2, amount_in="0.40"),
        sepay_record(3, amount_in="NaN"),
        sepay_record(4, amount_in="5000.00", when="0001-01-01 00:00:00"),
        {**sepay_record(5, amount_in="5000.00"), "transaction_content": "x \ud800"},
        sepay_record(6, amount_in="2000000.00"),
    ]
    provider.casso = [
        casso_record(11, "2026-11-29T09:00:00", bankCodeName="v\x00cb"),
        casso_record(12, "2026-11-29T09:00:00", amount=0.4),
        casso_record(13, "0001-01-01T00:00:00"),
        casso_record(14, "2026-11-29T09:00:00"),
    ]
    report = feeds_reconcile(days=7)
    assert (report.landed, report.failed) == (2, [])
    ids = set(Transaction.objects.filter(user=alice).values_list("external_id", flat=True))
    assert ids == {"sepay:6", "casso:14"}


@pytest.mark.django_db(transaction=True)
def test_a_webhook_arriving_during_the_pull_lands_each_payment_once(provider):  # noqa: F811
    alice = factories.user("alice")
    api = api_for(alice)
    connection = api.post("/api/v1/integrations/casso", {"name": "VCB", "api_key": "key"}, format="json").json()
    ids = range(100, 130)
    provider.casso = [casso_record(i, "2026-11-30T12:05:00", amount=1000 + i) for i in ids]
    bodies = [casso_body(id=i, amount=1000 + i, bankName="Vietcombank") for i in ids]

    def webhooks():
        return [post_casso(Client(), connection, body).status_code for body in bodies]

    for _ in range(2):
        answers, report = at_once(webhooks, lambda: feeds_reconcile(days=7))
        assert answers == [200] * len(bodies) and report.failed == []
    rows = list(Transaction.objects.filter(user=alice).values_list("external_id", flat=True))
    assert sorted(rows) == sorted(f"casso:{i}" for i in ids)
    assert LinkedAccount.objects.filter(user=alice).count() == 1 and Asset.objects.filter(user=alice).count() == 1
    assert report.landed + report.known == len(bodies)


@pytest.mark.django_db
def test_a_forged_body_with_a_lone_surrogate_is_a_401_not_a_500(client, connection):
    raw = b'{"error": 0, "data": {"id": 1, "description": "\\ud800"}}'
    stamp = int(time.time() * 1000)
    answer = client.post(
        connection["webhook_url"], raw, content_type="application/json", HTTP_X_CASSO_SIGNATURE=f"t={stamp},v1=00"
    )
    assert_error(answer, 401, "INVALID_SIGNATURE")
    assert not Transaction.objects.exists()
