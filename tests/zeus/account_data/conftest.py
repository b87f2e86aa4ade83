import io
import json
import zipfile

import pytest

from assets.ledger.catalog import user_category_create
from assets.ledger.corrections import transaction_split
from assets.rules.services import rule_create
from demo.seed import STEPS, DemoContext
from tests import factories
from zeus.services import notification_create
from zeus.timeutil import user_today


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def rich_ledger(user) -> DemoContext:
    """The demo's whole account (linked accounts, a year of ledger, transfers, dollars, budgets, goals, debts
    paid by instalments, a plan, suggestions and insights, a chat conversation), plus a split row, a category of
    the user's own, a rule and a notification."""
    ctx = DemoContext(user=user, today=user_today(user))
    for step in STEPS:
        step(ctx)
    category = user_category_create(user=user, kind="shopping", name_vi="Nuôi mèo", name_en="Cat")
    txn = factories.txn(user, amount="300000", category="shopping", description="=cmd|' /C calc'!A0")
    transaction_split(
        user=user,
        transaction_id=txn.id,
        parts=[
            {"amount": "100000", "category": f"c:{category.id}", "note": "food"},
            {"amount": "200000", "category": "shopping"},
        ],
    )
    rule_create(user=user, match="grab", category="transport")
    notification_create(user=user, kind="insight", title="Hello", body="A note", dedupe_key="x1")
    every_record(user)
    return ctx


def every_record(user) -> None:
    """A row, where the demo leaves none, of each remaining record a user can own: a restore that drops or
    mislinks one of them then fails the round trip. Written directly: the generic copy is what is tested."""
    import datetime as dt
    import uuid
    from decimal import Decimal

    from django.apps import apps
    from django.utils import timezone

    model = apps.get_model
    now = timezone.now()
    today = user_today(user)
    txns = list(model("assets.Transaction").objects.filter(user=user, transfer__isnull=True).order_by("id")[:2])
    thread = model("chat.Thread").objects.filter(user=user).first()
    plan = model("plans.MonthlyPlan").objects.filter(user=user).first()
    debt = model("goals.Debt").objects.filter(user=user).first()
    batch = model("assets.ImportBatch").objects.create(user=user, format="csv")
    model("assets.Transaction").objects.filter(id=txns[0].id).update(import_batch=batch)
    model("assets.ImportMapping").objects.create(user=user, header_key="date,amount", mapping={"date": 0})
    model("assets.RejectedPair").objects.create(user=user, outgoing=txns[0], incoming=txns[1])
    model("assets.BankTextDraft").objects.create(
        user=user, text="VCB -50,000 VND", parsed_by="rule", amount=Decimal(50000), currency="VND",
        direction="expense", occurred_at=now, category="dining", duplicate_of=txns[1],
    )  # fmt: skip
    run = model("chat.TurnRun").objects.create(
        user=user, day=today, started_at=now, finished_at=now, outcome="ok", thread=thread
    )
    model("chat.ModelCall").objects.create(run=run, seq=1, purpose="main", model="claude-sonnet-5-5")
    model("chat.ToolCall").objects.create(run=run, seq=1, name="list_transactions", call_id="toolu_1")
    model("chat.DailyUsage").objects.create(user=user, day=today)
    model("chat.TokenBudget").objects.create(user=user)
    model("chat.ToolExecution").objects.create(
        user=user, call_id="toolu_2", tool="add_transaction", thread_id=thread.id
    )
    model("chat.Approval").objects.create(
        user=user, thread_id=thread.id, call_id="toolu_3", tool="delete_transaction", expires_at=now
    )
    model("chat.ProviderKey").objects.create(user=user, **_provider_key_fields())
    model("plans.IdempotencyRecord").objects.create(user=user, key="k1", fingerprint="f" * 64, status_code=201)
    model("goals.DebtReminder").objects.create(debt=debt, due_on=today)
    model("plans.ForecastWatch").objects.get_or_create(user=user)
    model("plans.PlanEntry").objects.create(plan=plan, amount=Decimal(42000), logged_on=today)
    model("plans.Rebalance").objects.create(
        plan=plan, kind="trim", warning_state="over", amount=Decimal(1000), before={}, after={}
    )
    model("plans.ReminderLog").objects.create(plan=plan, local_date=today, run_id=uuid.uuid4())
    model("plans.PlanRevision").objects.create(
        plan=plan, changed_by=user, before={"income": "1"}, after={"income": "2"}
    )
    model("suggestions.WeeklyDigest").objects.create(
        user=user, iso_week="2026-W48", week_start=today - dt.timedelta(days=today.weekday()), run_id=uuid.uuid4()
    )
    notification = model("zeus.Notification").objects.filter(user=user).first()
    model("zeus.MailDelivery").objects.create(notification=notification, to="alice@example.com", next_attempt_at=now)


def _provider_key_fields() -> dict:
    from django.apps import apps

    key = apps.get_model("chat.ProviderKey")
    return {f.name: "x" for f in key._meta.concrete_fields if f.get_internal_type() in ("TextField", "CharField")}


def read_zip(data: bytes) -> dict:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _bytes(value) -> bytes:
    if isinstance(value, bytes):
        return value
    return (value if isinstance(value, str) else json.dumps(value)).encode()


def make_zip(members: dict[str, object], *, sealed: bool = True) -> io.BytesIO:
    """An archive of these members. Sealed (as this Zeus seals its exports) when the manifest is a dict: the tests
    of what an import checks beyond the seal need contents the seal does not already refuse."""
    import hashlib

    from zeus.account_data.export import seal

    manifest = members.get("manifest.json")
    if sealed and isinstance(manifest, dict) and "records" in manifest:
        digests = {
            name: hashlib.sha256(_bytes(v)).hexdigest() for name, v in members.items() if name != "manifest.json"
        }
        account_id = (manifest.get("account") or {}).get("id")
        members = {**members, "manifest.json": {**manifest, "seal": seal(
            account_id=account_id, counts=manifest["records"], digests=digests)}}  # fmt: skip
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, value in members.items():
            archive.writestr(name, _bytes(value))
    out.seek(0)
    out.name = "export.zip"
    return out
