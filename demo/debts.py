"""The demo's debts and IOUs (docs/demo-data.md): two friends who owe Minh Anh, an instalment loan and money
owed to her parents, a credit card with its statement cycle, and the Vietcombank account a VietQR for a friend
pays into. Dates relative to today; a second run adds nothing (each debt is known by its counterparty, the
card by its name)."""

import datetime as dt

from assets.models import Asset
from assets.services import asset_create
from demo.ledger import VCB
from goals.debts.models import Debt
from goals.debts.schedule import add_months
from goals.debts.selectors import debt_list, debt_view
from goals.debts.services import debt_create, debt_payment_record

CARD = {"name": "Thẻ tín dụng VIB", "kind": Asset.Kind.CREDIT_CARD, "balance": 3_450_000, "statement_day": 20,
        "due_day": 5}  # fmt: skip

# Vietcombank's NAPAS BIN and a made-up account number ending in the linked account's mask.
VCB_BIN = "970436"
VCB_ACCOUNT = "0071000124821"


def _specs(today: dt.date) -> list[dict]:
    loan_opened = add_months(today, -3)
    return [
        {
            "direction": Debt.Direction.OWED_TO_ME,
            "counterparty": "Minh (em họ)",
            "principal": 2_000_000,
            "opened_on": today - dt.timedelta(days=20),
            "due_on": today + dt.timedelta(days=10),
            "note": "Mượn tiền đóng học phí",
        },
        {
            "direction": Debt.Direction.OWED_TO_ME,
            "counterparty": "Lan",
            "principal": 450_000,
            "opened_on": today - dt.timedelta(days=5),
            "note": "Tiền vé xem phim và ăn tối",
        },
        {
            "direction": Debt.Direction.I_OWE,
            "counterparty": "Trả góp iPhone (FE Credit)",
            "principal": 24_000_000,
            "opened_on": loan_opened,
            "interest_rate": 18,
            "interest_method": Debt.Method.REDUCING,
            "installments": 12,
            "first_due_on": add_months(loan_opened, 1),
        },
        {
            "direction": Debt.Direction.I_OWE,
            "counterparty": "Bố mẹ",
            "principal": 10_000_000,
            "opened_on": today - dt.timedelta(days=120),
            "note": "Góp tiền cọc nhà",
        },
    ]


def seed_debts(ctx) -> None:
    known = set(debt_list(user=ctx.user).values_list("counterparty", flat=True))
    for spec in _specs(ctx.today):
        if spec["counterparty"] in known:
            continue
        debt = debt_create(user=ctx.user, currency="VND", **spec)
        ctx.added["debts"] += 1
        # The instalments already due are paid, on their dates.
        for row in debt_view(debt, today=ctx.today).schedule:
            if row.due_on < ctx.today:
                debt_payment_record(user=ctx.user, debt_id=debt.id, amount=row.amount, paid_on=row.due_on)
    seed_card(ctx)
    vcb = ctx.accounts.get(VCB)
    if vcb is not None and not vcb.bank_bin:
        # The synced asset is read only to the user; the demo gives it the details its VietQR needs.
        type(vcb).objects.filter(pk=vcb.pk).update(bank_bin=VCB_BIN, account_number=VCB_ACCOUNT)


def seed_card(ctx) -> None:
    """A card billed on the 20th and due on the 5th: its balance is the last statement's, due on the next 5th."""
    if not Asset.objects.filter(user=ctx.user, name=CARD["name"]).exists():
        asset_create(user=ctx.user, currency="VND", **CARD)
        ctx.added["assets"] += 1
