"""Goals, budgets and debts, declared for the account's export, restore and erasure (zeus/account_data)."""

from goals.debts.services import new_code
from zeus.account_data.registry import Record, register

RECORDS = [
    Record("goals.Goal", "user"),
    Record("goals.Budget", "user"),
    # A debt's code is unique across Zeus (a VietQR transfer names it): a restored debt gets a new one.
    Record("goals.Debt", "user", fresh={"code": new_code}),
    Record("goals.DebtPayment", "debt__user"),
    Record("goals.DebtReminder", "debt__user"),
]


def register_all() -> None:
    for record in RECORDS:
        register(record)
