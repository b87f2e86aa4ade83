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
    return ctx


def read_zip(data: bytes) -> dict:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def make_zip(members: dict[str, object]) -> io.BytesIO:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, value in members.items():
            archive.writestr(name, value if isinstance(value, bytes | str) else json.dumps(value))
    out.seek(0)
    out.name = "export.zip"
    return out
