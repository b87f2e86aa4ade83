import io
import json
import threading
import zipfile

import psycopg
import pytest
from django.db import connection

from assets.models import Transaction, TransactionSplit, Transfer
from assets.selectors import transaction_list, transaction_totals
from assets.summary import ledger_summary
from goals.debts.models import Debt
from goals.selectors import budget_statuses
from plans.selectors import plan_current, plan_state
from tests import factories
from tests.database import conninfo
from tests.zeus.account_data.conftest import make_zip, read_zip, rich_ledger
from zeus.account_data.export import archive_write
from zeus.account_data.registry import record_for
from zeus.account_data.restore import account_import
from zeus.models import Profile
from zeus.timeutil import user_today


def export_bytes(user) -> bytes:
    from django.utils import timezone

    out = io.BytesIO()
    archive_write(user=user, out=out, now=timezone.now())
    return out.getvalue()


def upload(data: bytes, name="export.zip"):
    file = io.BytesIO(data)
    file.name = name
    return file


def post(api, data: bytes):
    return api.post("/api/v1/account/import", {"file": upload(data)}, format="multipart")


def figures(user) -> dict:
    today = user_today(user)
    currency = user.profile.currency
    summary = ledger_summary(user=user, currency=currency, today=today)
    plan = plan_current(user=user, today=today)
    state = plan_state(plan, today=today)
    return {
        "net_worth": summary.net_worth,
        "spending": summary.spending_by_category,
        "month_totals": transaction_totals(transaction_list(user=user)),
        "budgets": [(b.budget.category, b.budget.amount, b.spent, b.remaining) for b in budget_statuses(user=user)],
        "plan": (plan.month, plan.expected_income, state.allocations, state.actuals, state.guide),
    }


def rows_without_ids(files: dict) -> dict[str, list[str]]:
    """Each record's rows with their own id and every id pointing elsewhere taken out, as sorted JSON."""
    out = {}
    for name, raw in files.items():
        if not name.startswith("records/"):
            continue
        label = name.removeprefix("records/").removesuffix(".json")
        record = record_for(label)
        model = record.model
        links = {f.attname for f in model._meta.concrete_fields if f.is_relation} | set(record.references)
        links |= set(record.fresh)
        rows = [{k: v for k, v in row.items() if k != "id" and k not in links} for row in json.loads(raw)]
        out[label] = sorted(json.dumps(r, sort_keys=True) for r in rows)
    return out


def test_an_export_restored_into_a_new_account_gives_the_same_rows_and_figures(alice, django_user_model):
    rich_ledger(alice)
    carol = factories.user("carol")
    data = export_bytes(alice)

    counts = account_import(user=carol, upload=upload(data))

    assert counts["assets.Transaction"] == Transaction.objects.filter(user=alice).count() > 100
    assert figures(carol) == figures(alice)
    before, after = read_zip(data), read_zip(export_bytes(carol))
    mine, theirs = rows_without_ids(before), rows_without_ids(after)
    restored = {label for label in mine if record_for(label).restored}
    assert [label for label in sorted(restored) if not mine[label]] == []  # every restored type has rows here
    assert {label: mine[label] for label in restored} == {label: theirs[label] for label in restored}
    # Relations kept: each transfer joins the same two rows, each split part sits on the same row.
    pairs = lambda user: sorted(  # noqa: E731
        (t.outgoing.description, t.incoming.description, str(t.outgoing.amount))
        for t in Transfer.objects.filter(user=user)
    )
    assert pairs(carol) == pairs(alice) != []
    parts = lambda user: sorted(  # noqa: E731
        (s.transaction.description, str(s.amount), s.user_category.name_en if s.user_category else "")
        for s in TransactionSplit.objects.filter(transaction__user=user)
    )
    assert parts(carol) == parts(alice)
    assert not set(Transaction.objects.filter(user=carol).values_list("id", flat=True)) & set(
        Transaction.objects.filter(user=alice).values_list("id", flat=True)
    )
    # A bare id (an approval's thread) and a nullable key (a draft's duplicate) name the new account's rows.
    from django.apps import apps

    threads = set(apps.get_model("chat.Thread").objects.filter(user=carol).values_list("id", flat=True))
    assert apps.get_model("chat.Approval").objects.get(user=carol).thread_id in threads
    draft = apps.get_model("assets.BankTextDraft").objects.get(user=carol)
    assert draft.duplicate_of.user_id == carol.id
    # A debt's code is Zeus-wide: the copy has a new one.
    assert not set(Debt.objects.filter(user=carol).values_list("code", flat=True)) & set(
        Debt.objects.filter(user=alice).values_list("code", flat=True)
    )


def _pairs(user) -> list[tuple]:
    transfers = Transfer.objects.filter(user=user).select_related("outgoing", "incoming")
    return sorted((t.outgoing.description, t.incoming.description, str(t.outgoing.amount)) for t in transfers)


def _parts(user) -> list[tuple]:
    splits = TransactionSplit.objects.filter(transaction__user=user).select_related("transaction", "user_category")
    return sorted(
        (s.transaction.description, str(s.amount), s.user_category.name_en if s.user_category else "") for s in splits
    )


def test_import_over_rest_restores_and_a_second_import_is_refused(alice, bob, bob_api):
    factories.txn(alice, amount="50000", description="Trà sữa")
    data = export_bytes(alice)
    response = post(bob_api, data)
    assert response.status_code == 201, response.content
    assert response.json()["records"]["assets.Transaction"] == 1
    again = post(bob_api, data)
    assert again.status_code == 409 and again.json()["error"]["code"] == "ACCOUNT_NOT_EMPTY"
    assert Transaction.objects.filter(user=bob).count() == 1


def _manifest(**changes) -> dict:
    manifest = {"format": "zeus-account-export", "version": 1, "account": {"id": 1}, "records": {}}
    return {**manifest, **changes}


def _bomb() -> io.BytesIO:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("manifest.json", json.dumps(_manifest()))
        archive.writestr("records/zeus.Notification.json", b"[" + b" " * (64 * 1024 * 1024) + b"]")
    return out


@pytest.mark.parametrize(
    ("members", "code"),
    [
        (None, "INVALID_ARCHIVE"),
        ({"hello.txt": "hi"}, "NOT_A_ZEUS_EXPORT"),
        ({"manifest.json": {"format": "something-else"}}, "NOT_A_ZEUS_EXPORT"),
        ({"manifest.json": _manifest(version=99)}, "UNSUPPORTED_VERSION"),
        ({"manifest.json": "{not json"}, "INVALID_RECORD"),
        ({"manifest.json": _manifest(records={"auth.User": 1}), "records/auth.User.json": []}, "UNKNOWN_RECORD_TYPE"),
        ({"manifest.json": _manifest(records={"chat.McpToken": 1}), "records/chat.McpToken.json": []},
         "UNKNOWN_RECORD_TYPE"),
        ({"manifest.json": _manifest(records={"assets.Asset": 1})}, "INVALID_RECORD"),
        ({"manifest.json": _manifest(records={"assets.Asset": 1}),
          "records/assets.Asset.json": [{"id": 1, "user_id": 1, "name": "x", "kind": "nonsense"}]}, "INVALID_RECORD"),
        ({"manifest.json": _manifest(records={"assets.Asset": 1}),
          "records/assets.Asset.json": [{"id": 1, "user_id": 2, "name": "x", "kind": "cash"}]}, "INVALID_RECORD"),
        ({"manifest.json": _manifest(records={"assets.Asset": 1}),
          "records/assets.Asset.json": [{"id": 1, "user_id": 1, "name": "a\u0000b", "kind": "cash"}]},
         "INVALID_RECORD"),
        ({"manifest.json": _manifest(records={"assets.Asset": 1}),
          "records/assets.Asset.json": [{"id": 1, "user_id": 1, "is_admin": True}]}, "INVALID_RECORD"),
        ({"manifest.json": _manifest(records={"assets.Transaction": 1}),
          "records/assets.Transaction.json": [{"id": 1, "user_id": 1, "asset_id": 77, "amount": "5",
                                               "currency": "VND", "direction": "expense",
                                               "occurred_on": "2026-01-01"}]}, "INVALID_RECORD"),
        ({"manifest.json": _manifest(records={"zeus.Notification": 1}),
          "records/zeus.Notification.json": "[" * 5000 + "]" * 5000}, "INVALID_RECORD"),
    ],
)  # fmt: skip
def test_a_bad_archive_is_refused_with_a_code_and_nothing_written(bob, bob_api, members, code):
    data = b"PK\x03\x04 this is no zip" if members is None else make_zip(members).getvalue()
    response = post(bob_api, data)
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == code
    assert not Transaction.objects.filter(user=bob).exists()


def test_a_zip_bomb_is_refused_before_it_is_unpacked(bob, bob_api):
    data = _bomb().getvalue()
    assert len(data) < 200 * 1024
    response = post(bob_api, data)
    assert response.status_code == 400 and response.json()["error"]["code"] == "ARCHIVE_BOMB"


def test_an_oversized_archive_is_refused(bob, bob_api, monkeypatch):
    from zeus.account_data import restore

    monkeypatch.setattr(restore, "MAX_ARCHIVE_BYTES", 1000)
    response = post(bob_api, export_bytes(bob) + b"\0" * 2000)
    assert response.status_code == 400 and response.json()["error"]["code"] == "ARCHIVE_TOO_LARGE"


def test_a_row_the_database_refuses_undoes_the_whole_import(alice, bob, bob_api):
    factories.txn(alice, amount="50000")
    factories.budget(alice, category="dining")
    files = read_zip(export_bytes(alice))
    budgets = json.loads(files["records/goals.Budget.json"])
    # Two budgets for one category: the database's unique constraint refuses the second, after the rows before it.
    files["records/goals.Budget.json"] = json.dumps([*budgets, {**budgets[0], "id": budgets[0]["id"] + 1}])
    files["manifest.json"] = json.loads(files["manifest.json"])  # sealed again over the changed member
    response = post(bob_api, make_zip(files).getvalue())
    assert response.status_code == 400 and response.json()["error"]["code"] == "INVALID_RECORD"
    assert not Transaction.objects.filter(user=bob).exists()
    assert Profile.objects.filter(user=bob).exists()  # the restore's replacement of the profile was undone too


def test_an_archive_changed_after_the_export_is_refused(alice, bob, bob_api):
    factories.txn(alice, amount="50000", description="Trà sữa")
    files = read_zip(export_bytes(alice))
    edited = {
        **files,
        "records/assets.Transaction.json": files["records/assets.Transaction.json"].replace(b"50000", b"90000"),
    }
    unsealed = {**json.loads(files["manifest.json"])}
    unsealed.pop("seal")
    recounted = json.loads(files["manifest.json"])
    recounted["records"]["assets.Transaction"] = 2
    for members in (
        edited,
        {**files, "manifest.json": json.dumps(unsealed)},
        {**files, "manifest.json": json.dumps(recounted)},
    ):
        response = post(bob_api, make_zip(members, sealed=False).getvalue())
        assert response.status_code == 400 and response.json()["error"]["code"] == "ARCHIVE_ALTERED"
    assert not Transaction.objects.filter(user=bob).exists()


def test_import_needs_a_file(bob_api):
    response = bob_api.post("/api/v1/account/import", {}, format="multipart")
    assert response.status_code == 400 and response.json()["error"]["code"] == "FILE_REQUIRED"


@pytest.mark.django_db(transaction=True)
def test_two_imports_into_one_account_cannot_both_find_it_empty(django_user_model):
    """The profile lock: an import waits for another writer of the account, then sees what it wrote."""
    alice = factories.user("alice")
    bob = factories.user("bob")
    factories.txn(alice, amount="1000")
    data = export_bytes(alice)
    outcome = {}
    with psycopg.connect(conninfo(), autocommit=False) as other:
        other.execute("SELECT id FROM zeus_profile WHERE user_id = %s FOR UPDATE", [bob.id])

        def run():
            try:
                outcome["counts"] = account_import(user=bob, upload=upload(data))
            except Exception as exc:
                outcome["error"] = exc
            finally:
                connection.close()

        worker = threading.Thread(target=run)
        worker.start()
        worker.join(timeout=1.5)
        assert worker.is_alive()  # waiting on the lock
        other.execute(
            "INSERT INTO assets_transaction (user_id, amount, currency, direction, category, occurred_on, description,"
            " source, created_at, updated_at) VALUES (%s, 5, 'VND', 'expense', 'dining', now()::date, 'first',"
            " 'manual', now(), now())",
            [bob.id],
        )
        other.commit()
        worker.join(timeout=30)
    assert outcome["error"].code == "ACCOUNT_NOT_EMPTY"
    assert Transaction.objects.filter(user=bob).count() == 1
