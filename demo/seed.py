"""`manage.py seed_demo`: the demo account `demo` / `demo` and the support account `support` / `support`.

The seed is a list of steps, each `step(ctx: DemoContext) -> None`, idempotent on its own (it adds only what
is missing and counts what it added in `ctx.added`). Apps above the ledger append theirs to STEPS (a demo
plan, a demo chat conversation) without this module importing them.

The demo ledger is relative to the user's today (demo/ledger.py). Run again on the same day, the seed adds
nothing; run on a later day, the data no longer ends on today, so it is rebuilt (as with `--reset`).
"""

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from assets.models import Asset, LinkedAccount, Source, Transaction
from assets.selectors import asset_list, linked_account_list
from assets.services import asset_create, transaction_create
from demo.conversation import seed_conversation
from demo.debts import seed_debts
from demo.ledger import BUDGETS, CASH, CURRENCY, MOMO, VCB, ledger
from demo.truth import seed_transfers_and_dollars
from goals.selectors import budget_list, goal_list
from goals.services import budget_create, goal_create
from plans.demo import seed_demo_plan
from plans.selectors import plan_current
from suggestions.insights.job import insights_generate
from suggestions.recurring.job import recurring_detect
from suggestions.services import suggestions_refresh
from zeus.services import profile_update
from zeus.timeutil import user_today

DEMO_USERNAME = "demo"
DEMO_EMAIL = "demo@example.com"
SUPPORT_USERNAME = "support"
TIMEZONE = "Asia/Ho_Chi_Minh"

# The names are written in the demo profile's language (`seed_demo --language`, Vietnamese by default).
LINKED_ACCOUNTS = {
    VCB: {"institution": "Vietcombank", "name": _("Checking"), "masked_number": "•••• 4821", "balance": 48_500_000},
    MOMO: {"institution": "MoMo", "name": _("E-wallet"), "masked_number": "•••• 0937", "balance": 1_200_000},
}
SYNCED_ASSETS = {
    VCB: {"name": _("Vietcombank checking"), "kind": Asset.Kind.BANK_ACCOUNT},
    MOMO: {"name": _("MoMo wallet"), "kind": Asset.Kind.E_WALLET},
}
MANUAL_ASSETS = [
    {"name": _("Cash wallet"), "kind": Asset.Kind.CASH, "balance": 2_000_000},
    {"name": "Honda Vision", "kind": Asset.Kind.VEHICLE, "balance": 30_000_000},
    {"name": _("Techcombank savings"), "kind": Asset.Kind.SAVINGS, "balance": 50_000_000},
]
GOALS = [
    {"name": _("Emergency fund"), "kind": "emergency_fund", "target_amount": 60_000_000,
     "current_amount": 18_000_000, "deadline": "12 months"},
    {"name": _("Buy a house"), "kind": "house", "target_amount": 800_000_000, "current_amount": 65_000_000,
     "deadline": "8 years"},
]  # fmt: skip
LANGUAGE = "vi"


@dataclass
class DemoContext:
    user: object
    today: date
    added: Counter = field(default_factory=Counter)
    accounts: dict[str, Asset] = field(default_factory=dict)  # VCB, MOMO and CASH → the asset they pay from
    language: str = LANGUAGE


def seed_linked_accounts(ctx: DemoContext) -> None:
    """The two bank feeds and their synced assets. `last_synced_at` marks the day the demo ledger ends on."""
    existing = {account.masked_number: account for account in linked_account_list(user=ctx.user)}
    for key, spec in LINKED_ACCOUNTS.items():
        account = existing.get(spec["masked_number"])
        if account is None:
            account = LinkedAccount.objects.create(
                user=ctx.user, currency=CURRENCY, last_synced_at=timezone.now(), **_worded(spec)
            )
            ctx.added["linked accounts"] += 1
        asset = asset_list(user=ctx.user, source=Source.SYNCED).filter(linked_account=account).first()
        if asset is None:
            asset = Asset.objects.create(
                user=ctx.user,
                linked_account=account,
                source=Source.SYNCED,
                balance=spec["balance"],
                currency=CURRENCY,
                **_worded(SYNCED_ASSETS[key]),
            )
            ctx.added["assets"] += 1
        ctx.accounts[key] = asset


def _worded(spec: dict) -> dict:
    """The spec with its texts in the active language (the seed runs in the demo profile's)."""
    return {k: str(v) if isinstance(v, Promise) else v for k, v in spec.items()}


def seed_manual_assets(ctx: DemoContext) -> None:
    names = {asset.name: asset for asset in asset_list(user=ctx.user, source=Source.MANUAL)}
    for spec in map(_worded, MANUAL_ASSETS):
        if spec["name"] not in names:
            names[spec["name"]] = asset_create(user=ctx.user, currency=CURRENCY, **spec)
            ctx.added["assets"] += 1
    ctx.accounts[CASH] = names[str(MANUAL_ASSETS[0]["name"])]


def seed_transactions(ctx: DemoContext) -> None:
    """Synced rows are known by their external_id; manual (cash) rows by day, description and amount, which
    the demo ledger never repeats within a day."""
    entries = ledger(ctx.today)
    synced_ids = set(
        Transaction.objects.filter(user=ctx.user, external_id__startswith="demo-").values_list("external_id", flat=True)
    )
    manual_keys = set(
        Transaction.objects.filter(user=ctx.user, source=Source.MANUAL).values_list(
            "occurred_on", "description", "amount"
        )
    )
    synced = []
    for entry in entries:
        asset = ctx.accounts[entry.account]
        if entry.synced and entry.external_id not in synced_ids:
            synced.append(
                Transaction(
                    user=ctx.user,
                    amount=entry.amount,
                    currency=CURRENCY,
                    direction=entry.direction,
                    description=entry.description,
                    category=entry.category,
                    occurred_on=entry.occurred_on,
                    asset=asset,
                    source=Source.SYNCED,
                    external_id=entry.external_id,
                )
            )
        elif not entry.synced and (entry.occurred_on, entry.description, entry.amount) not in manual_keys:
            transaction_create(
                user=ctx.user,
                amount=entry.amount,
                description=entry.description,
                direction=entry.direction,
                category=entry.category,
                occurred_on=entry.occurred_on,
                currency=CURRENCY,
                asset_id=asset.id,
            )
            ctx.added["manual transactions"] += 1
    if synced:
        Transaction.objects.bulk_create(synced)
        ctx.added["synced transactions"] += len(synced)


def seed_budgets(ctx: DemoContext) -> None:
    budgeted = set(budget_list(user=ctx.user).values_list("category", flat=True))
    for category, amount in BUDGETS.items():
        if category not in budgeted:
            budget_create(user=ctx.user, category=category, amount=amount, currency=CURRENCY)
            ctx.added["budgets"] += 1


def seed_goals(ctx: DemoContext) -> None:
    names = set(goal_list(user=ctx.user).values_list("name", flat=True))
    for spec in map(_worded, GOALS):
        if spec["name"] not in names:
            goal_create(user=ctx.user, currency=CURRENCY, **spec)
            ctx.added["goals"] += 1


def seed_plan(ctx: DemoContext) -> None:
    if plan_current(user=ctx.user, today=ctx.today) is None:
        seed_demo_plan(user=ctx.user, today=ctx.today)
        ctx.added["plans"] += 1


def seed_suggestions(ctx: DemoContext) -> None:
    """What the nightly jobs would have found, so the demo shows its suggestions and insights at once."""
    suggestions_refresh(user=ctx.user)
    ctx.added["insights"] += insights_generate(user_ids=[ctx.user.id])
    # Kept apart from "insights": how many price changes or bills fall due depends on the day of the month.
    ctx.added["recurring_insights"] += recurring_detect(user_ids=[ctx.user.id]).insights


Step = Callable[[DemoContext], None]
STEPS: list[Step] = [
    seed_linked_accounts,
    seed_manual_assets,
    seed_transactions,
    seed_transfers_and_dollars,
    seed_budgets,
    seed_goals,
    seed_debts,
    seed_plan,
    seed_suggestions,
    seed_conversation,
]


def support_user_ensure():
    """Staff with every admin permission, for the support team's first look at the admin."""
    support, _ = get_user_model().objects.get_or_create(username=SUPPORT_USERNAME)
    if not (support.is_staff and support.is_superuser and support.check_password(SUPPORT_USERNAME)):
        support.is_staff = support.is_superuser = True
        support.set_password(SUPPORT_USERNAME)
        support.save()
    return support


def demo_user_ensure(*, reset: bool = False, language: str = LANGUAGE):
    """The demo user, made afresh when asked to, when their data ends before their today, or when they are to
    read another language than the one their data was written in."""
    users = get_user_model().objects
    user = users.filter(username=DEMO_USERNAME).first()
    stale = user is not None and (_seeded_on(user) not in (None, user_today(user)) or user.profile.language != language)
    if user is not None and (reset or stale):
        user.delete()  # every app's rows for the demo user go with it
        user = None
    if user is None:
        user = users.create(username=DEMO_USERNAME, email=DEMO_EMAIL)
    # Verified, so the demo signs in by e-mail too and can try a second factor at once (docs/accounts.md).
    EmailAddress.objects.update_or_create(user=user, email=DEMO_EMAIL, defaults={"verified": True, "primary": True})
    if not user.check_password(DEMO_USERNAME):
        user.set_password(DEMO_USERNAME)  # short on purpose: the validators are for real sign-ups
        user.save(update_fields=["password"])
    profile_update(user=user, currency=CURRENCY, timezone_name=TIMEZONE, display_name="Minh Anh", language=language)
    return user


def _seeded_on(user) -> date | None:
    account = linked_account_list(user=user).filter(masked_number=LINKED_ACCOUNTS[VCB]["masked_number"]).first()
    if account is None or account.last_synced_at is None:
        return None
    return timezone.localtime(account.last_synced_at, user.profile.tz).date()


def seed_demo(*, reset: bool = False, language: str = LANGUAGE) -> DemoContext:
    """The demo, its names, goals and conversation written in `language` (vi or en); its insights are worded
    when read, in whatever the profile reads then."""
    with transaction.atomic(), translation.override(language):
        support_user_ensure()
        user = demo_user_ensure(reset=reset, language=language)
        ctx = DemoContext(user=user, today=user_today(user), language=language)
        for step in STEPS:
            step(ctx)
    return ctx
