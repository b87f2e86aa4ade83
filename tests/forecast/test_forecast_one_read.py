"""cash_forecast for one user (the API's, the assistant's) reads this month's active plan in one query whose row
carries its fixed expenses' categories, its goal entries' total, the cushion and whether the user owes on any open
debt (plans/forecast_plan.py): four queries with a plan however long the history, the debts read only when the
user owes on one, and the same forecast as the batch read and as a read of the plan through plans_current."""

import datetime as dt

import pytest

from assets.models import Transaction
from goals.debts.services import debt_create
from plans.forecast_read import ActivePlan, cash_forecast, cash_forecasts, forecast_cushion_set
from plans.selectors import plan_ledger, plans_current
from tests import factories
from tests.forecast.test_forecast_batch import queries_of, series
from tests.plans.factories import RENT, UTILITIES, plan
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db


def planned(name: str):
    """A user with a bank account, this month's active plan (rent and utilities fixed), spending this month in a
    fixed category and a discretionary one, a bill, a salary and a cushion."""
    user = factories.user(name)
    today = user_today(user)
    factories.asset(user, kind="bank_account", balance="9000000")
    plan(user, month=f"{today:%Y-%m}", fixed=(RENT, UTILITIES), active=True)
    factories.txn(user, amount="700000", category="utilities", occurred_on=today)
    factories.txn(user, amount="120000", category="dining", occurred_on=today)
    later = lambda days: today + dt.timedelta(days=days)  # noqa: E731
    series(user, merchant="Power", kind="bill", direction="expense", amount="400000", next_on=later(3))
    series(user, merchant="Salary", kind="income", direction="income", amount="25000000", next_on=later(20))
    forecast_cushion_set(user=user, cushion="500000")
    return user, today


def history(user, today: dt.date, rows: int) -> None:
    Transaction.objects.bulk_create(
        Transaction(
            user=user,
            amount=20000 + n,
            currency="VND",
            direction="expense",
            category="groceries",
            occurred_on=today - dt.timedelta(days=1 + n % 1500),
        )
        for n in range(rows)
    )


def test_one_users_forecast_with_a_plan_takes_four_queries_however_long_the_history():
    user, today = planned("an")
    read = lambda: cash_forecast(user=user, today=today)  # noqa: E731
    short = read()
    # The accounts; the plan with its fixed categories, goal entries, cushion and debts owed; its month's ledger;
    # the recurring series.
    assert queries_of(read) == 4
    history(user, today, 2000)
    assert queries_of(read) == 4
    assert read() == short and short.forecast.cushion == 500000


@pytest.mark.parametrize("owed", [(), ("owed_to_me",), ("owed_to_me", "i_owe")])
def test_the_debts_are_read_only_when_the_user_owes_on_one(owed):
    user, today = planned("binh")
    for n, direction in enumerate(owed):
        debt_create(
            user=user, direction=direction, counterparty=f"Lan {n}", principal="900000", installments=3,
            first_due_on=today + dt.timedelta(days=4),
        )  # fmt: skip
    view = cash_forecast(user=user, today=today)
    debts = [e for d in view.forecast.days for e in d.events if e.kind == "debt"]
    assert bool(debts) == ("i_owe" in owed)
    # The open debts and their payments, read only for a user who owes.
    assert queries_of(lambda: cash_forecast(user=user, today=today)) == (6 if "i_owe" in owed else 4)


@pytest.mark.parametrize("owes", [False, True])
def test_the_one_users_read_is_the_batch_read_and_a_read_through_plans_current(owes):
    user, today = planned("chi")
    if owes:
        debt_create(
            user=user, direction="i_owe", counterparty="Bank", principal="1200000", installments=3,
            first_due_on=today + dt.timedelta(days=2),
        )  # fmt: skip
    current = plans_current(today_of={user.pk: today})[user.pk]
    given = cash_forecast(user=user, today=today, active=ActivePlan(plan=current, ledger=plan_ledger(current)))
    alone = cash_forecast(user=user, today=today)
    assert alone == given == cash_forecasts(users=[user], today_of={user.pk: today})[user.pk]
    assert {e.kind for d in alone.forecast.days for e in d.events} >= {"bill", "income", "fixed", "spending"}
