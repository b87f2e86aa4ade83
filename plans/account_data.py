"""Monthly plans and the forecast's watch, declared for the account's export, restore and erasure
(zeus/account_data)."""

from zeus.account_data.registry import Record, register

RECORDS = [
    Record("plans.MonthlyPlan", "user"),
    Record("plans.FixedExpense", "plan__user"),
    Record("plans.PlanEntry", "plan__user"),
    Record("plans.Rebalance", "plan__user"),
    Record("plans.PlanRevision", "plan__user"),
    Record("plans.ReminderLog", "plan__user"),
    Record("plans.ForecastWatch", "user"),
    Record(
        "plans.IdempotencyRecord",
        "user",
        exported=False,
        reason="a client's retry guard for a day: replays of requests made to this account, not the user's data",
    ),
]


def register_all() -> None:
    for record in RECORDS:
        register(record)
