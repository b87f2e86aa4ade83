"""plans 0003 moves the spending entries into the ledger: amounts exact, the user's default spending account,
the day logged; goal entries stay; run again (back and forth), it makes no row twice."""

import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("plans", "0002_forecast_watch")]
AFTER = [("plans", "0003_plan_entries_to_ledger")]

pytestmark = pytest.mark.django_db(transaction=True)


def _migrate(plans_at):
    """Migrates plans to `plans_at` (None: its latest) and every other app to its latest; the models then."""
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    targets = [n for n in leaves if n[0] != "plans"] + (plans_at or [n for n in leaves if n[0] == "plans"])
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.fixture
def before():
    apps = _migrate(BEFORE)
    yield apps
    _migrate(None)


def test_spending_entries_become_ledger_rows_once(before):
    User = before.get_model("auth", "User")
    MonthlyPlan = before.get_model("plans", "MonthlyPlan")
    PlanEntry = before.get_model("plans", "PlanEntry")
    Asset = before.get_model("assets", "Asset")
    alice, bob = User.objects.create(username="alice"), User.objects.create(username="bob")
    Asset.objects.create(user=alice, name="Bank", kind="bank_account", currency="VND", source="manual")
    wallet = Asset.objects.create(user=alice, name="Wallet", kind="cash", currency="VND", source="manual")
    Asset.objects.create(user=alice, name="Dollars", kind="cash", currency="USD", source="manual")
    plan = MonthlyPlan.objects.create(user=alice, month=dt.date(2026, 11, 1), currency="VND", expected_income=1)
    bobs = MonthlyPlan.objects.create(user=bob, month=dt.date(2026, 11, 1), currency="USD", expected_income=1)
    for kind, amount, day, note in [
        ("discretionary", "85000", 3, "Phở"),
        ("discretionary", "1234567", 9, ""),
        ("goal", "500000", 9, "payday"),
    ]:
        PlanEntry.objects.create(plan=plan, kind=kind, amount=amount, logged_on=dt.date(2026, 11, day), note=note)
    PlanEntry.objects.create(plan=bobs, kind="discretionary", amount="12.34", logged_on=dt.date(2026, 11, 5))

    after = _migrate(AFTER)
    Transaction = after.get_model("assets", "Transaction")
    rows = Transaction.objects.order_by("user_id", "occurred_on")
    assert [
        (r.user_id, r.amount, r.currency, r.direction, r.category, r.source, r.occurred_on, r.asset_id, r.description)
        for r in rows
    ] == [
        (alice.id, Decimal("85000"), "VND", "expense", "other", "manual", dt.date(2026, 11, 3), wallet.id, "Phở"),
        (alice.id, Decimal("1234567"), "VND", "expense", "other", "manual", dt.date(2026, 11, 9), wallet.id, ""),
        (bob.id, Decimal("12.34"), "USD", "expense", "other", "manual", dt.date(2026, 11, 5), None, ""),
    ]
    left = after.get_model("plans", "PlanEntry").objects.all()
    assert [(e.plan_id, e.amount, e.note) for e in left] == [(plan.id, Decimal("500000"), "payday")]

    # Back (the goal entry takes its kind again) and forth: nothing is moved twice.
    again = _migrate(BEFORE)
    assert list(again.get_model("plans", "PlanEntry").objects.values_list("kind", flat=True)) == ["goal"]
    after = _migrate(AFTER)
    assert after.get_model("assets", "Transaction").objects.count() == 3
    assert after.get_model("plans", "PlanEntry").objects.count() == 1
