"""Plain factory functions: each makes one valid row through the services, with overridable fields."""

import datetime as dt

from django.contrib.auth import get_user_model

from assets.models import Asset, LinkedAccount, Source, Transaction
from goals.models import Budget, Goal
from zeus.accounts.services import device_token_create
from zeus.models import DeviceToken
from zeus.services import consent_record, profile_update

PASSWORD = "correct horse battery staple"


def user(
    username: str,
    *,
    currency: str = "VND",
    timezone: str = "Asia/Ho_Chi_Minh",
    language: str = "en",
    consent: bool = True,
    **extra,
):
    """A person; the test personas read English unless a test says otherwise (a new profile's default is `vi`).
    They have agreed to the model provider (zeus/consent.py) unless `consent=False`: the tests of the refusal
    say so, every other chat and MCP test runs as a user who agreed."""
    u = get_user_model().objects.create_user(username=username, password=PASSWORD, **extra)
    profile_update(user=u, currency=currency, timezone_name=timezone, language=language)
    if consent:
        consent_record(user=u, granted=True)
    u.profile.refresh_from_db()  # the instance the sign-up signal cached, so a test's `u.profile.save()` keeps these
    return u


def api_key(owner, *, name="tests", last_used_at=None) -> str:
    """A new device token's key for the REST API (`Authorization: Token <key>`)."""
    issued = device_token_create(user=owner, name=name)
    if last_used_at is not None:
        DeviceToken.objects.filter(id=issued.token.id).update(last_used_at=last_used_at)
    return issued.key


def asset(owner, *, name="Wallet", kind="cash", balance="0", currency=None, source=Source.MANUAL, **extra) -> Asset:
    return Asset.objects.create(
        user=owner,
        name=name,
        kind=kind,
        balance=balance,
        currency=currency or owner.profile.currency,
        source=source,
        **extra,
    )


def linked_account(
    owner, *, institution="Vietcombank", name="Checking", masked_number="•••• 1234", balance="0", currency=None, **extra
) -> LinkedAccount:
    return LinkedAccount.objects.create(
        user=owner,
        institution=institution,
        name=name,
        masked_number=masked_number,
        balance=balance,
        currency=currency or owner.profile.currency,
        **extra,
    )


def txn(
    owner,
    *,
    amount="100000",
    direction="expense",
    category="dining",
    occurred_on=None,
    description="",
    currency=None,
    source=Source.MANUAL,
    external_id=None,
    asset=None,
) -> Transaction:
    return Transaction.objects.create(
        user=owner,
        amount=amount,
        currency=currency or owner.profile.currency,
        direction=direction,
        category=category,
        occurred_on=occurred_on or dt.date.today(),
        description=description,
        source=source,
        external_id=external_id,
        asset=asset,
    )


def goal(
    owner,
    *,
    name="House",
    kind="house",
    target_amount="1000000000",
    current_amount="0",
    deadline=None,
    started_on=None,
    currency=None,
) -> Goal:
    today = dt.date.today()
    return Goal.objects.create(
        user=owner,
        name=name,
        kind=kind,
        target_amount=target_amount,
        current_amount=current_amount,
        currency=currency or owner.profile.currency,
        deadline=deadline or today.replace(year=today.year + 5),
        started_on=started_on or today,
    )


def budget(owner, *, category="dining", amount="2000000", currency=None) -> Budget:
    return Budget.objects.create(
        user=owner, category=category, amount=amount, currency=currency or owner.profile.currency
    )


def rate(day: dt.date, rate, *, source: str = "vietcombank", from_currency="USD", to_currency="VND", owner=None):
    """A published rate (or the owner's own): how many `to_currency` one `from_currency` buys on `day`."""
    from assets.ledger.models import ExchangeRate

    return ExchangeRate.objects.create(
        day=day, from_currency=from_currency, to_currency=to_currency, rate=rate, source=source, user=owner
    )


def marked_rows(owner, n: int, day: dt.date):
    """n split rows, n paired transfers and one suggested transfer (returned), all on `day`: the rows a ledger
    page flags."""
    from assets.ledger.corrections import transaction_split
    from assets.ledger.models import Transfer
    from assets.ledger.transfers import transfer_create

    bank, momo = asset(owner, name="Bank", kind="bank_account"), asset(owner, name="MoMo")
    for i in range(n):
        split = txn(owner, amount="300000", occurred_on=day)
        transaction_split(
            user=owner,
            transaction_id=split.id,
            parts=[{"amount": "200000", "category": "groceries"}, {"amount": "100000", "category": "shopping"}],
        )
        out = txn(owner, asset=bank, amount=f"{i + 1}000000", occurred_on=day)
        into = txn(owner, asset=momo, amount=f"{i + 1}000000", direction="income", occurred_on=day)
        transfer_create(user=owner, out_id=out.id, in_id=into.id)
    # A suggestion names its rows too, though they count until it is accepted.
    out = txn(owner, asset=bank, amount="777000", occurred_on=day)
    into = txn(owner, asset=momo, amount="777000", direction="income", occurred_on=day)
    return Transfer.objects.create(user=owner, outgoing=out, incoming=into, status=Transfer.Status.SUGGESTED)
