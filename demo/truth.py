"""The demo ledger's own accounts moving money (docs/demo-data.md, "Transfers and currencies"): a MoMo top-up
from Vietcombank and a monthly savings deposit, each paired as a transfer, and a USD account with a few rows
and the demo user's own USD→VND rates. Relative to the user's today, idempotent like every seed step."""

import datetime as dt
from decimal import Decimal

from assets.ledger.catalog import exchange_rate_set
from assets.ledger.pairing import transfer_pair_arrivals
from assets.models import Asset, Source, Transaction
from assets.selectors import asset_list
from assets.services import asset_create
from demo.ledger import CURRENCY, MOMO, VCB

USD_ACCOUNT = {"name": "Wise USD", "kind": Asset.Kind.BANK_ACCOUNT, "balance": "1250.00", "currency": "USD"}
TOP_UP = (12, Decimal(2_000_000))  # days ago, amount
DEPOSIT = Decimal(5_000_000)
DEPOSIT_DAYS = (70, 40, 10)  # about a month apart, never in the last week the insights read as "this week"
# Dollars: days ago, description, amount, direction, category.
USD_ROWS = (
    (45, "Upwork payout", Decimal("500.00"), "income", "other_income"),
    (45, "GitHub", Decimal("12.99"), "expense", "subscriptions"),
    (30, "AWS", Decimal("23.40"), "expense", "subscriptions"),
    (15, "GitHub", Decimal("12.99"), "expense", "subscriptions"),
)
USD_RATES = ((60, "25950"), (30, "26050"), (14, "26138"))  # days ago, VND one dollar buys


def _row(ctx, *, asset, days_ago, description, amount, direction, category, currency=CURRENCY, external_id=None):
    """The row, once: synced ones known by their external id, manual ones by account, day, text and amount."""
    day = ctx.today - dt.timedelta(days=days_ago)
    rows = Transaction.objects.filter(user=ctx.user)
    found = (
        rows.filter(external_id=external_id)
        if external_id
        else rows.filter(asset=asset, occurred_on=day, description=description, amount=amount)
    ).first()
    if found is not None:
        return found
    ctx.added["ledger transfers and dollars"] += 1
    return Transaction.objects.create(
        user=ctx.user,
        amount=amount,
        currency=currency,
        direction=direction,
        description=description,
        category=category,
        occurred_on=day,
        asset=asset,
        source=Source.SYNCED if external_id else Source.MANUAL,
        external_id=external_id,
    )


def seed_transfers_and_dollars(ctx) -> None:
    vcb, momo = ctx.accounts[VCB], ctx.accounts[MOMO]
    # Known by its kind: its name is written in the demo profile's language.
    savings = asset_list(user=ctx.user, source=Source.MANUAL).get(kind=Asset.Kind.SAVINGS)
    landed = []
    days, amount = TOP_UP
    landed.append(
        _row(ctx, asset=vcb, days_ago=days, description="Nạp tiền ví MoMo", amount=amount, direction="expense",
             category="other", external_id=f"demo-topup-out-{ctx.today - dt.timedelta(days=days):%Y%m%d}")
    )  # fmt: skip
    landed.append(
        _row(ctx, asset=momo, days_ago=days, description="Nhận tiền từ Vietcombank", amount=amount,
             direction="income", category="other_income",
             external_id=f"demo-topup-in-{ctx.today - dt.timedelta(days=days):%Y%m%d}")
    )  # fmt: skip
    for days in DEPOSIT_DAYS:
        day = ctx.today - dt.timedelta(days=days)
        landed.append(
            _row(ctx, asset=vcb, days_ago=days, description="Gửi tiết kiệm Techcombank", amount=DEPOSIT,
                 direction="expense", category="other", external_id=f"demo-savings-{day:%Y%m%d}")
        )  # fmt: skip
        landed.append(
            _row(ctx, asset=savings, days_ago=days, description="Tiền gửi tiết kiệm hằng tháng", amount=DEPOSIT,
                 direction="income", category="other_income")
        )  # fmt: skip
    transfer_pair_arrivals(user_id=ctx.user.id, transaction_ids=[row.id for row in landed if row.transfer_id is None])

    usd = asset_list(user=ctx.user).filter(name=USD_ACCOUNT["name"]).first()
    if usd is None:
        usd = asset_create(user=ctx.user, **USD_ACCOUNT)
        ctx.added["assets"] += 1
    for days, description, amount, direction, category in USD_ROWS:
        _row(ctx, asset=usd, days_ago=days, description=description, amount=amount, direction=direction,
             category=category, currency="USD")  # fmt: skip
    for days, rate in USD_RATES:
        exchange_rate_set(
            user=ctx.user, day=ctx.today - dt.timedelta(days=days), from_currency="USD", to_currency="VND", rate=rate
        )
