"""Casso's webhook (v2, signed) and the daily reconciliation against loopback SePay and Casso APIs."""

import datetime as dt
import json
import threading
import time
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core.management import call_command

from assets.feeds import casso
from assets.feeds.reconcile import feeds_reconcile
from assets.models import LinkedAccount, Transaction
from assets.services import transaction_create
from tests import factories
from tests.assets.feeds.sepay import deliver as sepay_deliver
from tests.assets.feeds.sepay import payload as sepay_payload
from tests.assets.helpers import assert_error


def casso_body(**overrides) -> dict:
    data = {
        "id": 5061,
        "reference": "FT26334000123",
        "description": "NGUYEN VAN A chuyen tien an trua",
        "amount": 150000,
        "runningBalance": 2150000,
        "transactionDateTime": "2026-11-30 12:05:00",
        "accountNumber": "0071000123456",
        "bankName": "Vietcombank",
        "bankAbbreviation": "VCB",
        "virtualAccountNumber": "",
        "virtualAccountName": "",
        "counterAccountName": "NGUYEN VAN A",
        "counterAccountNumber": "0011001234567",
        "counterAccountBankId": "970436",
        "counterAccountBankName": "Vietcombank",
    }
    data.update(overrides)
    return {"error": 0, "data": data}


def post_casso(client, connection: dict, body: dict, *, secret=None, stamp=None, signature=None):
    stamp = int(time.time() * 1000) if stamp is None else stamp
    header = signature if signature is not None else casso.sign(secret or connection["secret"], stamp, body)
    raw = json.dumps(body, indent=2).encode()  # Casso's spacing is not what is signed: the sorted form is
    return client.post(connection["webhook_url"], raw, content_type="application/json", HTTP_X_CASSO_SIGNATURE=header)


@pytest.fixture
def connection(alice_api):
    created = alice_api.post("/api/v1/integrations/casso", {"name": "VCB qua Casso"}, format="json")
    assert created.status_code == 201, created.content
    return created.json()


@pytest.mark.django_db
def test_a_signed_casso_delivery_lands_once(alice, alice_api, client, connection):
    assert connection["webhook_url"].startswith("http") and connection["secret"]
    assert post_casso(client, connection, casso_body()).json() == {"success": True}
    assert post_casso(client, connection, casso_body()).json() == {"success": True}  # Casso's retry
    txn = Transaction.objects.get(user=alice)
    got = (txn.external_id, txn.amount, txn.direction, txn.source)
    assert got == ("casso:5061", Decimal(150000), "income", "synced")
    assert str(txn.occurred_on) == "2026-11-30"
    account = LinkedAccount.objects.get(user=alice)
    assert (account.masked_number, account.balance) == ("•••• 3456", Decimal(2150000))
    out = post_casso(client, connection, casso_body(id=5062, amount=-45000, runningBalance=2105000))
    assert out.status_code == 200
    assert Transaction.objects.get(external_id="casso:5062").direction == "expense"
    listed = alice_api.get("/api/v1/integrations/casso").json()["results"]
    assert [c["name"] for c in listed] == ["VCB qua Casso"] and "secret" not in listed[0]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("how", "code"),
    [
        ({"signature": ""}, "SIGNATURE_REQUIRED"),
        ({"secret": "not-the-secret"}, "INVALID_SIGNATURE"),
        ({"stamp": int(time.time() * 1000) - 3600_000}, "TIMESTAMP_OUT_OF_RANGE"),
        ({"signature": "t=abc,v1=00"}, "INVALID_TIMESTAMP"),
    ],
)
def test_an_unsigned_or_forged_delivery_is_a_401_and_lands_nothing(client, connection, how, code):
    assert_error(post_casso(client, connection, casso_body(), **how), 401, code)
    assert not Transaction.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "data",
    [
        {"amount": "lots"},
        {"amount": 0},
        {"transactionDateTime": "2099-01-01 00:00:00"},
        {"accountNumber": ""},
        {"id": None},
    ],
)
def test_a_signed_but_malformed_delivery_is_a_400(client, connection, data):
    assert_error(post_casso(client, connection, casso_body(**data)), 400)
    assert not Transaction.objects.exists()


@pytest.mark.django_db
def test_an_ended_connection_answers_401_and_keeps_what_it_landed(alice_api, client, connection):
    post_casso(client, connection, casso_body())
    assert alice_api.delete(f"/api/v1/integrations/casso/{connection['id']}").status_code == 204
    assert_error(post_casso(client, connection, casso_body(id=7)), 401, "UNKNOWN_CONNECTION")
    assert Transaction.objects.count() == 1


class Provider(BaseHTTPRequestHandler):
    """SePay's and Casso's transactions APIs, on a loopback port, with what the tests put in `records`."""

    sepay: list = []
    casso: list = []
    down = False
    seen: list = []

    def do_GET(self):
        Provider.seen.append((self.path, self.headers.get("Authorization")))
        if Provider.down:
            self.send_response(502)
            self.end_headers()
            return
        if self.path.startswith("/userapi/transactions/list") and self.headers.get("Authorization") == "Bearer tok":
            body = {"status": 200, "error": None, "messages": {"success": True}, "transactions": Provider.sepay}
        elif self.path.startswith("/v2/transactions") and self.headers.get("Authorization") == "Apikey key":
            records = Provider.casso
            body = {"error": 0, "message": "success", "data": {"page": 1, "totalPages": 1, "records": records}}
        else:
            body = {"error": 401, "message": "unauthorized"}
        raw = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, *args):
        pass


@pytest.fixture
def provider(settings):
    server = ThreadingHTTPServer(("127.0.0.1", 0), Provider)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_port}"
    settings.ZEUS_SEPAY_API_URL = settings.ZEUS_CASSO_API_URL = base
    Provider.sepay, Provider.casso, Provider.down, Provider.seen = [], [], False, []
    yield Provider
    server.shutdown()
    server.server_close()


def sepay_record(sepay_id: int, amount_in="0.00", amount_out="0.00", when="2026-11-30 14:02:37") -> dict:
    return {
        "id": str(sepay_id),
        "bank_brand_name": "Vietcombank",
        "account_number": "0123499999",
        "transaction_date": when,
        "amount_out": amount_out,
        "amount_in": amount_in,
        "accumulated": "19077000.00",
        "transaction_content": "KFC NGUYEN HUE thanh toan",
        "reference_number": "MBVCB.3278907687",
        "code": None,
        "sub_account": None,
        "bank_account_id": "19",
    }


@pytest.mark.django_db
def test_the_daily_pull_lands_what_lost_webhooks_missed_and_nothing_twice(alice, alice_api, client, provider):
    sepay = alice_api.post("/api/v1/integrations/sepay", {"auth": "api_key"}, format="json").json()
    assert sepay_deliver(client, sepay, sepay_payload(id=92704)).status_code == 200  # the webhook that arrived
    put = alice_api.put(f"/api/v1/integrations/sepay/{sepay['id']}/api-key", {"api_key": "tok"}, format="json")
    assert put.status_code == 204
    cas = alice_api.post("/api/v1/integrations/casso", {"api_key": "key"}, format="json").json()
    provider.sepay = [sepay_record(92704, amount_out="150000.00"), sepay_record(92705, amount_in="2000000.00")]
    provider.casso = [
        {"id": 88, "tid": "FT1", "description": "LUONG T11", "amount": 30000000, "cusumBalance": 31000000,
         "when": "2026-11-29 09:00:00", "bankSubAccId": "0071000123456", "bankCodeName": "vietcombank"},
    ]  # fmt: skip
    report = feeds_reconcile(days=7)
    assert (report.connections, report.landed, report.known, report.failed) == (2, 2, 1, [])
    ids = set(Transaction.objects.filter(user=alice).values_list("external_id", flat=True))
    assert ids == {"sepay:92704", "sepay:92705", "casso:88"}
    # The SePay account the webhook made is the one the pull lands on.
    assert LinkedAccount.objects.filter(user=alice, feed_key__startswith="sepay:").count() == 1
    again = feeds_reconcile(days=7)
    assert (again.landed, again.known) == (0, 3)
    assert Transaction.objects.filter(user=alice).count() == 3
    assert ("Bearer tok" in {auth for _, auth in provider.seen}) and ("Apikey key" in {a for _, a in provider.seen})
    assert cas["reconciles"] is True


@pytest.mark.django_db
def test_a_provider_that_fails_is_counted_and_the_command_reports_it(alice, alice_api, provider, capsys):
    cas = alice_api.post("/api/v1/integrations/casso", {"api_key": "key"}, format="json").json()
    provider.down = True
    report = feeds_reconcile()
    assert report.failed == [f"casso:{cas['id']}"] and not Transaction.objects.exists()
    provider.down = False
    provider.casso = [
        {"id": 9, "description": "X", "amount": -5000, "when": "2026-11-30 09:00:00", "bankSubAccId": "123456789"}
    ]
    call_command("reconcile_feeds", "--user", "alice", "--days", "2")
    assert "landed 1" in capsys.readouterr().out
    assert Transaction.objects.get().direction == "expense"


@pytest.mark.django_db
def test_an_api_key_is_set_only_on_ones_own_connection(alice_api, bob_api):
    cas = alice_api.post("/api/v1/integrations/casso", {}, format="json").json()
    assert cas["reconciles"] is False
    answer = bob_api.put(f"/api/v1/integrations/casso/{cas['id']}/api-key", {"api_key": "x"}, format="json")
    assert_error(answer, 404)


@pytest.mark.django_db
def test_a_locked_account_is_not_pulled_but_its_webhooks_land_until_it_cancels(alice, alice_api, client, provider):
    from django.utils import timezone

    from zeus.account_data.erasure import account_erasure_cancel, account_erasure_request

    sepay = alice_api.post("/api/v1/integrations/sepay", {"auth": "api_key"}, format="json").json()
    alice_api.put(f"/api/v1/integrations/sepay/{sepay['id']}/api-key", {"api_key": "tok"}, format="json")
    alice_api.post("/api/v1/integrations/casso", {"api_key": "key"}, format="json")
    provider.sepay = [sepay_record(92705, amount_in="2000000.00")]
    account_erasure_request(user=alice, now=timezone.now())
    report = feeds_reconcile(days=7)
    assert (report.connections, report.landed) == (0, 0) and provider.seen == []
    # Money arriving during the grace is a fact: the webhook is still accepted (and erased with the rest).
    assert sepay_deliver(client, sepay, sepay_payload(id=92704)).status_code == 200
    assert list(Transaction.objects.filter(user=alice).values_list("external_id", flat=True)) == ["sepay:92704"]

    account_erasure_cancel(user=alice)
    report = feeds_reconcile(days=7)
    assert (report.connections, report.landed) == (2, 1)


@pytest.mark.django_db
def test_a_casso_row_is_paired_with_its_other_side_on_arrival(alice, client, connection):
    """Rows from every feed are paired on arrival (docs/ledger.md, "Pairing"): money sent from a wallet that
    Casso then reports arriving at the bank is one transfer, not spending and income."""
    wallet = factories.asset(alice, name="MoMo", kind="e_wallet")
    sent = transaction_create(
        user=alice, amount="150000", direction="expense", occurred_on=dt.date(2026, 11, 30), asset_id=wallet.id
    )
    assert post_casso(client, connection, casso_body()).status_code == 200
    arrived = Transaction.objects.get(external_id="casso:5061")
    sent.refresh_from_db()
    assert arrived.transfer_id is not None and arrived.transfer_id == sent.transfer_id
