import csv
import datetime as dt
import io
import json
import uuid

import pytest
from django.utils import timezone

from tests import factories
from tests.zeus.account_data.conftest import read_zip, rich_ledger
from zeus.models import AccountExport, Notification


@pytest.fixture
def export_of(django_capture_on_commit_callbacks):
    """Asks for an export and runs what the request left for after its commit (the job, eager in tests)."""

    def ask(api) -> dict:
        with django_capture_on_commit_callbacks(execute=True):
            response = api.post("/api/v1/account/export")
        assert response.status_code == 202, response.content
        return response.json()

    return ask


def _download(api, export_id):
    return api.get(f"/api/v1/account/exports/{export_id}/download")


def test_an_export_is_built_by_the_job_and_announced_in_the_inbox(export_of, alice, alice_api):
    factories.txn(alice, amount="125000.00", description="Phở", occurred_on=dt.date(2026, 11, 2))
    started = export_of(alice_api)
    assert started["status"] == "pending"  # answered before the job ran

    listed = alice_api.get("/api/v1/account/exports").json()["results"]
    assert [e["id"] for e in listed] == [started["id"]]
    assert listed[0]["status"] == "ready" and listed[0]["size"] > 0
    expires = dt.datetime.fromisoformat(listed[0]["expires_at"])
    assert dt.timedelta(days=6, hours=23) < expires - timezone.now() <= dt.timedelta(days=7)

    notice = Notification.objects.get(user=alice, kind="account_export_ready")
    assert notice.cta_url == f"/account/exports/{started['id']}/download"
    response = _download(alice_api, started["id"])
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    files = read_zip(b"".join(response.streaming_content))
    manifest = json.loads(files["manifest.json"])
    assert manifest["format"] == "zeus-account-export" and manifest["version"] == 1
    assert manifest["account"]["username"] == "alice" and "password" not in manifest["account"]
    assert manifest["records"]["assets.Transaction"] == 1
    [row] = json.loads(files["records/assets.Transaction.json"])
    assert row["amount"] == "125000.0000"  # a decimal as text, as the column holds it (numeric(19, 4))
    assert row["occurred_on"] == "2026-11-02"
    assert dt.datetime.fromisoformat(row["created_at"]).tzinfo is not None


def test_a_second_request_while_one_is_on_its_way_returns_that_one(export_of, alice, alice_api, settings):
    pending = AccountExport.objects.create(user=alice)
    assert export_of(alice_api)["id"] == str(pending.id)
    assert AccountExport.objects.filter(user=alice).count() == 1


def test_the_export_holds_every_owned_record_without_secrets_and_a_formula_safe_csv(export_of, alice, alice_api):
    rich_ledger(alice)
    connection = alice_api.post("/api/v1/integrations/sepay", {"name": "VCB", "auth": "api_key"}, format="json")
    assert connection.status_code == 201, connection.content
    files = read_zip(b"".join(_download(alice_api, export_of(alice_api)["id"]).streaming_content))
    manifest = json.loads(files["manifest.json"])
    for label in ("assets.Transfer", "assets.TransactionSplit", "goals.Debt", "goals.DebtPayment", "plans.MonthlyPlan",
                  "suggestions.Suggestion", "chat.Thread", "chat.Message", "zeus.Profile", "assets.UserCategory",
                  "assets.CategoryRule", "goals.Budget", "goals.Goal", "zeus.Notification"):  # fmt: skip
        assert manifest["records"][label] > 0, label
    [feed] = json.loads(files["records/assets.SepayConnection.json"])
    assert feed["name"] == "VCB"
    assert not {"token", "secret_encrypted", "api_token_encrypted"} & set(feed)
    assert "records/chat.McpToken.json" not in files and "records/zeus.DeviceToken.json" not in files
    ids = [r["id"] for r in json.loads(files["records/assets.Transaction.json"])]
    assert ids == sorted(ids)  # oldest first, the same every time

    rows = list(csv.reader(io.StringIO(files["csv/transactions.csv"].decode("utf-8-sig"))))
    assert rows[0][:3] == ["date", "description", "amount"]
    assert len(rows) - 1 == manifest["records"]["assets.Transaction"]
    assert [r[1] for r in rows if "calc" in r[1]] == ["'=cmd|' /C calc'!A0"]


def test_only_the_owner_downloads_and_an_expired_export_is_gone(export_of, alice, alice_api, bob_api):
    export_id = export_of(alice_api)["id"]
    assert _download(bob_api, export_id).status_code == 404
    assert _download(alice_api, uuid.uuid4()).status_code == 404
    AccountExport.objects.filter(id=export_id).update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    response = _download(alice_api, export_id)
    assert response.status_code == 410 and response.json()["error"]["code"] == "EXPORT_EXPIRED"


def test_the_expiry_job_deletes_the_file_and_the_link_stays_gone(export_of, alice, alice_api, media):
    from zeus.account_data.tasks import expire_account_exports

    export = AccountExport.objects.get(id=export_of(alice_api)["id"])
    path = media / export.file.name
    assert path.exists()
    assert expire_account_exports() == 0  # not yet
    AccountExport.objects.filter(id=export.id).update(expires_at=timezone.now() - dt.timedelta(minutes=1))
    assert expire_account_exports() == 1
    assert not path.exists()
    assert _download(alice_api, export.id).status_code == 410


def test_an_export_not_built_yet_is_not_ready(alice, alice_api):
    export = AccountExport.objects.create(user=alice, status="running")
    response = _download(alice_api, export.id)
    assert response.status_code == 400 and response.json()["error"]["code"] == "EXPORT_NOT_READY"


def test_the_job_builds_a_claimed_export_once(alice):
    from zeus.account_data.tasks import build_account_export

    export = AccountExport.objects.create(user=alice)
    assert build_account_export(str(export.id)) == "ready"
    assert build_account_export(str(export.id)) == "skipped"
    assert build_account_export(str(uuid.uuid4())) == "skipped"
    assert Notification.objects.filter(user=alice, kind="account_export_ready").count() == 1


def test_export_needs_a_sign_in(anon_api):
    assert anon_api.post("/api/v1/account/export").status_code in (401, 403)


def test_the_export_reads_a_fixed_number_of_queries_however_long_the_ledger(alice, bob):
    import io

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from zeus.account_data.export import archive_write

    wallet = factories.asset(alice)
    factories.txn(alice, asset=wallet)
    for n in range(40):
        factories.txn(bob, asset=factories.asset(bob, name=f"W{n}"), description=f"row {n}")

    def queries(user) -> int:
        with CaptureQueriesContext(connection) as captured:
            archive_write(user=user, out=io.BytesIO(), now=timezone.now())
        return len(captured)

    assert queries(bob) == queries(alice)
